import DuoCore
import DuoMedia
import Foundation
import XCTest

/// The segments of a take stay until the joined file is proved: it must hold every frame the join
/// encoded, byte for byte, and every one must decode. A join whose written file is damaged or misses
/// frames on its way to the disk (simulated through a user pipeline folder, `--pipelines`, whose join.gst
/// passes the encoded stream through a corrupting or dropping element before the muxer) keeps every
/// segment, leaves no joined file, and says why.
final class SegmentJoinProofTests: XCTestCase {
    /// A segmented take (three segments: 640x360, 320x180, 640x360) joined with `beforeMuxer` placed
    /// between the join's encoder and its muxer (nil: the shipped graph).
    private func segmentedTake(beforeMuxer: String?, audio: String = "none") throws -> (dir: String, run: Run, report: RunReport, joins: [[String: Any]]) {
        let dir = try scratchDirectory(self)
        var extra: [String] = []
        if let beforeMuxer { extra = ["--pipelines", try pipelines(in: dir, beforeMuxer: beforeMuxer)] }
        let (run, events) = try twoSwapSegmentedRun(in: dir, audio: audio, extra: extra)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        try assertEventsDocumented(events)
        let joins = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "join" }
        return (dir, run, report, joins)
    }

    /// A copy of the shipped pipeline folder whose join.gst passes the encoded stream through `beforeMuxer`.
    private func pipelines(in dir: String, beforeMuxer: String) throws -> String {
        let pipelines = "\(dir)/Pipelines"
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Pipelines").path
        try FileManager.default.copyItem(atPath: shipped, toPath: pipelines)
        let join = try String(contentsOfFile: "\(pipelines)/join.gst", encoding: .utf8)
        XCTAssertTrue(join.contains("! {{muxer}}"), "join.gst feeds its muxer")
        try Data(join.replacingOccurrences(of: "! {{muxer}}", with: "! \(beforeMuxer) ! {{muxer}}").utf8)
            .write(to: URL(fileURLWithPath: "\(pipelines)/join.gst"))
        return pipelines
    }

    /// With sound (which may run a little past the pictures), the proof holds: the joined file has both,
    /// and the segments go.
    func testAJoinWithSoundIsProvedAndTheSegmentsGo() throws {
        let (dir, run, report, joins) = try segmentedTake(beforeMuxer: nil, audio: "test")
        let segments = report.takes.first?.segments ?? []
        XCTAssertEqual(segments.count, 3, run.stderr)
        XCTAssertEqual(joins.last?["state"] as? String, "done", "\(joins)")
        let joined = SegmentJoin.outputPath(forFirstSegment: segments.first?.file ?? "")
        XCTAssertEqual(report.takes.map(\.file), [joined], "the summary lists what is on disk")
        let decoded = try MediaInspector.decode(joined)
        XCTAssertGreaterThan(decoded.audio.frames, 0, "the joined file has sound")
        XCTAssertEqual(Double(decoded.video.frames) / 30, segments.map(\.durationSeconds).reduce(0, +), accuracy: 3.5 / 30,
                       "the sum of the segments, within a frame each")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mkv") }
        XCTAssertEqual(files, [(joined as NSString).lastPathComponent], "the segments went")
    }

    /// Every segment is still there and plays, nothing took the joined name, and the run said why.
    private func assertSegmentsKept(_ dir: String, _ run: Run, _ report: RunReport, _ joins: [[String: Any]], reason: String) throws {
        XCTAssertEqual(report.takes.count, 3, "three segments recorded: \(run.stderr)")
        for take in report.takes {
            XCTAssertTrue(FileManager.default.fileExists(atPath: take.file), "\(take.file) kept")
            XCTAssertGreaterThan(try MediaInspector.decode(take.file).video.frames, 20, "\(take.file) plays")
        }
        let joined = SegmentJoin.outputPath(forFirstSegment: report.takes[0].file)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mkv") }.sorted()
        XCTAssertFalse(FileManager.default.fileExists(atPath: joined), "no joined file: \(files)")
        XCTAssertEqual(files.count, 3, "the three segments and nothing else (no partial file): \(files)")
        XCTAssertEqual(joins.first?["state"] as? String, "started")
        XCTAssertEqual(joins.last?["state"] as? String, "failed", "\(joins)")
        let error = joins.last?["error"] as? String ?? ""
        XCTAssertTrue(error.contains(reason) && error.contains("the segments are kept"), error)
        XCTAssertTrue(run.stderr.contains(reason), run.stderr)
    }

    /// Bytes changed on their way to the file (a failing disk or muxer): the file still demuxes and every
    /// frame still "decodes" (the decoder conceals the damage), but it is not what was encoded.
    func testAJoinedFileWithDamagedFramesKeepsTheSegments() throws {
        let (dir, run, report, joins) = try segmentedTake(beforeMuxer: "breakmydata probability=0.0005 seed=7 skip=4000")
        try assertSegmentsKept(dir, run, report, joins, reason: "holds frames that differ from those encoded")
    }

    /// Frames lost on their way to the file (a muxer or disk that dropped all but the keyframes): a
    /// finished file that plays, but not the take.
    func testAJoinedFileMissingFramesKeepsTheSegments() throws {
        let (dir, run, report, joins) = try segmentedTake(beforeMuxer: "identity drop-buffer-flags=delta-unit")
        try assertSegmentsKept(dir, run, report, joins, reason: "frames encoded")
        XCTAssertTrue(run.stderr.contains("holds "), run.stderr)
    }
}
