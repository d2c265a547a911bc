import DuoCore
import DuoRender
import Foundation
print("todo")
if CommandLine.arguments.dropFirst().first == "render-subject" {
    do { print(try RenderSubjectCommand.run(arguments: Array(CommandLine.arguments.dropFirst(2)))) }
    catch { FileHandle.standardError.write(Data("error: \(error)\n".utf8)); exit(error.kind.exitCode) }
}
