import DuoCore
import DuoMedia
import Foundation
import XCTest

/// Segments of cameras of different rates and sizes (individual mode, `--swap-policy segment`), joined as a
/// user records them: the joined take has the first segment's format and rate throughout (frames repeated
/// or dropped to it, said in the sidecar), passes the join's own proof, and decodes to as many frames as
/// its length holds at that rate; a slower camera's segment counts no frame as dropped; the take keeps one
/// sidecar, the take's (its number, both swaps at their times, its segments); the summary lists what is
/// on disk.
final class SegmentJoinRateTests: XCTestCase {
    private func format(_ text: String) -> VideoFormat { VideoFormat.parse(text)! }

    private func events(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Files a take left in `dir` (its video files and sidecars; not the profiles, timeline or events).
    private func takeFiles(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("duo-") }.sorted()
    }

    /// Records a take of three segments (first, second, first camera) and checks its join field by field.
    private func join(_ first: String, _ second: String, conversion: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (a, b) = (format(first), format(second))
        let dir = try scratchDirectory(self)
        let (run, eventsPath) = try twoSwapSegmentedRun(in: dir, first: a, second: b)
        XCTAssertEqual(run.status, 0, run.stderr, file: file, line: line)
        try assertEventsDocumented(eventsPath)
        let events = try self.events(eventsPath)
        let joins = events.filter { $0["event"] as? String == "join" }
        XCTAssertEqual(joins.last?["state"] as? String, "done", "the join passed its own proof: \(joins.last ?? [:])", file: file, line: line)

        // The summary: one take, the joined file, made of three segments that are gone.
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1, "\(report.takes.map(\.file))", file: file, line: line)
        let take = try XCTUnwrap(report.takes.first)
        let segments = try XCTUnwrap(take.segments, file: file, line: line)
        XCTAssertEqual(segments.count, 3, file: file, line: line)
        XCTAssertEqual(take.number, 1, file: file, line: line)
        let joined = SegmentJoin.outputPath(forFirstSegment: segments[0].file)
        XCTAssertEqual(take.file, joined, file: file, line: line)
        XCTAssertEqual(segments.map(\.kept), [false, false, false], file: file, line: line)
        for s in segments { XCTAssertFalse(FileManager.default.fileExists(atPath: s.file), "\(s.file) is gone", file: file, line: line) }
        let names = segments.map { ($0.file as NSString).lastPathComponent }
        let joinedName = (joined as NSString).lastPathComponent
        let joinedSidecar = (TakeSidecar.path(forTake: joined) as NSString).lastPathComponent
        XCTAssertEqual(try takeFiles(dir), [joinedName, joinedSidecar].sorted(), "the joined take and its one sidecar", file: file, line: line)

        // The slower camera's frames are never dropped frames: its segments are reckoned at its own rate.
        let ended = events.filter { $0["event"] as? String == "take-ended" }
        XCTAssertEqual(ended.count, 3, file: file, line: line)
        for (i, s) in segments.enumerated() {
            let rate = i == 1 ? b.frameRate.value : a.frameRate.value
            if rate < max(a.frameRate.value, b.frameRate.value) {
                XCTAssertEqual(s.dropped, 0, "segment \(i + 1) at \(rate) fps: \(s.frames) frames", file: file, line: line)
                XCTAssertEqual(ended[i]["dropped"] as? Int, 0, "\(ended[i])", file: file, line: line)
            }
            // Its length at its own rate: about the second each camera was on the air.
            XCTAssertEqual(s.durationSeconds, 1, accuracy: 0.25, "segment \(i + 1): \(s.frames) frames", file: file, line: line)
            XCTAssertEqual(Double(s.frames) / rate, s.durationSeconds, accuracy: 0.001, file: file, line: line)
        }

        // The joined file: the first format throughout, its frames as many as its length holds at that rate.
        let decoded = try MediaInspector.decode(joined)
        XCTAssertEqual([decoded.width, decoded.height], [a.width, a.height], "the first segment's size", file: file, line: line)
        let interval = 1 / a.frameRate.value
        let length = segments.map(\.durationSeconds).reduce(0, +)
        XCTAssertEqual(Double(decoded.video.frames), length / interval, accuracy: 2, "the segments' length at \(a.frameRate) fps", file: file, line: line)
        let stated = Double(try SegmentJoiner.facts(joined).duration) / 1e9
        XCTAssertEqual(Double(decoded.video.frames) * interval, stated, accuracy: interval, "the file states the length of its frames", file: file, line: line)
        XCTAssertLessThanOrEqual(decoded.video.maxGap, Int64(interval * 1.5e9), "no gap where segments meet", file: file, line: line)
        XCTAssertGreaterThanOrEqual(decoded.video.minGap ?? 0, Int64(interval * 0.5e9), "no two frames at once", file: file, line: line)

