import DuoCore
import XCTest

/// The cameras' health, with time as a parameter: loss by silence, restoration, retries, devices that go
/// and come back, the test hub's unplug.
final class CameraHealthTests: XCTestCase {
    private let ms: Int64 = 1_000_000

    func testASingleCameraStallsAfterFourIntervalsOrTwoSecondsAndComesBack() {
        var h = CameraHealth(cameraCount: 1, frameRate: 30)
        h.started(at: 0)
        XCTAssertNil(h.observeActive(frames: 0, active: 0, at: 5_000 * ms), "no frame yet: the camera is warming up, not stalled")
        XCTAssertNil(h.observeActive(frames: 10, active: 0, at: 5_200 * ms))
        XCTAssertNil(h.observeActive(frames: 10, active: 0, at: 7_200 * ms), "2.0 s is not yet over the stall timeout")
        XCTAssertEqual(h.observeActive(frames: 10, active: 0, at: 7_400 * ms), .lost(0, reason: Said(verbatim: "delivered no frame for 2.2 s (unplugged or stalled)")))
        XCTAssertTrue(h.markLost(0, at: 7_400 * ms))
        XCTAssertFalse(h.markLost(0, at: 7_500 * ms), "reported once")
        XCTAssertNil(h.observeActive(frames: 10, active: 0, at: 10_000 * ms), "a lost camera is not lost again")
        XCTAssertEqual(h.observeActive(frames: 11, active: 0, at: 10_200 * ms), .restored(0))
        XCTAssertTrue(h.lost.isEmpty)
    }

    func testFramesInFlightFromAStoppedSourceDoNotRestoreIt() {
        var h = CameraHealth(cameraCount: 1, frameRate: 30)
        _ = h.observeActive(frames: 10, active: 0, at: 0)
        XCTAssertTrue(h.markLost(0, at: 100 * ms))
        h.sourceRunning(0, false)
        XCTAssertNil(h.observeActive(frames: 12, active: 0, at: 200 * ms), "stopped: a late frame is not a return")
        h.sourceRunning(0, true)
        XCTAssertEqual(h.observeActive(frames: 13, active: 0, at: 300 * ms), .restored(0))
    }

    func testOfTwoCamerasTheOneOnTheAirIsJudgedFirstAndTheOtherGetsAFreshWindow() {
        var h = CameraHealth(cameraCount: 2, frameRate: 30)
        XCTAssertEqual(h.lossTimeout, 300 * ms, "four intervals at 30 fps is under the 0.3 s floor")
        XCTAssertEqual(h.observe(cameraFrames: [10, 10], active: 0, at: 0), [])
        XCTAssertEqual(h.observe(cameraFrames: [20, 10], active: 0, at: 200 * ms), [])
        XCTAssertEqual(h.observe(cameraFrames: [30, 10], active: 0, at: 400 * ms), [.lost(1, reason: Said(verbatim: "delivered no frame for 0.4 s"))],
                       "B, off the air, silent while A delivers")
        XCTAssertTrue(h.markLost(1, at: 400 * ms))
        // Both silent: the one on the air is lost; the other is not judged in the same tick.
        var both = CameraHealth(cameraCount: 2, frameRate: 30)
        _ = both.observe(cameraFrames: [10, 10], active: 0, at: 0)
        XCTAssertEqual(both.observe(cameraFrames: [10, 10], active: 0, at: 400 * ms), [.lost(0, reason: Said(verbatim: "delivered no frame for 0.4 s"))])
        XCTAssertTrue(both.markLost(0, at: 400 * ms))
        XCTAssertEqual(both.observe(cameraFrames: [10, 10], active: 1, at: 600 * ms), [], "B, now on the air, got a fresh window")
        XCTAssertEqual(both.observe(cameraFrames: [10, 14], active: 1, at: 800 * ms), [])
        XCTAssertEqual(both.observe(cameraFrames: [12, 18], active: 1, at: 1_000 * ms), [.restored(0)])
    }

    func testLostCamerasAreRetriedUnlessHeldOutOrTheirDeviceIsGone() {
        var h = CameraHealth(cameraCount: 2, frameRate: 30, reattachInterval: 2_000 * ms)
        XCTAssertTrue(h.markLost(0, at: 0))
        XCTAssertTrue(h.markLost(1, at: 0))
        h.hubPlugged(1, false)
        XCTAssertEqual(h.due(at: 1_000 * ms), [])
        XCTAssertEqual(h.due(at: 2_000 * ms), [0], "camera B is held out by the hub")
        XCTAssertEqual(h.due(at: 3_000 * ms), [], "tried again only after another interval")
        XCTAssertTrue(h.deviceRemoved(0))
        XCTAssertFalse(h.deviceRemoved(0), "reported gone once")
        XCTAssertEqual(h.due(at: 9_000 * ms), [], "a gone device waits for the monitor, not the timer")
        XCTAssertTrue(h.deviceAdded(0))
        XCTAssertFalse(h.deviceAdded(0))
        h.hubPlugged(1, true)
        XCTAssertEqual(h.due(at: 9_000 * ms), [0, 1])
    }
}
