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
        // Matroska stores milliseconds (each stream rounded by up to 1 ms) and Opus re-frames the audio, so
        // a few ms are measurement grain; a real sync fault is a frame or more.
        XCTAssertLessThan(abs(syncError), 5_000_000, "audio and video keep their capture-time relation within 5 ms")
        // The audio covers the video: same length within one frame plus one audio buffer.
        let videoEnd = try XCTUnwrap(decoded.video.lastPTS) + interval
        let audioEnd = try XCTUnwrap(decoded.audio.lastPTS)
        XCTAssertEqual(Double(audioEnd), Double(videoEnd), accuracy: Double(interval) * 2, "audio and video end together")
    }
}
