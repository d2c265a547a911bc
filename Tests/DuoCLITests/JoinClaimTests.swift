import DuoCore
import DuoMedia
import Foundation
import XCTest

/// `duo-capture join` and the join journal against files already there (issue 35): the default output
/// moves on to `-joined-2.mkv` when taken, `--output` onto an existing file is refused without `--force`,
/// and a journal in the record folder is never trusted: its command is rebuilt from its segments and
/// printed escaped, and one over a sane size is refused in one line without being read.
final class JoinClaimTests: XCTestCase {
    /// Two real takes (320x240, about a second each) in `dir`.
    private func twoTakes(_ dir: String) throws -> [String] {
        for _ in 0..<2 {
            let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0",
                                      "--record", "--duration", "1", "--record-dir", dir, "--audio", "none", "--quiet"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let takes = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mkv") }.sorted().map { "\(dir)/\($0)" }
        XCTAssertEqual(takes.count, 2)
        return takes
    }

    func testJoinNeverReplacesAFile() throws {
        let dir = try scratchDirectory(self)
        let takes = try twoTakes(dir)
        let taken = SegmentJoin.outputPath(forFirstSegment: takes[0])
        try Data("precious".utf8).write(to: URL(fileURLWithPath: taken))

        let first = try duoCapture(["join"] + takes + ["--keep-segments"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try String(contentsOfFile: taken, encoding: .utf8), "precious", "the file under the default name was replaced")
        let second = (taken as NSString).deletingPathExtension + "-2.mkv"
        XCTAssertTrue(first.stdout.contains(second), first.stdout)
        XCTAssertGreaterThan(try MediaInspector.decode(second).video.frames, 30)

        let refused = try duoCapture(["join"] + takes + ["--keep-segments", "--output", taken])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("exists; give another --output, or --force to replace it"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: taken, encoding: .utf8), "precious")

        let forced = try duoCapture(["join"] + takes + ["--keep-segments", "--output", taken, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertGreaterThan(try MediaInspector.decode(taken).video.frames, 30)
        XCTAssertTrue(SegmentJoin.unfinished(in: dir).isEmpty, "no journal left")
    }

    func testAHostileJournalIsPrintedEscapedAndAHugeOneIsNotRead() throws {
        let dir = try scratchDirectory(self)
        // A segment whose name carries a terminal escape, and a journal whose command is a trap.
        let segment = "\(dir)/take\u{1B}]0;owned\u{07}.mkv"
        try Data("x".utf8).write(to: URL(fileURLWithPath: segment))
        let journal = """
            {"segments":["\(segment.replacingOccurrences(of: "\u{1B}", with: "\\u001b").replacingOccurrences(of: "\u{07}", with: "\\u0007"))"],
             "output":"\(dir)/x-joined.mkv","keepSegments":false,"command":"rm -rf ~ \\u001b[2J"}
            """
        try Data(journal.utf8).write(to: URL(fileURLWithPath: "\(dir)/x-joined.join.json"))
        // 1.5 GB, sparse: named like a journal, no journal.
        FileManager.default.createFile(atPath: "\(dir)/huge.join.json", contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(dir)/huge.join.json"))
        try handle.truncate(atOffset: 1_500_000_000)
        try handle.close()

        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", dir, "--duration", "0.3"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "a terminal escape reached the terminal")
        XCTAssertFalse(run.stderr.contains("rm -rf"), "the journal's own command was offered")
        let offer = run.stderr.split(separator: "\n").filter { $0.contains("were not joined") }
        XCTAssertEqual(offer.count, 1, run.stderr)
        XCTAssertTrue(offer.first?.contains("finish it with: duo-capture join '\(dir)/take\\u{1B}]0;owned\\u{7}.mkv'") ?? false, "\(offer)")
        let huge = run.stderr.split(separator: "\n").filter { $0.contains("huge.join.json") }
        XCTAssertEqual(huge.count, 1, run.stderr)
        XCTAssertTrue(huge.first?.contains("no join journal") ?? false, "\(huge)")
    }
}