        // The joined take's sidecar, field by field.
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: joined))
        XCTAssertEqual(sidecar.take, 1, "the take's number, not its last segment's", file: file, line: line)
        XCTAssertEqual(sidecar.file, joinedName, file: file, line: line)
        XCTAssertEqual(sidecar.format, a.description, file: file, line: line)
        XCTAssertTrue(sidecar.complete, file: file, line: line)
        XCTAssertNil(sidecar.segment, file: file, line: line)
        XCTAssertNil(sidecar.recordedBy, file: file, line: line)
        XCTAssertEqual(sidecar.segments, names, file: file, line: line)
        XCTAssertEqual(sidecar.frames, decoded.video.frames, file: file, line: line)
        XCTAssertEqual(sidecar.durationSeconds ?? 0, Double(decoded.video.frames) * interval, accuracy: 0.001, file: file, line: line)
        XCTAssertEqual(sidecar.droppedFrames, segments.map(\.dropped).reduce(0, +), "the cameras' own drops", file: file, line: line)
        XCTAssertEqual(sidecar.markersPassed, [], "no script: no markers", file: file, line: line)
        let j = try XCTUnwrap(sidecar.join, file: file, line: line)
        XCTAssertEqual(j.segments, names, file: file, line: line)
        XCTAssertEqual(j.format, a.description, file: file, line: line)
        XCTAssertEqual(j.frames, decoded.video.frames, file: file, line: line)
        XCTAssertFalse(j.segmentsKept, file: file, line: line)
        let sources = try XCTUnwrap(j.sources, file: file, line: line)
        XCTAssertEqual(sources.map(\.file), names, file: file, line: line)
        XCTAssertEqual(sources.map(\.format), [a.description, b.description, a.description], file: file, line: line)
        XCTAssertEqual(sources.map(\.rateConversion), ["none", conversion, "none"], file: file, line: line)
        XCTAssertEqual(sources.map(\.scaled), [false, true, false], file: file, line: line)
        XCTAssertEqual(sources.map(\.frames), segments.map(\.frames), file: file, line: line)
        // Frames repeated for a slower camera, dropped for a faster one: about the second segment's share.
        let expectedRepeated = conversion == "repeated" ? Double(segments[1].durationSeconds) * (a.frameRate.value - b.frameRate.value) : 0
        let expectedDropped = conversion == "dropped" ? Double(segments[1].durationSeconds) * (b.frameRate.value - a.frameRate.value) : 0
        XCTAssertEqual(Double(j.framesRepeated ?? -100), expectedRepeated, accuracy: 4, "repeated", file: file, line: line)
        XCTAssertEqual(Double(j.framesDropped ?? -100), expectedDropped, accuracy: 4, "dropped", file: file, line: line)
        // Both swaps, at the times the segments meet in the joined file (about 1 s and 2 s in).
        XCTAssertEqual(sidecar.swaps.map(\.from), ["A", "B"], file: file, line: line)
        XCTAssertEqual(sidecar.swaps.map(\.to), ["B", "A"], file: file, line: line)
        XCTAssertEqual(sidecar.swaps.map(\.format), [b.description, a.description], file: file, line: line)
        if sidecar.swaps.count == 2 {
            XCTAssertEqual(sidecar.swaps[0].atSeconds, sources[0].durationSeconds, accuracy: 0.05, file: file, line: line)
            XCTAssertEqual(sidecar.swaps[1].atSeconds, sources[0].durationSeconds + sources[1].durationSeconds, accuracy: 0.05, file: file, line: line)
            XCTAssertEqual(sidecar.swaps[0].atSeconds, 1, accuracy: 0.25, file: file, line: line)
            XCTAssertEqual(sidecar.swaps[1].atSeconds, 2, accuracy: 0.35, file: file, line: line)
        }
    }

    /// The pair, smaller: a 15 fps camera after a 30 fps one (each 15 fps frame repeated).
    func testThirtyAndFifteen() throws { try join("640x360@30", "320x240@15", conversion: "repeated") }

    func testSixtyAndThirty() throws { try join("320x180@60", "640x360@30", conversion: "repeated") }

    /// The first camera the slower one: the joined take is at 25 fps, the 30 fps camera's frames dropped to it.
    func testTwentyFiveAndThirty() throws { try join("320x240@25", "640x480@30", conversion: "dropped") }

    /// Two sizes of different shapes at one rate: scaled with borders, no frame repeated or dropped.
    func testTwoSizesAtOneRate() throws { try join("480x270@30", "320x240@30", conversion: "none") }

    /// `duo-capture join` on a take's segments: the joined take keeps exactly one sidecar, the take's.
    func testJoinCommandLeavesOneSidecarTheTakes() throws {
        let dir = try scratchDirectory(self)
        let (run, _) = try twoSwapSegmentedRun(in: dir, first: format("640x360@30"), second: format("320x240@15"), extra: ["--keep-segments"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let segments = try XCTUnwrap(report.takes.first?.segments).map(\.file)
        XCTAssertEqual(segments.count, 3)
        // As after a join that was never run: the segments and their sidecars only.
        let joined = SegmentJoin.outputPath(forFirstSegment: segments[0])
        try FileManager.default.removeItem(atPath: joined)
        try FileManager.default.removeItem(atPath: TakeSidecar.path(forTake: joined))
        XCTAssertEqual(try takeFiles(dir).filter { $0.hasSuffix(".json") }.count, 3, "each segment's sidecar")

        let join = try duoCapture(["join"] + segments)
        XCTAssertEqual(join.status, 0, join.stderr)
        let joinedName = (joined as NSString).lastPathComponent
        XCTAssertEqual(try takeFiles(dir), [joinedName, (TakeSidecar.path(forTake: joined) as NSString).lastPathComponent].sorted())
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: joined))
        XCTAssertEqual(sidecar.take, 1)
        XCTAssertEqual(sidecar.file, joinedName)
        XCTAssertEqual(sidecar.segments, segments.map { ($0 as NSString).lastPathComponent })
        XCTAssertEqual(sidecar.swaps.map(\.to), ["B", "A"])
        XCTAssertEqual(sidecar.join?.sources?.map(\.rateConversion), ["none", "repeated", "none"])
        XCTAssertEqual(sidecar.join?.segmentsKept, false)
        XCTAssertEqual(sidecar.frames, try MediaInspector.decode(joined).video.frames)
    }
}
