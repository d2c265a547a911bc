import DuoCore
import DuoMedia
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Segments composed into one take (`--swap-policy segment`): after the take, its segments are joined into
/// one file at the first segment's format that decodes completely and lasts their sum; the segments go once
/// it does (kept with --keep-segments); a kill during the join loses nothing and the next start offers it.
final class SegmentJoinTests: XCTestCase {
    private func takeFiles(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mkv") }.sorted()
    }

    private func twoSwaps(keep: Bool) throws -> (dir: String, report: RunReport, events: [[String: Any]]) {
        let dir = try scratchDirectory(self)
        let (run, events) = try twoSwapSegmentedRun(in: dir, extra: ["--quiet"] + (keep ? ["--keep-segments"] : []))
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        try assertEventsDocumented(events)
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        return (dir, report, try lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
    }

    /// Assertions both variants share: one joined file at the first format, the sum of the segments' length.
    private func checkJoined(_ dir: String, _ report: RunReport, _ events: [[String: Any]]) throws -> (joined: String, sidecar: TakeSidecar) {
        XCTAssertEqual(report.takes.count, 1, "the summary lists the joined take in place of its segments")
        let segments = try XCTUnwrap(report.takes.first?.segments, "the joined take lists its segments")
        XCTAssertEqual(segments.count, 3, "three segments recorded")
        let joined = SegmentJoin.outputPath(forFirstSegment: segments[0].file)
        XCTAssertEqual(report.takes[0].file, joined)
        let decoded = try MediaInspector.decode(joined)
        XCTAssertEqual([decoded.width, decoded.height], [640, 360], "the first segment's format")
        let interval = 1.0 / 30
        let sum = segments.map(\.durationSeconds).reduce(0, +)
        XCTAssertEqual(Double(decoded.video.frames) * interval, sum, accuracy: interval * 3, "the sum of the segments, within a frame each")
        XCTAssertLessThanOrEqual(decoded.video.maxGap, Int64(interval * 1.5e9), "no gap over a frame interval where segments meet")
        let states = events.filter { $0["event"] as? String == "join" }.map { $0["state"] as? String ?? "" }
        XCTAssertEqual(states.first, "started")
        XCTAssertEqual(states.last, "done")
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: joined))
        let names = segments.map { ($0.file as NSString).lastPathComponent }
        XCTAssertEqual(sidecar.join?.segments, names)
        XCTAssertEqual(sidecar.segments, names)
        XCTAssertEqual(sidecar.join?.format, "640x360@30")
        XCTAssertEqual(sidecar.join?.frames, decoded.video.frames)
        XCTAssertEqual(sidecar.file, (joined as NSString).lastPathComponent)
        return (joined, sidecar)
    }

    func testTwoSwapsGiveOneJoinedFileAndTheSegmentsGo() throws {
        let (dir, report, events) = try twoSwaps(keep: false)
        let (joined, sidecar) = try checkJoined(dir, report, events)
        XCTAssertEqual(sidecar.join?.segmentsKept, false)
        XCTAssertEqual(try takeFiles(dir), [(joined as NSString).lastPathComponent], "only the joined file is left")
        for segment in report.takes[0].segments ?? [] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: TakeSidecar.path(forTake: segment.file)))
            XCTAssertFalse(segment.kept, "the summary says \(segment.file) is gone")
        }
        XCTAssertTrue(SegmentJoin.unfinished(in: dir).isEmpty, "no journal is left")
    }

    func testKeepSegmentsKeepsThem() throws {
        let (dir, report, events) = try twoSwaps(keep: true)
        let (joined, sidecar) = try checkJoined(dir, report, events)
        XCTAssertEqual(sidecar.join?.segmentsKept, true)
        XCTAssertEqual(try takeFiles(dir).count, 4, "three segments and the joined file")
        XCTAssertTrue(FileManager.default.fileExists(atPath: joined))
        for segment in report.takes[0].segments ?? [] {
            XCTAssertTrue(segment.kept)
            XCTAssertGreaterThan(try MediaInspector.decode(segment.file).video.frames, 0)
        }
    }

    /// SIGKILL while the segments are being joined: every segment is intact, nothing half-joined takes
    /// the joined name, the next start says (one line) how to finish it, and `duo-capture join` does.
    func testAKillDuringTheJoinLosesNothingAndTheNextStartOffersIt() throws {
        let dir = try scratchDirectory(self)
        let small = try smallCameraProfile(in: dir)
        let timeline = "\(dir)/t.jsonl"
        // 720p segments of two seconds: long enough a join to be killed in.
        try Data("""
            {"at": 0.2, "cmd": "record"}
            {"at": 2.2, "cmd": "swap"}
            {"at": 4.2, "cmd": "swap"}
            {"at": 6.2, "cmd": "stop"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let run = try BackgroundRun(["--headless", "--camera", "inner", "--camera", "profile:\(small)", "--camera-mode", "individual",
                                     "--swap-policy", "segment", "--format", "1280x720@30", "--countdown", "0", "--audio", "none",
                                     "--record-dir", dir, "--timeline", timeline, "--duration", "60", "--quiet"], directory: dir)
        // The journal is written just before the join's graph starts: kill then.
        try run.wait(upTo: 30, for: "the join to begin") { !((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".join.json") }.isEmpty }
        kill(run.process.processIdentifier, SIGKILL)
        run.process.waitUntilExit()
        let journals = SegmentJoin.unfinished(in: dir)
        let left = try takeFiles(dir)
        XCTAssertEqual(journals.count, 1, "the join was cut short (killed before it ended): \(left)")
        let journal = try XCTUnwrap(journals.first)
        XCTAssertEqual(journal.segments.count, 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal.output), "no half-joined file under the joined name")
        var sizes: [[Int?]] = []
        for segment in journal.segments {
            let d = try MediaInspector.decode(segment)
            XCTAssertGreaterThan(d.video.frames, 30, "\(segment) is intact")
            sizes.append([d.width, d.height])
        }
        XCTAssertEqual(sizes, [[1280, 720], [320, 180], [1280, 720]])

        // The next start: one line offering to finish it.
        let next = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", dir, "--duration", "0.3"])
        XCTAssertEqual(next.status, 0, next.stderr)
        let offers = next.stderr.split(separator: "\n").filter { $0.contains("were not joined") }
        XCTAssertEqual(offers.count, 1, next.stderr)
        XCTAssertTrue(offers.first?.contains("duo-capture join \(journal.segments.joined(separator: " "))") ?? false, "\(offers)")

        // duo-capture join finishes it, with a progress line.
        let join = try duoCapture(["join"] + journal.segments)
        XCTAssertEqual(join.status, 0, join.stderr)
        XCTAssertTrue(join.stderr.contains("joining: 100%"), join.stderr)
        let decoded = try MediaInspector.decode(journal.output)
        XCTAssertEqual([decoded.width, decoded.height], [1280, 720])
        XCTAssertGreaterThan(decoded.video.frames, 150)
        for segment in journal.segments { XCTAssertFalse(FileManager.default.fileExists(atPath: segment), "\(segment) removed once joined") }
        XCTAssertTrue(SegmentJoin.unfinished(in: dir).isEmpty)
    }

    func testJoinNeedsTwoSegments() throws {
        let run = try duoCapture(["join", "only.mkv"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("at least two"), run.stderr)
    }
}

/// Every line of an events file is in docs/events.md with exactly its fields.
func assertEventsDocumented(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let schema = EventSchema.parse(markdown: try String(contentsOf: root.appendingPathComponent("docs/events.md"), encoding: .utf8))
    for event in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
        if let problem = schema.violation(String(event)) { XCTFail(problem, file: file, line: line) }
    }
}
