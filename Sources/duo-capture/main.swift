import DuoCLI
import Foundation

exit(await DuoCaptureMain.run(Array(CommandLine.arguments.dropFirst())))
