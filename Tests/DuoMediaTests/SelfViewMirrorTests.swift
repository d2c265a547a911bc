import DuoCore
import DuoMedia
import XCTest

/// The subject's picture (the self-view, the preview kind) behind beam-splitter glass: the whole view is
/// mirrored for the glass, so the picture flips with it, on top of the selfie mirror that follows the
/// camera on the air. (smpte's top-left is white; mirrored, it is the blue bar.)
final class SelfViewMirrorTests: XCTestCase {
    /// Whether the subject's frames, a few after the last change, are mirrored (the blue bar top-left).
    private func subjectMirrored(_ session: CaptureSession) async throws -> Bool {
        let seen = await session.counts.subjectView.frames
        try await session.waitUntil { counts, _ in counts.subjectView.frames >= seen + 5 }
        return (await session.counts.subjectView.lumaSample ?? 255) < 100
    }

    func testThePictureFlipsWithTheViewsGlassMirrorAndTheCameraOnTheAir() async throws {
        func profile(_ id: String) -> CameraProfile {
            CameraProfile(id: id, name: id, testPattern: "smpte", modes: [.init(pixelFormat: "I420", format: VideoFormat.parse("320x240@30")!)])
        }
        var plan = try GraphPlan(library: library(), camera: .simulated(profile("a")), secondCamera: .simulated(profile("b")),
                                 requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        plan.faces = [.theOperator, .theSubject]
        let session = CaptureSession(plan: plan, sampleLuma: true)
        try await session.start()
        let glass = MirrorFlags(horizontal: true, vertical: false)
        var seen: [Bool] = []
        seen.append(try await subjectMirrored(session))              // A (facing the operator): not mirrored
        await session.setSubjectViewMirror(glass)
        seen.append(try await subjectMirrored(session))              // A behind glass: flipped for the glass
        _ = try await session.selectCamera(1)
        seen.append(try await subjectMirrored(session))              // B (facing the subject) behind glass: selfie and glass cancel
        await session.setSubjectViewMirror(.none)
        seen.append(try await subjectMirrored(session))              // B without glass: the selfie mirror
        await session.stop()
        XCTAssertEqual(seen, [false, true, false, true])
    }

    /// A picture the view paints over (headless countdown or teleprompter, no self-view) is not flipped,
    /// and flips again the moment a self-view samples it or the preview kind shows it.
    func testAPictureTheViewCoversIsNotFlippedAndFlipsAgainWhenShown() async throws {
        let profile = CameraProfile(id: "a", name: "a", testPattern: "smpte", modes: [.init(pixelFormat: "I420", format: VideoFormat.parse("320x240@30")!)])
        var plan = try GraphPlan(library: library(), camera: .simulated(profile), requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        plan.faces = [.theSubject]
        let session = CaptureSession(plan: plan, sampleLuma: true)
        try await session.start()
        var seen: [Bool] = []
        seen.append(try await subjectMirrored(session))              // facing the subject: the selfie mirror
        await session.setSubjectPictureUse(.covered)
        seen.append(try await subjectMirrored(session))              // covered by the view: left as it comes
        await session.setSubjectPictureUse(.thumbnail)
        seen.append(try await subjectMirrored(session))              // a self-view's thumbnail: mirrored again
        await session.setSubjectPictureUse(.covered)
        seen.append(try await subjectMirrored(session))
        await session.setSubjectPictureUse(.shown)
        seen.append(try await subjectMirrored(session))              // the preview kind: mirrored
        let frames = await session.counts.subjectView.frames
        await session.stop()
        XCTAssertEqual(seen, [true, false, true, false, true])
        XCTAssertGreaterThan(frames, 15, "the subject branch kept flowing through both changes")
    }
}
