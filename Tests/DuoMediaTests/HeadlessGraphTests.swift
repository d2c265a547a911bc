import DuoCore
import DuoMedia
import Foundation
import XCTest

final class HeadlessGraphTests: XCTestCase {
    /// videotestsrc → tee → operator, subject, take: frames reach every branch and the take decodes back
    /// with the frames and duration that went in.
    func testFramesReachEveryBranchAndTheTakeDecodes() async throws {
        let dir = try temporaryDirectory(self)
        let plan = try smallPlan()
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.camera.frames >= 5 }
        let path = "\(dir)/take.mkv"
        try await session.startTake(path: path)
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= 45 }
        let take = try await session.stopTake()
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 60 && counts.subjectView.frames >= 30 }
        let counts = await session.counts
        await session.stop()

        XCTAssertGreaterThanOrEqual(take.frames.frames, 45)
        XCTAssertGreaterThan(counts.operatorView.frames, 0)
        XCTAssertGreaterThan(counts.subjectView.frames, 0)
        XCTAssertNil(take.failure)

        let decoded = try MediaInspector.decode(path)
        XCTAssertEqual(decoded.width, 320)
        XCTAssertEqual(decoded.height, 240)
        XCTAssertEqual(Double(decoded.video.frames), Double(take.frames.frames), accuracy: 1, "decoded frames vs recorded")
        let decodedSpan = try XCTUnwrap(decoded.video.lastPTS) - XCTUnwrap(decoded.video.firstPTS) + interval
        let recordedSpan = take.frames.frames * interval
        XCTAssertEqual(Double(decodedSpan), Double(recordedSpan), accuracy: Double(interval), "duration within one frame")
        XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true, "a take starts on a keyframe")
        // The branch is shifted so the file starts at zero, not at the pipeline's running time.
        XCTAssertLessThanOrEqual(try XCTUnwrap(decoded.video.firstPTS), interval)
    }

    /// Ten takes started and stopped while the preview runs: every file decodes and the preview loses no
    /// frame (its timestamps never skip a frame interval).
    func testTenTakesDoNotDisturbThePreview() async throws {
        let dir = try temporaryDirectory(self)
        let plan = try smallPlan()
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 5 }
        let before = await session.counts.operatorView

        var results: [TakeResult] = []
        for i in 1...10 {
            try await session.startTake(path: "\(dir)/take\(i).mkv")
            try await session.waitUntil { _, take in (take?.frames ?? 0) >= 8 }
            results.append(try await session.stopTake())
        }
        let after = await session.counts.operatorView
        await session.stop()

        for r in results {
            let decoded = try MediaInspector.decode(r.path)
            XCTAssertGreaterThanOrEqual(decoded.video.frames, 8, r.path)
            XCTAssertEqual(Double(decoded.video.frames), Double(r.frames.frames), accuracy: 1, r.path)
            XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true, r.path)
        }
        XCTAssertEqual(Set(results.map(\.path)).count, 10)
        // The preview: every frame interval accounted for, none skipped, none backwards.
        let frames = after.frames - before.frames
        let expected = (try XCTUnwrap(after.lastPTS) - XCTUnwrap(before.lastPTS)) / interval
        XCTAssertEqual(Double(frames), Double(expected), accuracy: 1, "preview frames while takes started and stopped")
        XCTAssertLessThanOrEqual(after.maxGap, interval + interval / 2, "largest preview gap")
        XCTAssertEqual(after.backwardSteps, 0)
    }

    /// --aspect crops the recording, centred, whatever the camera size.
    func testAspectCropsTheRecording() async throws {
        let dir = try temporaryDirectory(self)
        let session = CaptureSession(plan: try smallPlan("320x240@30", aspect: AspectRatio(9, 16)))
        try await session.start()
        try await session.startTake(path: "\(dir)/tall.mkv")
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= 5 }
        _ = try await session.stopTake()
        await session.stop()
        let decoded = try MediaInspector.decode("\(dir)/tall.mkv")
        XCTAssertEqual(decoded.height, 240)
        XCTAssertEqual(decoded.width, 134)  // 240 * 9 / 16 = 135 → even 134
    }

    /// A description that names an element that does not exist is refused before anything starts, with
    /// the Debian package in the message.
    func testMissingEncoderNamesThePackage() async throws {
        XCTAssertThrowsError(try GStreamer.require(["x264enc", "nonexistentenc"], for: "recording")) { error in
            let e = error as! DuoError
            XCTAssertEqual(e.kind, .dependency)
            XCTAssertTrue(e.message.contains("nonexistentenc"), e.message)
        }
        XCTAssertEqual(GStreamer.elementNames(in: "videotestsrc name=a ! video/x-raw,width=2 ! tee name=t t. ! queue ! fakesink"),
                       ["videotestsrc", "tee", "queue", "fakesink"])
    }
}
