import DuoCore
@testable import DuoMedia
import Foundation
import XCTest

/// A folder on its own tiny tmpfs, so a take can fill the disk for real. Mounted for one test and
/// unmounted (and removed) in its teardown. Mounting needs root, which CI has; elsewhere the test fails
/// saying so rather than passing without checking anything.
final class SizeLimitedFolder {
    let path: String

    init(kilobytes: Int, test: XCTestCase) throws {
        guard getuid() == 0 else {
            throw DuoError.runtime("the full-disk test mounts a size-limited tmpfs and must run as root (CI does)")
        }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("duo-capture-full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0755", "duo-capture-full-disk", path])
        let path = self.path
        test.addTeardownBlock {
            // Lazy: a test that failed half-way may leave a file open on it; the mount must go anyway.
            try? Self.run("/bin/umount", ["-l", path])
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw DuoError.runtime("\(tool) \(arguments.joined(separator: " ")) failed") }
    }
}

final class TakeFaultTests: XCTestCase {
    /// The disk fills mid-take: the take ends with an error that says so, the preview never misses a
    /// frame, the partial file plays, and the next take (elsewhere) records normally.
    func testFullDiskEndsTheTakeAndThePreviewGoesOn() async throws {
        let full = try SizeLimitedFolder(kilobytes: 192, test: self)
        let dir = try temporaryDirectory(self)
        let plan = try smallPlan(audio: .test)
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 5 }
        let path = "\(full.path)/take.mkv"
        try await session.startTake(path: path)
        // ~190 kB at this bitrate is a second or two: wait for the take to end by itself.
        try await session.waitUntil(timeout: 60) { _, take in take == nil }
        let ended = await session.endedTakes
        let failed = try XCTUnwrap(ended.first)
        let error = try XCTUnwrap(failed.failure, "the take ended because the disk filled")
        XCTAssertTrue(error.message.contains("full") && error.message.contains(full.path), error.message)
        XCTAssertEqual(error.kind, .runtime)

        // The preview keeps going: 30 more operator frames, no gap, and the session has not failed.
        let atFailure = await session.counts.operatorView.frames
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= atFailure + 30 }
        let nextPath = "\(dir)/next.mkv"
        try await session.startTake(path: nextPath)
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= 10 }
        let next = try await session.stopTake()
        let preview = await session.counts.operatorView
        let sessionFailure = await session.failureReason
        await session.stop()
        XCTAssertNil(sessionFailure)
        XCTAssertLessThanOrEqual(preview.maxGap, interval + interval / 2, "largest preview gap across the failure")
        XCTAssertEqual(preview.backwardSteps, 0)
        XCTAssertNil(next.failure)

        // The partial file plays: a keyframe first, and frames up to near where the disk filled.
        let partial = try MediaInspector.decode(path)
        print("full disk: \(failed.frames.frames) frames entered the take, \(partial.video.frames) decoded from the partial file")
        XCTAssertGreaterThan(partial.video.frames, 10)
        XCTAssertEqual(partial.encodedVideo.firstIsKeyframe, true)
        XCTAssertLessThanOrEqual(partial.video.frames, failed.frames.frames)
        XCTAssertGreaterThan(partial.audio.frames, 0, "the partial file keeps its audio")
        let decodedNext = try MediaInspector.decode(nextPath)
        XCTAssertEqual(Double(decodedNext.video.frames), Double(next.frames.frames), accuracy: 1)
    }

    /// The shield itself: a take whose disk is full stays attached (the session is told not to detach
    /// it), and still the camera, the preview and the live audio run on, because the branch's errors never
    /// travel back through the tees.
    func testAFailedTakeStillAttachedNeverStopsTheCamera() async throws {
        let full = try SizeLimitedFolder(kilobytes: 64, test: self)
        let plan = try smallPlan(audio: .test)
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        await session.setDetachesFailedTakes(false)
        try await session.start()
        try await session.startTake(path: "\(full.path)/take.mkv")
        let deadline = Date().addingTimeInterval(30)
        while await session.runningTakeFailure == nil {
            XCTAssertLessThan(Date(), deadline, "the disk never filled")
            if Date() > deadline { break }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        let operatorAtFailure = await session.counts.operatorView.frames
        let audioAtFailure = await session.audioCount?.frames ?? 0
        try await session.waitUntil(timeout: 10) { counts, _ in counts.operatorView.frames >= operatorAtFailure + 45 }
        let audioLater = await session.audioCount?.frames ?? 0
        let preview = await session.counts.operatorView
        let stillAttached = await session.isRecording
        let take = try await session.stopTake()
        await session.stop()
        XCTAssertTrue(stillAttached, "the failed take stayed attached for the whole check")
        XCTAssertNotNil(take.failure)
        XCTAssertGreaterThan(audioLater, audioAtFailure + 50, "live audio kept flowing")
        XCTAssertLessThanOrEqual(preview.maxGap, interval + interval / 2)
    }
}
