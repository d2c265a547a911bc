import DuoCore
import XCTest

/// The remote displays' roster, with time as a parameter: asked once at a time, retried by state, said
/// once per state and reason, listeners taken at once.
final class RemoteRosterTests: XCTestCase {
    private let s: Int64 = 1_000_000_000

    func testADisplayIsAskedOnceAtATimeAndRetriedByWhyItIsAway() {
        var r = RemoteDisplayRoster(listening: [false])
        XCTAssertEqual(r.due(at: 0), [.ask(0)])
        XCTAssertEqual(r.due(at: 0), [], "not asked again while its answer is awaited")
        r.answered(0)
        XCTAssertTrue(r.away(0, .waiting, reason: "connection refused", at: 1 * s))
        XCTAssertEqual(r.due(at: 2 * s), [])
        XCTAssertEqual(r.due(at: 3 * s), [.ask(0)], "nothing answering: asked again after 2 s")
        r.answered(0)
        XCTAssertFalse(r.away(0, .waiting, reason: "connection refused", at: 3 * s), "the same state and reason: said once")
        XCTAssertEqual(r.nextAsk(0), 5 * s)
        _ = r.due(at: 5 * s)
        r.answered(0)
        XCTAssertTrue(r.away(0, .refused, reason: "wrong passphrase", at: 5 * s))
        XCTAssertEqual(r.due(at: 9 * s), [])
        XCTAssertEqual(r.due(at: 10 * s), [.ask(0)], "refused: asked again after 5 s")
        r.answered(0)
        r.connect(0, width: 1280, height: 720)
        XCTAssertEqual(r.connectedCount, 1)
        XCTAssertEqual(r.due(at: 20 * s), [], "a connected display is not asked")
        XCTAssertNil(r.nextAsk(0))
        XCTAssertTrue(r.away(0, .lost, reason: "srt: connection lost", at: 30 * s))
        XCTAssertEqual(r.connectedCount, 0)
        XCTAssertEqual(r.due(at: 31 * s), [.ask(0)], "lost: asked again after 1 s")
    }

    func testAListeningAddressIsTakenWithoutAsking() {
        var r = RemoteDisplayRoster(listening: [true, false])
        XCTAssertEqual(r.due(at: 0), [.listen(0), .ask(1)])
        r.connect(0, width: 1920, height: 1080)
        XCTAssertEqual(r.due(at: 1 * s), [], "the listener is connected; the other is still being asked")
    }
}
