import DuoCore
import XCTest

/// The key rule for leaving fullscreen, in milliseconds on a manual clock: during a take or a countdown
/// the first request only asks again, a second within 3 s leaves, `confirm` leaves in one go, and
/// outside takes every request leaves at once.
final class FullscreenLeaveTests: XCTestCase {
    private let ms: Int64 = 1_000_000

    private func fullscreen() -> FullscreenLeave {
        var rule = FullscreenLeave()
        rule.fullscreen = true
        return rule
    }

    func testOutsideATakeEveryRequestLeavesAtOnce() {
        let clock = ManualClock(5_000 * ms)
        var rule = fullscreen()
        for on in [false, nil] as [Bool?] {
            XCTAssertEqual(rule.request(on, confirmed: false, busy: false, at: clock.now()), .carryOut)
            XCTAssertNil(rule.notice(at: clock.now()))
            clock.advance(byNanoseconds: 10 * ms)
        }
    }

    func testDuringATakeTheFirstRequestAsksAndASecondWithinThreeSecondsLeaves() {
        let clock = ManualClock(1_000 * ms)
        var rule = fullscreen()
        XCTAssertEqual(rule.request(false, confirmed: false, busy: true, at: clock.now()), .askAgain(until: 4_000 * ms))
        XCTAssertEqual(rule.notice(at: clock.now()), FullscreenLeave.notice)
        clock.advance(byNanoseconds: 2_999 * ms)
        XCTAssertEqual(rule.notice(at: clock.now()), FullscreenLeave.notice, "still shown just before 3 s")
        // F11 (a toggle) counts as the second press as well as Esc.
        XCTAssertEqual(rule.request(nil, confirmed: false, busy: true, at: clock.now()), .carryOut)
        XCTAssertNil(rule.notice(at: clock.now()))
    }

    func testASecondRequestAfterThreeSecondsAsksAgain() {
        let clock = ManualClock()
        var rule = fullscreen()
        XCTAssertEqual(rule.request(false, confirmed: false, busy: true, at: clock.now()), .askAgain(until: 3_000 * ms))
        clock.advance(byNanoseconds: 3_001 * ms)
        XCTAssertNil(rule.notice(at: clock.now()), "the notice goes when its 3 s are up")
        XCTAssertEqual(rule.request(false, confirmed: false, busy: true, at: clock.now()), .askAgain(until: 6_001 * ms))
        clock.advance(byNanoseconds: 1 * ms)
        XCTAssertEqual(rule.request(false, confirmed: false, busy: true, at: clock.now()), .carryOut)
    }

    func testConfirmLeavesInOneGo() {
        var rule = fullscreen()
        XCTAssertEqual(rule.request(false, confirmed: true, busy: true, at: 0), .carryOut)
        XCTAssertNil(rule.notice(at: 0))
    }

    func testACountdownCountsAsATake() {
        // The director passes `busy` for a countdown as for a take; Esc during a countdown never gets
        // here (it cancels the countdown), but F11 and the button do.
        var rule = fullscreen()
        XCTAssertEqual(rule.request(nil, confirmed: false, busy: true, at: 0), .askAgain(until: 3_000 * ms))
    }

    func testEnteringFullscreenIsNeverHeld() {
        var rule = FullscreenLeave()
        XCTAssertEqual(rule.request(nil, confirmed: false, busy: true, at: 0), .carryOut, "F11 while windowed enters")
        XCTAssertEqual(rule.request(true, confirmed: false, busy: true, at: 0), .carryOut)
        rule.fullscreen = true
        XCTAssertEqual(rule.request(true, confirmed: false, busy: true, at: 0), .carryOut)
        XCTAssertNil(rule.notice(at: 0))
    }

    func testLeavingByOtherMeansDropsTheWaitingRequest() {
        var rule = fullscreen()
        XCTAssertEqual(rule.request(false, confirmed: false, busy: true, at: 0), .askAgain(until: 3_000 * ms))
        rule.fullscreen = false
        XCTAssertNil(rule.notice(at: 1 * ms))
        rule.fullscreen = true
        XCTAssertEqual(rule.request(false, confirmed: false, busy: true, at: 2 * ms), .askAgain(until: 3_002 * ms),
                       "a press before the window left does not count as the first of a new pair")
    }

    func testAFirstPressBeforeTheTakeStartsDoesNotCount() {
        // Outside a take the first press leaves at once, so no pending press carries into the take.
        var rule = fullscreen()
        XCTAssertEqual(rule.request(false, confirmed: false, busy: false, at: 0), .carryOut)
        rule.fullscreen = true
        XCTAssertEqual(rule.request(false, confirmed: false, busy: true, at: 1_000 * ms), .askAgain(until: 4_000 * ms))
    }

    /// `confirm` on the control socket: strictly a boolean, and alone it means "leave now".
    func testTheFullscreenCommandTakesConfirmStrictly() throws {
        let good: [(String, ControlCommand)] = [
            (#"{"cmd":"fullscreen","confirm":true}"#, .fullscreen(on: false, confirm: true)),
            (#"{"cmd":"fullscreen","on":false,"confirm":true}"#, .fullscreen(on: false, confirm: true)),
            (#"{"cmd":"fullscreen","on":false,"confirm":false}"#, .fullscreen(on: false, confirm: false)),
            (#"{"cmd":"fullscreen","on":false}"#, .fullscreen(on: false, confirm: false)),
        ]
        for (line, expected) in good { XCTAssertEqual(try ControlCommand.parse(line), expected, line) }
        for line in [#"{"cmd":"fullscreen","confirm":1}"#, #"{"cmd":"fullscreen","confirm":"yes"}"#, #"{"cmd":"fullscreen","on":false,"confirm":null}"#] {
            XCTAssertThrowsError(try ControlCommand.parse(line), line) { error in
                let e = error as! DuoError
                XCTAssertEqual(e.kind, .usage)
                XCTAssertTrue(e.message.contains("\"confirm\" is true or false"), e.message)
                XCTAssertFalse(e.message.contains("\n"))
            }
        }
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"fullscreen","confirm":false}"#), "confirm false alone says nothing to do") { error in
            XCTAssertTrue((error as! DuoError).message.contains("true or false"))
        }
    }
}
