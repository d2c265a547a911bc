import DuoCore
import DuoMedia
import Foundation
import XCTest

/// The virtual front camera: two cameras at their common format, swapped mid-take.
final class CameraSwapTests: XCTestCase {
    private func profile(_ id: String, pattern: String, _ formats: [String]) -> CameraProfile {
        CameraProfile(id: id, name: id, testPattern: pattern,
                      modes: formats.map { .init(pixelFormat: "I420", format: VideoFormat.parse($0)!) })
    }

    func testTheCommonFormatIsTheBestBothCamerasOffer() throws {
        let a = profile("a", pattern: "smpte", ["1920x1080@60", "1280x720@30", "320x240@30"])
        let b = profile("b", pattern: "ball", ["3840x2160@30", "1280x720@60", "1280x720@30", "320x240@30"])
        let plan = try GraphPlan(library: library(), camera: .simulated(a), secondCamera: .simulated(b), requested: nil,
                                 aspect: nil, encoder: .x264, container: .mkv)
        XCTAssertEqual(plan.format.description, "1280x720@30")
        XCTAssertThrowsError(try GraphPlan(library: library(), camera: .simulated(a),
                                           secondCamera: .simulated(profile("c", pattern: "ball", ["640x360@30"])),
                                           requested: nil, aspect: nil, encoder: .x264, container: .mkv)) { error in
            XCTAssertTrue((error as! DuoError).message.contains("share no format"))
        }
    }

