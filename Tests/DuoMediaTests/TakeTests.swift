import DuoCore
import DuoMedia
import Foundation
import XCTest

/// Takes with audio, started at a countdown's end, as a user would get them: decoded back from the file.
final class TakeTests: XCTestCase {
    /// A take attached before its countdown ends starts exactly at the end: the first frame let in was
    /// captured within one frame interval after it (buffer running times), the file's first video
    /// frame is a keyframe at time ~0, and audio starts with it (decoded first PTS of each stream).
    func testTakeStartsAtTheCountdownEndWithAudioInSync() async throws {
        let dir = try temporaryDirectory(self)
        let plan = try smallPlan(audio: .test)
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.camera.frames >= 5 }
        // The countdown ends 300 ms from now; the branch is attached at once, as the CLI does shortly
        // before the end.
        let countdownEnd = await session.runningTime + 300_000_000
        let path = "\(dir)/take.mkv"
        try await session.startTake(path: path, startingAt: countdownEnd)
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= 30 }
        let take = try await session.stopTake()
        await session.stop()

        XCTAssertEqual(take.startRunningTime, countdownEnd)
        let latency = try XCTUnwrap(take.startLatency)
        print("record-start latency: \(Double(latency) / 1e6) ms (frame interval \(Double(interval) / 1e6) ms)")
        XCTAssertGreaterThanOrEqual(latency, 0, "no frame from before the countdown's end")
        XCTAssertLessThan(latency, interval, "first frame within one frame interval of the countdown's end")

        let decoded = try MediaInspector.decode(path)
        XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true, "a take starts on a keyframe")
        let videoFirst = try XCTUnwrap(decoded.video.firstPTS)
        XCTAssertEqual(Double(videoFirst), Double(latency), accuracy: 1e6, "the file's zero is the countdown's end")
        XCTAssertGreaterThan(decoded.audio.frames, 0, "the take has audio")
        let audioFirst = try XCTUnwrap(decoded.audio.firstPTS)
        let offset = audioFirst - videoFirst
        // In sync means: the gap between the streams in the file is the gap between their capture times.
        let captured = try XCTUnwrap(take.firstAudioRunningTime) - XCTUnwrap(take.firstFrameRunningTime)
        let syncError = offset - captured
        print("A/V: first audio - first video in the file \(Double(offset) / 1e6) ms, at capture \(Double(captured) / 1e6) ms, sync error \(Double(syncError) / 1e6) ms")
        XCTAssertLessThan(abs(offset), interval, "audio starts within one frame of video")
        // Matroska stores milliseconds (each stream rounded by up to 1 ms) and Opus re-frames the audio
        // into 20 ms packets behind a 6.5 ms pre-skip, so a few ms are measurement grain; a real sync
        // fault (a missing or doubled offset) is a frame interval or more.
        XCTAssertLessThan(abs(syncError), 10_000_000, "audio and video keep their capture-time relation within 10 ms")
        // The audio covers the video: same length within one frame plus one audio buffer.
        let videoEnd = try XCTUnwrap(decoded.video.lastPTS) + interval
        let audioEnd = try XCTUnwrap(decoded.audio.lastPTS)
        XCTAssertEqual(Double(audioEnd), Double(videoEnd), accuracy: Double(interval) * 2, "audio and video end together")
    }
}

extension TakeTests {
    /// MP4 with AAC: finalised on stop (an MP4 without its moov would not play at all).
    func testMP4TakeWithAudioIsFinalisedOnStop() async throws {
        let dir = try temporaryDirectory(self)
        let plan = try smallPlan(container: .mp4, audio: .test)
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        try await session.start()
        let path = "\(dir)/take.mp4"
        try await session.startTake(path: path)
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= 30 }
        let take = try await session.stopTake()
        await session.stop()
        let decoded = try MediaInspector.decode(path)
        XCTAssertEqual(Double(decoded.video.frames), Double(take.frames.frames), accuracy: 1)
        XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true)
        XCTAssertGreaterThan(decoded.audio.frames, 0, "AAC audio in the MP4")
        let duration = try XCTUnwrap(decoded.duration, "a finalised MP4 states its duration")
        assertDuration(duration, frames: take.frames.frames, interval: interval, path)
    }

    /// Fifty takes with audio in one session: each file decodes with the frames and duration that went
    /// in, the preview never skips a frame, and memory stays flat (the figure is printed).
    func testFiftyTakeCyclesKeepThePreviewAndMemory() async throws {
        let dir = try temporaryDirectory(self)
        let plan = try smallPlan(audio: .test)
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 5 }
        func cycle(_ i: Int) async throws -> TakeResult {
            try await session.startTake(path: "\(dir)/take\(i).mkv")
            try await session.waitUntil { _, take in (take?.frames ?? 0) >= 6 }
            return try await session.stopTake()
        }
        // Two warm-up takes load the encoder and muxer code before the first memory reading.
        for i in 1...2 { _ = try await cycle(i) }
        let rssBefore = residentKilobytes()
        let before = await session.counts.operatorView
        var results: [TakeResult] = []
        var readings: [Int] = []
        for i in 3...52 {
            results.append(try await cycle(i))
            if i % 10 == 2 { readings.append(residentKilobytes()) }
        }
        let rssAfter = residentKilobytes()
        let after = await session.counts.operatorView
        await session.stop()

        let growth = rssAfter - rssBefore
        // The first takes settle the allocator (its arenas grow by a step of up to ~3 MB somewhere in the
        // first twenty, at a moment that depends on which threads allocate first); after that a leak shows
        // as a steady slope: the leaked bins below cost ~6 MB over these last 30 takes.
        let steady = readings[readings.count - 1] - readings[1]
        print("memory over 50 take cycles: VmRSS \(rssBefore) kB -> \(rssAfter) kB (\(growth >= 0 ? "+" : "")\(growth) kB); "
              + "every 10 takes: \(readings.map(String.init).joined(separator: ", ")) kB; takes 20-50: +\(steady) kB")
        // Leaking each take's bin (encoder and all) cost about 10 MB over 50 takes here, ~200 kB a take.
        XCTAssertLessThan(growth, 8 * 1024, "RSS growth over 50 takes")
        XCTAssertLessThan(steady, 2 * 1024, "RSS growth over the last 30 takes (a leak's steady slope)")
        for r in results {
            XCTAssertNil(r.failure, r.path)
            let decoded = try MediaInspector.decode(r.path)
            XCTAssertEqual(Double(decoded.video.frames), Double(r.frames.frames), accuracy: 1, r.path)
            XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true, r.path)
            XCTAssertGreaterThan(decoded.audio.frames, 0, r.path)
            assertDuration(try XCTUnwrap(decoded.duration, r.path), frames: r.frames.frames, interval: interval, r.path)
        }
        let frames = after.frames - before.frames
        let expected = (try XCTUnwrap(after.lastPTS) - XCTUnwrap(before.lastPTS)) / interval
        XCTAssertEqual(Double(frames), Double(expected), accuracy: 1, "preview frames during 50 takes")
        // At most the one frame the count allows: on a loaded 2-core machine an encoder starting up can
        // make the leaky preview queue skip a single frame; a stall would be several.
        XCTAssertLessThanOrEqual(after.maxGap, 2 * interval + interval / 2, "largest preview gap")
        XCTAssertEqual(after.backwardSteps, 0)
    }
}

