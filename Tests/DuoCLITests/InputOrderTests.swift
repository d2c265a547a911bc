import DuoCore
import Foundation
import XCTest

/// Issue 37: every input file is checked before any device is opened, so a bad one is the only line
/// said (no line about the camera or PipeWire before it). The installed program (no test hub), the
/// default camera (`--camera auto`), headless.
final class InputOrderTests: XCTestCase {
    func testABadInputFileIsTheOnlyLineBeforeAnyDevice() throws {
        let dir = try scratchDirectory(self)
        try Data("{\"not\": \"a profile\"".utf8).write(to: URL(fileURLWithPath: "\(dir)/broken.json"))
        try Data("# A script\n\nWords to read.\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/script.md"))
        let cases: [(what: String, arguments: [String], says: String)] = [
            ("a missing script", ["--script", "\(dir)/missing.md"], "missing.md"),
            ("a broken display profile", ["--script", "\(dir)/script.md", "--display-profile", "\(dir)/broken.json"], "broken.json"),
            ("a broken camera profile", ["--camera", "\(dir)/broken.json"], "broken.json"),
            ("a missing timeline", ["--timeline", "\(dir)/missing.jsonl"], "missing.jsonl"),
        ]
        for c in cases {
            let run = try duoCapture(["--headless", "--duration", "1", "--record-dir", dir] + c.arguments, product: "duo-capture")
            XCTAssertNotEqual(run.status, 0, c.what)
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: true)
            XCTAssertEqual(lines.count, 1, "\(c.what): one line, before any device:\n\(run.stderr)")
            XCTAssertTrue(lines.first?.contains(c.says) ?? false, "\(c.what): \(run.stderr)")
        }
    }
}
