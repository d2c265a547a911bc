import DuoCore
import XCTest

/// The web remote's connections before their request (issue 35), in milliseconds on a manual clock: one
/// that sends no complete request within 5 s is closed, caps per address and in total make the oldest
/// waiting connection give way (never a served one), and a kept-alive connection gets a new deadline.
final class IdleConnectionsTests: XCTestCase {
    private let ms: Int64 = 1_000_000

    func testAConnectionWithoutACompleteRequestIsClosedAfterFiveSeconds() {
        var idle = IdleConnections<Int>(ListenLimits(clients: 10, perAddress: 5, longest: 100))
        XCTAssertEqual(idle.awaiting(1, from: "a", at: 0), [])
        XCTAssertEqual(idle.awaiting(2, from: "a", at: 1_000 * ms), [])
        idle.served(2)
        XCTAssertEqual(idle.overdue(at: 4_999 * ms), [])
        XCTAssertEqual(idle.overdue(at: 5_000 * ms), [1], "a header line every 2 s does not help: the deadline is from the start")
        XCTAssertEqual(idle.overdue(at: 60_000 * ms), [], "a served connection (a page, a WebSocket) has no deadline")
        XCTAssertEqual(idle.awaiting(2, from: "a", at: 60_000 * ms), [], "kept alive: waits for its next request")
        XCTAssertEqual(idle.overdue(at: 65_000 * ms), [2])
        XCTAssertEqual(idle.count, 0)
    }

    func testCapsMakeTheOldestWaitingConnectionGiveWay() {
        var idle = IdleConnections<Int>(ListenLimits(clients: 6, perAddress: 3, longest: 100))
        for id in 0..<3 { XCTAssertEqual(idle.awaiting(id, from: "flood", at: Int64(id) * ms), []) }
        idle.served(0)
        XCTAssertEqual(idle.awaiting(3, from: "flood", at: 10 * ms), [1], "over 3 from one address: the oldest waiting one goes, not the served one")
        XCTAssertEqual(idle.awaiting(4, from: "flood", at: 11 * ms), [2])
        for id in 10..<13 { XCTAssertEqual(idle.awaiting(id, from: "other\(id)", at: 20 * ms), []) }
        XCTAssertEqual(idle.count, 6)
        XCTAssertEqual(idle.awaiting(20, from: "new", at: 30 * ms), [3], "over 6 in all: the oldest waiting one anywhere")
        for id in [4, 10, 11, 12, 20] { idle.served(id) }
        XCTAssertEqual(idle.awaiting(21, from: "late", at: 40 * ms), [21], "all served: the newcomer itself is turned away")
        XCTAssertFalse(idle.isTracked(21))
        idle.closed(10)
        XCTAssertEqual(idle.awaiting(22, from: "late", at: 50 * ms), [], "one went: room again")
        for id in 0..<1_000 { _ = idle.awaiting(100 + id, from: "flood", at: 60 * ms) }
        XCTAssertLessThanOrEqual(idle.count, 6, "1,000 more from one address never hold more than the caps")
    }
}
