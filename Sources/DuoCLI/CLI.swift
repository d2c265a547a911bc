public enum DuoCLI {}
