import DuoCLI
