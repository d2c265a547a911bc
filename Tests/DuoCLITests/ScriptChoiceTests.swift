import DuoCore
import Foundation
import XCTest

/// `duo-capture --accessory teleprompter` as typed, with no script: the last script used, else the
/// welcome script, each with a notice; a remembered script that was deleted falls back to the welcome one.
final class ScriptChoiceTests: XCTestCase {
    private let base = ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none",
                        "--accessory", "teleprompter", "--duration", "0.5"]

    func testATeleprompterWithoutAScriptOpensTheLastOneElseTheWelcomeScript() throws {
        let state = try scratchDirectory(self)
        let env = ["XDG_STATE_HOME": state]
        var run = try duoCapture(base, environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("no --script given; opening the welcome script"), run.stderr)

        let dir = try scratchDirectory(self)
        let mine = "\(dir)/mine.md"
        try "# Mine\n\nMy own words to read.\n".write(toFile: mine, atomically: true, encoding: .utf8)
        run = try duoCapture(base + ["--script", mine], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("opening"), run.stderr)

        run = try duoCapture(base, environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("opening the last script used, \(mine)"), run.stderr)

        try FileManager.default.removeItem(atPath: mine)
        run = try duoCapture(base, environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the last script used, \(mine), is gone; opening the welcome script"), run.stderr)
    }

    /// The welcome script is a clean script: no problems, notes for the operator only.
    func testTheWelcomeScriptIsClean() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let run = try duoCapture(["check-script", root.appendingPathComponent("Assets/scripts/welcome.md").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("no problems"), run.stdout)
    }
}
