import DuoCore
import XCTest

/// A warning GStreamer repeats every few seconds (a sink's QoS "A lot of buffers are being dropped") is
/// shown once a minute with how many were held back, and what was held back is said at the end.
final class WarningThrottleTests: XCTestCase {
    private let s: Int64 = 1_000_000_000

    func testARepeatedWarningIsShownOnceAMinuteWithItsCount() {
        var t = WarningThrottle()
        let qos = "operator_sink: A lot of buffers are being dropped."
        XCTAssertEqual(t.admit(qos, at: 0).show, true)
        for i in 1...20 { XCTAssertEqual(t.admit(qos, at: Int64(i) * 2 * s).show, false, "held back at \(i * 2) s") }
        XCTAssertEqual(t.admit("camera: another warning", at: 41 * s).show, true, "another kind is shown at once")
        let again = t.admit(qos, at: 61 * s)
        XCTAssertTrue(again.show)
        XCTAssertEqual(again.held, 20, "the 20 held back are counted on the next line shown")
        XCTAssertEqual(t.admit(qos, at: 65 * s).show, false)
        XCTAssertEqual(t.pending.map(\.count), [1], "one held back since, said at the end")
    }
}
