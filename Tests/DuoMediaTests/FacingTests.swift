import DuoCore
import DuoMedia
import XCTest

/// A camera turned round live (`setFaces`): the displays' mirroring follows at once, in the pixels each
/// display's branch carries; the recording never mirrors.
final class FacingTests: XCTestCase {
    /// smpte's top-left is white; mirrored, it is the blue bar (dark luma).
    func testTurningTheCameraOnTheAirFlipsBothDisplaysAndAnotherCameraNone() async throws {
        let smpte = CameraProfile(id: "a", name: "a", testPattern: "smpte", modes: [.init(pixelFormat: "I420", format: VideoFormat.parse("320x240@30")!)])
        let other = CameraProfile(id: "b", name: "b", testPattern: "smpte", modes: [.init(pixelFormat: "I420", format: VideoFormat.parse("320x240@30")!)])
        var plan = try GraphPlan(library: library(), camera: .simulated(smpte), secondCamera: .simulated(other), requested: nil,
                                 aspect: nil, encoder: .x264, container: .mkv)
        plan.faces = [.theOperator, .theSubject]
        let session = CaptureSession(plan: plan, sampleLuma: true)
        try await session.start()
        func settle() async throws {
            let seen = await session.counts
            try await session.waitUntil { counts, _ in
                counts.subjectView.frames >= seen.subjectView.frames + 5 && counts.operatorView.frames >= seen.operatorView.frames + 5
            }
        }
        func mirrored() async -> [Bool] {
            let c = await session.counts
            return [(c.operatorView.lumaSample ?? 255) < 100, (c.subjectView.lumaSample ?? 255) < 100, (c.camera.lumaSample ?? 255) < 100]
        }
        try await settle()
        var m = await mirrored()
        XCTAssertEqual(m, [true, false, false], "A faces the operator: the operator's preview is mirrored")
        // A turned round to the subject: both displays flip.
        await session.setFaces([.theSubject, .theSubject])
        try await settle()
        m = await mirrored()
        XCTAssertEqual(m, [false, true, false], "A faces the subject now: the subject's picture is mirrored")
        // B (not on the air) turned: nothing on screen changes.
        await session.setFaces([.theSubject, .theOperator])
        try await settle()
        m = await mirrored()
        XCTAssertEqual(m, [false, true, false])
        // Swapping to B uses B's new facing (the operator's), not the plan's.
        _ = try await session.selectCamera(1)
        try await settle()
        m = await mirrored()
        XCTAssertEqual(m, [true, false, false], "B, turned to the operator, on the air")
        await session.stop()
    }
}
