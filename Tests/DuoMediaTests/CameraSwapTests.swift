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