    /// Four swaps during a take: the picture changes camera, nothing downstream renegotiates, the
    /// recording has no gap longer than a frame interval, and the file decodes whole.
    func testSwapsMidTakeKeepTheRecordingContinuous() async throws {
        let dir = try temporaryDirectory(self)
        let a = profile("a", pattern: "smpte", ["320x240@30"])   // top-left pixel white (luma 235)
        let b = profile("b", pattern: "black", ["320x240@30"])   // all black (luma 16)
        let plan = try GraphPlan(library: library(), camera: .simulated(a), secondCamera: .simulated(b), requested: nil,
                                 aspect: nil, encoder: .x264, container: .mkv)
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan, sampleLuma: true)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 5 }
        try await session.startTake(path: "\(dir)/swaps.mkv")
        var lumaSeen: [Int] = []
        for i in 1...4 {
            let before = await session.takeFrames?.frames ?? 0
            try await session.waitUntil { _, take in (take?.frames ?? 0) >= before + 10 }
            let luma = await session.counts.operatorView.lumaSample
            lumaSeen.append(try XCTUnwrap(luma))
            let swap = try await session.selectCamera()
            XCTAssertEqual(swap?.format, "320x240@30", "swap \(i) keeps the format")
        }
        let settled = await session.takeFrames?.frames ?? 0
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= settled + 10 }
        let lastLuma = await session.counts.operatorView.lumaSample
        lumaSeen.append(try XCTUnwrap(lastLuma))
        let result = try await session.stopTake()
        let operatorView = await session.counts.operatorView
        await session.stop()

        XCTAssertEqual(lumaSeen.map { $0 > 128 }, [true, false, true, false, true], "the picture alternates A, B, A, B, A: \(lumaSeen)")
        XCTAssertEqual(result.swaps.count, 4)
        XCTAssertEqual(result.swaps.first.map { [$0.from, $0.to] }, ["a (simulated, a)", "b (simulated, b)"])
        XCTAssertEqual(result.frames.capsChanges, 0, "no renegotiation reaches the recording")
        XCTAssertEqual(operatorView.capsChanges, 0, "no renegotiation reaches the preview")
        XCTAssertEqual(result.frames.backwardSteps, 0)
        XCTAssertLessThanOrEqual(result.frames.maxGap, interval + interval / 2, "largest gap in the recording")
        let decoded = try MediaInspector.decode("\(dir)/swaps.mkv")
        XCTAssertEqual(Double(decoded.video.frames), Double(result.frames.frames), accuracy: 1)
    }

    /// Twenty swaps, folds and unfolds in one take keep the recording's cadence: one file, no caps change,
    /// no gap over one frame interval and no two frames closer than half an interval, from the decoded
    /// timestamps.
    func testTwentySwapsKeepAConstantFrameRate() async throws {
        let dir = try temporaryDirectory(self)
        let a = profile("a", pattern: "smpte", ["320x240@30"])
        let b = profile("b", pattern: "black", ["320x240@30"])
        let plan = try GraphPlan(library: library(), camera: .simulated(a), secondCamera: .simulated(b), requested: nil,
                                 aspect: nil, encoder: .x264, container: .mkv)
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let session = CaptureSession(plan: plan)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.operatorView.frames >= 5 }
        try await session.startTake(path: "\(dir)/twenty.mkv")
        // fold (to B), unfold (to A) and swap in turn, each one changing the camera.
        var swaps = 0, active = 0
        for i in 0..<20 {
            let before = await session.takeFrames?.frames ?? 0
            try await session.waitUntil { _, take in (take?.frames ?? 0) >= before + 3 }
            let target: Int? = i % 2 == 0 ? (active == 0 ? 1 : 0) : nil  // fold/unfold, then swap
            if try await session.selectCamera(target) != nil { swaps += 1 }
            active = 1 - active
        }
        let settled = await session.takeFrames?.frames ?? 0
        try await session.waitUntil { _, take in (take?.frames ?? 0) >= settled + 5 }
        let result = try await session.stopTake()
        await session.stop()

        XCTAssertEqual(result.swaps.count, swaps)
        XCTAssertEqual(swaps, 20)
        XCTAssertEqual(result.frames.capsChanges, 0)
        let decoded = try MediaInspector.decode("\(dir)/twenty.mkv")
        XCTAssertEqual(decoded.video.frames, result.frames.frames, "every recorded frame decodes")
        XCTAssertLessThanOrEqual(decoded.video.maxGap, interval + 1_000_000, "largest gap (decoded) within one interval")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(decoded.video.minGap), interval / 2, "no two frames closer than half an interval")
    }

    /// The selfie convention by direction: camera A faces the operator, B the subject. With A on the air
    /// the operator's preview is mirrored and the subject's picture is not; after a swap to B, the reverse;
    /// the recording never. (smpte's top-left is white; mirrored, it is the blue bar.)
    func testMirroringFollowsTheActiveCamerasDirection() async throws {
        let dir = try temporaryDirectory(self)
        let a = profile("a", pattern: "smpte", ["320x240@30"]), b = profile("b", pattern: "smpte", ["320x240@30"])
        var plan = try GraphPlan(library: library(), camera: .simulated(a), secondCamera: .simulated(b), requested: nil,
                                 aspect: nil, encoder: .x264, container: .mkv)
        plan.faces = [.theOperator, .theSubject]
        let session = CaptureSession(plan: plan, sampleLuma: true)
        try await session.start()
        func settle() async throws {
            let seen = await session.counts.subjectView.frames
            try await session.waitUntil { counts, _ in counts.subjectView.frames >= seen + 5 && counts.operatorView.frames >= 5 }
        }
        func mirrored() async -> (operatorPreview: Bool, subjectPicture: Bool, camera: Bool) {
            let c = await session.counts
            return ((c.operatorView.lumaSample ?? 255) < 100, (c.subjectView.lumaSample ?? 255) < 100, (c.camera.lumaSample ?? 255) < 100)
        }
        try await settle()
        var m = await mirrored()
        XCTAssertEqual([m.operatorPreview, m.subjectPicture, m.camera], [true, false, false], "A (facing the operator) on the air")
        try await session.startTake(path: "\(dir)/mirror.mkv")
        _ = try await session.selectCamera(1)
        try await settle()
        m = await mirrored()
        XCTAssertEqual([m.operatorPreview, m.subjectPicture, m.camera], [false, true, false], "B (facing the subject) on the air")
        _ = try await session.selectCamera(0)
        try await settle()
        m = await mirrored()
        XCTAssertEqual([m.operatorPreview, m.subjectPicture], [true, false], "back to A")
        _ = try await session.selectCamera(1)
        try await settle()
        _ = try await session.stopTake()
        await session.stop()
        let decoded = try MediaInspector.decode("\(dir)/mirror.mkv")
        XCTAssertGreaterThan(try XCTUnwrap(decoded.video.lumaSample), 128, "the recording is never mirrored")
        XCTAssertGreaterThan(try XCTUnwrap(decoded.video.lumaMax), 128)

        // --mirror-preview flips the operator's own preview.
        plan.operatorMirrorChoice = true
        XCTAssertFalse(plan.mirrors(activeCamera: 0).operatorPreview)
        XCTAssertTrue(plan.mirrors(activeCamera: 1).operatorPreview)
    }

    /// The test hub turns a camera live. A vertical gradient (dark at the top) turned half round is
    /// bright at the top-left; smpte (white top-left) turned a quarter is fitted into the same format with
    /// borders (a black top-left), never stretched; turned back, each is as it was. The recording keeps
    /// one size throughout and plays without a gap.
    func testACameraTurnedLiveKeepsTheRecordingsFormat() async throws {
        let dir = try temporaryDirectory(self)
        func turn(_ pattern: String, _ steps: [(degrees: Int, bright: Bool)]) async throws {
            let a = profile("a", pattern: pattern, ["320x240@30"])
            let plan = try GraphPlan(library: library(), camera: .simulated(a), requested: nil, aspect: nil, encoder: .x264, container: .mkv)
            let session = CaptureSession(plan: plan, sampleLuma: true)
            try await session.start()
            func topLeft() async throws -> Int {
                let seen = await session.counts.camera.frames
                try await session.waitUntil { counts, _ in counts.camera.frames >= seen + 5 }
                return Int(await session.counts.camera.lumaSample ?? -1)
            }
            try await session.startTake(path: "\(dir)/\(pattern).mkv")
            for step in steps {
                try await session.rotateCamera(0, degrees: step.degrees)
                let luma = try await topLeft()
                if step.bright { XCTAssertGreaterThan(luma, 180, "\(pattern) turned \(step.degrees)") }
                else { XCTAssertLessThan(luma, 40, "\(pattern) turned \(step.degrees)") }
            }
            let result = try await session.stopTake()
            await session.stop()
            XCTAssertNil(result.failure)
            let decoded = try MediaInspector.decode("\(dir)/\(pattern).mkv")
            XCTAssertEqual(decoded.width, 320)
            XCTAssertEqual(decoded.height, 240)
            XCTAssertEqual(decoded.video.frames, result.frames.frames, "every frame of the take plays")
            XCTAssertGreaterThanOrEqual(decoded.video.frames, Int64(steps.count * 4))
            XCTAssertLessThanOrEqual(decoded.video.maxGap, 34_000_000, "turning never stalls the take")
        }
        try await turn("gradient", [(0, false), (180, true), (0, false)])
        try await turn("smpte", [(0, true), (90, false), (270, false), (0, true)])
    }

    func testSwappingWithOneCameraIsRefused() async throws {
        let session = CaptureSession(plan: try smallPlan())
        try await session.start()
        do {
            try await session.selectCamera()
            XCTFail("a one-camera session swapped")
        } catch {
            XCTAssertTrue(error.message.contains("second camera"))
        }
        await session.stop()
    }
}
