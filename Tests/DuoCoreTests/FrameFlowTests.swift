import DuoCore
import XCTest

/// The frames-flowing fact with hysteresis: no flapping on a machine that delivers frames unevenly.
final class FrameFlowTests: XCTestCase {
    private let ms: Int64 = 1_000_000

    func testTheFirstFramesFlowAtOnceAndARealStallStopsThem() {
        var flow = FrameFlow()
        XCTAssertNil(flow.observe(frames: 0, at: 0))
        XCTAssertEqual(flow.observe(frames: 3, at: 200 * ms), true, "the run's first frames count at once")
        XCTAssertNil(flow.observe(frames: 3, at: 1_100 * ms), "900 ms without a frame is not yet a stall")
        XCTAssertEqual(flow.observe(frames: 3, at: 1_200 * ms), false, "a whole second without a frame is")
    }

    func testAfterAStallFramesMustKeepComingBeforeTheyFlowAgain() {
        var flow = FrameFlow()
        _ = flow.observe(frames: 10, at: 0)
        XCTAssertEqual(flow.observe(frames: 10, at: 1_000 * ms), false)
        XCTAssertNil(flow.observe(frames: 11, at: 1_200 * ms), "one frame after a stall")
        XCTAssertNil(flow.observe(frames: 12, at: 1_400 * ms))
        XCTAssertNil(flow.observe(frames: 13, at: 1_600 * ms))
        XCTAssertEqual(flow.observe(frames: 14, at: 1_700 * ms), true, "500 ms of steady frames")
    }

    /// Frames that come in bursts with gaps under a second never hide the view; a burst after a stall
    /// that stops again before it is steady never shows it.
    func testAnUnevenMachineDoesNotFlap() {
        var flow = FrameFlow()
        var changes: [Bool] = []
        var frames: Int64 = 0
        for step in 0..<100 {
            let now = Int64(step) * 200 * ms
            if step % 4 != 3 { frames += 4 }   // every fourth tick sees nothing new (a 400 ms gap)
            if let c = flow.observe(frames: frames, at: now) { changes.append(c) }
        }
        XCTAssertEqual(changes, [true], "uneven delivery, but never a stall: shown once, never hidden")

        var stalled = FrameFlow()
        _ = stalled.observe(frames: 1, at: 0)
        XCTAssertEqual(stalled.observe(frames: 1, at: 1_000 * ms), false)
        XCTAssertNil(stalled.observe(frames: 2, at: 1_200 * ms), "a single frame after a stall")
        XCTAssertNil(stalled.observe(frames: 2, at: 2_300 * ms), "and silence again: still hidden, no flap")
        XCTAssertFalse(stalled.flowing)
    }
}
