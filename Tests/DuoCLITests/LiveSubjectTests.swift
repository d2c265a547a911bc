import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// Wraps the real subject drawer and keeps a copy of the last drawn frame's luma plane.
final class FrameTap: I420FrameDrawer, @unchecked Sendable {
    let inner: any I420FrameDrawer
    private let lock = Lock()
    private var luma: [UInt8] = []
    private(set) var width = 0, height = 0
    private var drawn = 0
    init(_ inner: any I420FrameDrawer) { self.inner = inner }
    func draw(into planes: I420Planes, at runningTime: Int64) {
        inner.draw(into: planes, at: runningTime)
        var copy = [UInt8](repeating: 0, count: planes.width * planes.height)
        for row in 0..<planes.height {
            copy.withUnsafeMutableBufferPointer { dst in
                (dst.baseAddress! + row * planes.width).update(from: planes.y + row * planes.yStride, count: planes.width)
            }
        }
        lock.withLock { luma = copy; width = planes.width; height = planes.height; drawn += 1 }
    }
    var frames: Int { lock.withLock { drawn } }
    var lastLuma: [UInt8] { lock.withLock { luma } }
}

final class LiveSubjectTests: XCTestCase {
    private var root: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    /// In the running graph, subject frames show the teleprompter on black: text pixels in the panel, and
    /// none of the camera's colour bars anywhere.
    func testSubjectFramesShowTheTeleprompterNotTheCamera() async throws {
        var setup = SubjectSetup()
        setup.accessory = .teleprompter
        setup.scriptPath = root.appendingPathComponent("Assets/scripts/talk.md").path
        let plan = try TestPlans.testSource("640x360@30")
        let presenter = try SubjectPresenter(setup, width: plan.subjectSize.width, height: plan.subjectSize.height)
        await presenter.settle()
        let tap = FrameTap(presenter.drawer)
        let session = CaptureSession(plan: plan, subjectDrawer: tap)
        try await session.start()
        await presenter.takeStarted(at: await session.runningTime)
        await presenter.settle()
        let drawnBefore = tap.frames
        try await session.waitUntil { counts, _ in counts.subjectView.frames >= 10 && tap.frames >= drawnBefore + 5 }
        let luma = tap.lastLuma
        await session.stop()

        XCTAssertEqual(luma.count, 640 * 360)
        let bright = luma.filter { $0 > 170 }.count
        let black = luma.filter { $0 == 16 }.count
        XCTAssertGreaterThan(bright, 500, "text pixels on the subject view")
        XCTAssertGreaterThan(black, luma.count / 6, "the view sits on black")
        // Beside the prompt panel (which runs the monitor's height) and between the safe-frame corners, the
        // view is plain black: the camera's colour bars (luma 35…180) must not show through.
        var beside: [UInt8] = []
        for row in 60..<300 { beside += luma[(row * 640 + 4)..<(row * 640 + 40)] }
        XCTAssertTrue(beside.allSatisfy { $0 == 16 }, "camera picture leaks into the subject view: \(Set(beside).sorted())")
        let status = await presenter.status(at: await session.runningTime)
        XCTAssertFalse(status.paused, "scrolling started with the take")
    }

    /// With a self-view, the headless subject frames show the camera picture shrunk into the corner far
    /// from the lens (the colour bars' several levels), and black elsewhere below the text.
    func testSubjectFramesShowTheSelfViewInItsCorner() async throws {
        var setup = SubjectSetup()
        setup.accessory = .teleprompter
        setup.scriptPath = root.appendingPathComponent("Assets/scripts/talk.md").path
        setup.picture = PictureShape(width: 640, height: 360)
        setup.selfView = .small
        let plan = try TestPlans.testSource("640x360@30")
        let presenter = try SubjectPresenter(setup, width: plan.subjectSize.width, height: plan.subjectSize.height)
        await presenter.settle()
        let tap = FrameTap(presenter.drawer)
        let session = CaptureSession(plan: plan, subjectDrawer: tap)
        try await session.start()
        let drawnBefore = tap.frames
        try await session.waitUntil { counts, _ in counts.subjectView.frames >= 10 && tap.frames >= drawnBefore + 5 }
        let luma = tap.lastLuma
        await session.stop()

        var profile = DisplayProfile.plain
        profile.lens = .top
        let view = try XCTUnwrap(SubjectGeometry(profile: profile, width: 640, height: 360, lineHeight: 21.6, maximumPanelWidth: 540,
                                                 selfView: PictureShape(width: 640, height: 360).selfViewSize(.small, monitorWidth: 640, monitorHeight: 360)).selfView)
        XCTAssertGreaterThan(view.midX, 320, "the self-view is on the right, \(view)")
        XCTAssertGreaterThan(view.midY, 180, "the self-view is at the bottom, far from a top lens, \(view)")
        var inside: [UInt8] = []
        for row in Int(view.minY) + 8..<Int(view.maxY) - 8 { inside += luma[(row * 640 + Int(view.minX) + 8)..<(row * 640 + Int(view.maxX) - 8)] }
        let levels = Set(inside.map { $0 / 16 })
        XCTAssertGreaterThanOrEqual(levels.count, 4, "the camera's bars show in the self-view: luma levels \(levels.sorted())")
        // Left of it, on the same rows, black (the recording light is off: no take).
        var left: [UInt8] = []
        for row in Int(view.minY)..<Int(view.maxY) { left += luma[(row * 640 + 20)..<(row * 640 + 300)] }
        XCTAssertTrue(left.allSatisfy { $0 == 16 }, "the camera picture leaks outside the self-view: \(Set(left).sorted())")
    }

    /// The `preview` kind shows the camera picture to the subject mirrored, like a mirror; the operator
    /// preview and the recording stay the right way round.
    func testPreviewKindMirrorsThePictureForTheSubjectOnly() async throws {
        var setup = SubjectSetup()
        setup.accessory = .preview
        let plan = try TestPlans.testSource("640x360@30")
        let presenter = try SubjectPresenter(setup, width: plan.subjectSize.width, height: plan.subjectSize.height)
        await presenter.settle()
        let tap = FrameTap(presenter.drawer)
        let session = CaptureSession(plan: plan, subjectDrawer: tap, sampleLuma: true)
        try await session.start()
        try await session.waitUntil { counts, _ in counts.subjectView.frames >= 5 && tap.frames >= 5 }
        let luma = tap.lastLuma
        let operatorLuma = await session.counts.operatorView.lumaSample
        await session.stop()

        // SMPTE bars run white (luma ~180) on the left to blue (~35) on the right.
        let row = 120 * 640
        XCTAssertLessThan(luma[row + 10], 80, "the subject's left edge shows the camera's right edge (blue)")
        XCTAssertGreaterThan(luma[row + 629], 150, "the subject's right edge shows the camera's left edge (white)")
        XCTAssertGreaterThan(try XCTUnwrap(operatorLuma), 150, "the operator preview keeps white on the left")
    }
}