/// The container's duration covers the recorded frames: at least their span, and at most 150 ms more
/// (the audio track may run on by the encoder's priming and the last audio buffer).
func assertDuration(_ duration: Int64, frames: Int64, interval: Int64, _ path: String, file: StaticString = #filePath, line: UInt = #line) {
    let video = frames * interval
    XCTAssertGreaterThanOrEqual(duration, video - interval, "\(path): duration \(duration) ns for \(frames) frames", file: file, line: line)
    XCTAssertLessThanOrEqual(duration, video + 150_000_000, "\(path): duration \(duration) ns for \(frames) frames", file: file, line: line)
}

extension TakeTests {
    /// The level meter for the operator HUD: readings arrive about ten times a second and match the test
    /// tone (a sine at 0.3 of full scale: rms 20·log10(0.3/√2) ≈ -13.5 dBFS).
    func testAudioLevelReadingsFollowTheSource() async throws {
        let session = CaptureSession(plan: try smallPlan(audio: .test))
        try await session.start()
        var seen: [AudioLevel] = []
        let deadline = Date().addingTimeInterval(10)
        while seen.count < 5, Date() < deadline {
            if let level = await session.audioLevel, level.runningTime != seen.last?.runningTime { seen.append(level) }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let audio = await session.audioCount
        await session.stop()
        XCTAssertEqual(seen.count, 5, "level readings keep coming")
        for level in seen {
            XCTAssertEqual(level.rmsDB, -13.5, accuracy: 1.5)
            XCTAssertEqual(level.peakDB, -10.5, accuracy: 1.5)
        }
        XCTAssertGreaterThan(audio?.frames ?? 0, 0, "audio reaches its live sink")
    }

    /// --audio none leaves the graph exactly as it was before audio existed: no audio element at all.
    func testNoAudioMeansTheVideoOnlyGraph() throws {
        let plan = try smallPlan(audio: .none)
        let live = try plan.liveDescription()
        for word in ["audio", "level", "at."] { XCTAssertFalse(live.contains(word), "\(word) in \(live)") }
        XCTAssertFalse(try plan.recordDescription(location: "/tmp/x.mkv").contains("audio"))
        XCTAssertFalse(plan.recordElements.contains("opusenc"))
        let withAudio = try smallPlan(audio: .test)
        XCTAssertTrue(try withAudio.liveDescription().hasPrefix(live), "audio only adds a chain")
        XCTAssertTrue(try withAudio.recordDescription(location: "/tmp/x.mkv").contains("opusenc"))
        XCTAssertTrue(try smallPlan(container: .mp4, audio: .test).recordDescription(location: "/tmp/x.mp4").contains("avenc_aac"))
    }
}

/// `stop()` while `stopTake()` waits for the take's end-of-stream: the stop waits for it, so the take is
/// ended once, its result reaches the event stream before the stream finishes, and the file plays.
final class StopDuringStopTakeTests: XCTestCase {
    func testStopAwaitsATakeThatIsStopping() async throws {
        let dir = try temporaryDirectory(self)
        let session = CaptureSession(plan: try smallPlan())
        try await session.start()
        let ended = Task { () -> [TakeResult] in
            var results: [TakeResult] = []
            for await event in session.events { if case .takeEnded(let r) = event { results.append(r) } }
            return results
        }
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 5 }
        try await session.startTake(path: "\(dir)/take.mkv")
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= 10 }
        let stopping = Task { try await session.stopTake() }
        // The take is detached (no longer recording) but not yet finalised when stop() comes in.
        while await session.isRecording { await Task.yield() }
        let fromStop = await session.stop()
        let fromStopTake = try await stopping.value
        XCTAssertEqual(fromStop?.number, fromStopTake.number, "stop() got the same take's result")
        let reported = await ended.value
        XCTAssertEqual(reported.map(\.number), [1], "the take ended once, and was reported before the stream finished")
        XCTAssertGreaterThanOrEqual(try MediaInspector.decode("\(dir)/take.mkv").video.frames, 10)
    }
}
