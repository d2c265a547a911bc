import DuoCore
@testable import DuoMedia
import Foundation
import XCTest

/// The screen track (`--screen`) in a real graph, without a display: its source (screen-x11.gst with a
/// test source in place of ximagesrc) feeds each take's second video stream on the take's clock; when
/// it fails mid-take, only the screen track ends: `screenStopped` once, the camera track records on to a
/// file that decodes whole, the preview misses no frame and the session never fails.
final class ScreenTrackFaultTests: XCTestCase {
    func testAFailingScreenSourceEndsOnlyTheScreenTrack() async throws {
        var plan = try branchPlan(edit: ("screen-x11",
            "ximagesrc name=screen_source use-damage=false show-pointer=true startx={{x}} starty={{y}} endx={{end_x}} endy={{end_y}}",
            "videotestsrc name=screen_source is-live=true pattern=ball ! video/x-raw,format=BGRx,width=320,height=240 ! identity name=screen_fault error-after=20"))
        plan.screen = ScreenTrack(monitor: ScreenMonitor(index: 0, connector: "TEST-1", x: 0, y: 0, width: 320, height: 240), rate: 15)
        let run = try await BranchRun(plan: plan, test: self)
        let event = try await run.failure { if case .screenStopped = $0 { true } else { false } }
        guard case .screenStopped(let why) = event else { return XCTFail("\(event)") }
        XCTAssertTrue(why.hasPrefix("screen_fault: "), why)
        try await run.goesOn()
        let take = try await run.end()
        let screen = try XCTUnwrap(take.screen, "the take has its screen track")
        XCTAssertGreaterThan(screen.frames, 5, "screen frames before the failure")
        XCTAssertLessThanOrEqual(screen.frames, 20, "none after it")
        XCTAssertEqual(take.screenSize?.width, 320)
        let videoEnd = try XCTUnwrap(take.video.lastPTS), screenEnd = try XCTUnwrap(screen.lastPTS)
        XCTAssertGreaterThan(videoEnd - screenEnd, 800_000_000, "the camera track went on a second past the screen's end")
        XCTAssertEqual(run.events.filter { if case .screenStopped = $0 { true } else { false } }.count, 1, "said once")
    }
}
