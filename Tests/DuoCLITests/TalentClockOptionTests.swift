import Foundation
import XCTest

/// `--talent-clock` from the settings file (issue 37): a good value applies, a bad one is one line naming
/// the file and line with the word meant.
final class TalentClockOptionTests: XCTestCase {
    func testTheSettingsFileTakesTheTalentClock() throws {
        let home = try scratchDirectory(self)
        try FileManager.default.createDirectory(atPath: "\(home)/duo-capture", withIntermediateDirectories: true)
        let path = "\(home)/duo-capture/duo-capture.conf"
        try Data("[duo-capture]\ntalent-clock=clock,target\n".utf8).write(to: URL(fileURLWithPath: path))
        let shown = try duoCapture(["--print-config"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("talent-clock = clock,target\t(\(path):2)"), shown.stdout)

        try Data("[duo-capture]\ntalent-clock=clok\n".utf8).write(to: URL(fileURLWithPath: path))
        let bad = try duoCapture(["--print-config"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertNotEqual(bad.status, 0)
        let line = bad.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(line.contains("\(path):2") && line.contains("did you mean clock?"), line)
        XCTAssertFalse(line.contains("\n"), line)
    }
}
