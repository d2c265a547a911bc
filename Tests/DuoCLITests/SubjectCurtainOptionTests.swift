import Foundation
import XCTest

/// `--subject-curtain on|off` on the command line, in `--help`, and as `subject-curtain=` in the settings
/// file (checked as the option it stands for).
final class SubjectCurtainOptionTests: XCTestCase {
    private func config(_ text: String) throws -> (home: String, path: String) {
        let home = try scratchDirectory(self)
        try FileManager.default.createDirectory(atPath: "\(home)/duo-capture", withIntermediateDirectories: true)
        let path = "\(home)/duo-capture/duo-capture.conf"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (home, path)
    }

    func testHelpNamesTheOption() throws {
        let run = try duoCapture(["--help"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.contains("--subject-curtain on|off"), run.stdout)
    }

    func testTheSettingsFileGivesItAndABadValueNamesTheFileAndLine() throws {
        let (home, path) = try config("[duo-capture]\nsubject-curtain=off\n")
        let shown = try duoCapture(["--print-config"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("subject-curtain = off\t(\(path):2)"), shown.stdout)

        let (badHome, badPath) = try config("[duo-capture]\nsubject-curtain=maybe\n")
        let run = try duoCapture(["--headless", "--duration", "1"], environment: ["XDG_CONFIG_HOME": badHome])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("duo-capture: error: \(badPath):2: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("--subject-curtain"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testABadValueOnTheCommandLineIsOneLine() throws {
        let run = try duoCapture(["--headless", "--duration", "1", "--subject-curtain", "maybe"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("use on") && run.stderr.contains("or off"), run.stderr)
    }
}
