// duo-capture with the test hub registered (test cameras, benchmark frame codes, fault commands): for the
// test suite, QA timelines and Benchmarks/. Never installed; users get Sources/duo-capture.
import DuoCLI
import DuoTestHub
import Foundation

TestHub.install()
exit(await DuoCaptureMain.run(Array(CommandLine.arguments.dropFirst())))
