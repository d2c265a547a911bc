import DuoCore
import DuoMedia
import Foundation
import XCTest

/// The README's examples, taken from README.md as printed and run: what they say happens, happens.
final class ReadmeExamplesTests: XCTestCase {
    private var readme: [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The control-socket snippet finds the socket where `--control studio` puts it, in the session's
    /// own $XDG_RUNTIME_DIR (a hard-coded /run/user/0 worked for root only), and its record is answered.
    func testTheControlSocketSnippetReachesTheRun() throws {
        let snippet = try XCTUnwrap(readme.first { $0.hasPrefix("    python3 -c ") && $0.contains("studio.sock") }, "the README's socket snippet")
        let runtime = try scratchDirectory(self)
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "160x120@15", "--countdown", "0",
                                     "--record-dir", runtime, "--control", "studio", "--json", "--quiet"],
                                    directory: runtime, environment: ["XDG_RUNTIME_DIR": runtime])
        defer { if run.process.isRunning { run.process.terminate() } }
        let socketPath = "\(runtime)/duo-capture/studio.sock"
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        let python = try runToEnd(URL(fileURLWithPath: "/bin/bash"), ["-c", snippet.trimmingCharacters(in: .whitespaces)],
                                  environment: ["XDG_RUNTIME_DIR": runtime], timeout: 30)
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertTrue(python.stdout.contains("record"), "the run answers the snippet's record: \(python.stdout)")
        let client = try ControlClient(path: socketPath)
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
    }

    /// The timeline example's take is as long as the README says: the countdown comes out of it.
    func testTheTimelineExampleMakesTheTakeTheReadmeSays() throws {
        let start = try XCTUnwrap(readme.firstIndex { $0.contains("`--timeline FILE` replays") })
        let lines = readme[start...].drop { !$0.hasPrefix("    {") }.prefix { $0.hasPrefix("    {") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(lines.count, 3, "\(lines)")
        let said = try XCTUnwrap(readme[start...].first { $0.contains(" s long.") }, "the README gives the take's length")
        XCTAssertTrue(said.contains("2 s long"), said)
        let dir = try scratchDirectory(self)
        try (lines.joined(separator: "\n") + "\n").write(toFile: "\(dir)/timeline.jsonl", atomically: true, encoding: .utf8)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "160x120@15", "--timeline", "\(dir)/timeline.jsonl",
                                  "--record-dir", dir, "--json", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let frames = try MediaInspector.decode(try XCTUnwrap(report.takes.first).file).video.frames
        let seconds = Double(frames) / 15   // --format 160x120@15
        XCTAssertEqual(seconds, 2, accuracy: 0.4, "record at 1 s, a 3 s countdown, stop at 6 s")
    }
}
