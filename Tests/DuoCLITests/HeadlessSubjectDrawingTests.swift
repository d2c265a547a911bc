@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// Headless, no one sees the subject branch's frames (a fakesink): the run's session lets them flow
/// (counted for the report) but draws no subject view into them (issue 36). The same presenter's drawer,
/// given a frame, does draw: it is the session that leaves it out.
final class HeadlessSubjectDrawingTests: XCTestCase {
    func testHeadlessRunDrawsNoSubjectViewThatNoOneReads() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("Assets/scripts/talk.md").path
        let options = try Options.parse(["--headless", "--source", "videotestsrc", "--accessory", "teleprompter", "--script", script])
        var setup = SubjectSetup()
        setup.accessory = .teleprompter
        setup.scriptPath = script
        let plan = try TestPlans.testSource("640x360@30")
        let presenter = try SubjectPresenter(setup, width: plan.subjectSize.width, height: plan.subjectSize.height)
        await presenter.settle()
        let session = HeadlessRun().session(plan: plan, presenter: presenter, options: options)
        try await session.start()
        await presenter.takeStarted(at: await session.runningTime)
        try await session.waitUntil { counts, _ in counts.subjectView.frames >= 30 }
        let counts = await session.counts
        await session.stop()

        XCTAssertGreaterThanOrEqual(counts.subjectView.frames, 30, "the subject branch ran (its frames are counted)")
        XCTAssertEqual(presenter.framesDrawn, 0, "no subject view drawn into frames no one reads")
        // The drawer itself works: one frame handed to it is drawn.
        var y = [UInt8](repeating: 0, count: 64 * 36), u = [UInt8](repeating: 0, count: 32 * 18), v = u
        y.withUnsafeMutableBufferPointer { yp in u.withUnsafeMutableBufferPointer { up in v.withUnsafeMutableBufferPointer { vp in
            presenter.drawer.draw(into: I420Planes(y: yp.baseAddress!, yStride: 64, u: up.baseAddress!, uStride: 32, v: vp.baseAddress!,
                                                   vStride: 32, width: 64, height: 36), at: 0)
        } } }
        XCTAssertEqual(presenter.framesDrawn, 1)
    }
}
