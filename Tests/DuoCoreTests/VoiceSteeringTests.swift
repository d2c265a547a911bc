import DuoCore
import XCTest

final class VoiceSteeringTests: XCTestCase {
    private let s: Int64 = 1_000_000_000

    /// The scroll glides to where the voice will be: after one lookahead it is there, without a jump.
    func testTheScrollGlidesToTheVoice() {
        var scroll = ScrollModel(length: 100, speed: .wordsPerMinute(150))
        VoiceSteering.steer(&scroll, wantedNow: 2, wantedSoon: 3, at: 0)
        XCTAssertFalse(scroll.isPaused)
        XCTAssertEqual(scroll.position(at: 0), 0, "no jump for a small distance")
        XCTAssertEqual(scroll.position(at: VoiceSteering.lookahead), 3, accuracy: 1e-9)
    }

    /// A skipped paragraph: far behind the voice, the scroll jumps to it.
    func testFarBehindTheVoiceTheScrollJumps() {
        var scroll = ScrollModel(length: 100, speed: .wordsPerMinute(150))
        VoiceSteering.steer(&scroll, wantedNow: 40, wantedSoon: 41, at: s)
        XCTAssertEqual(scroll.position(at: s), 40, accuracy: 1e-9)
        XCTAssertEqual(scroll.position(at: s + VoiceSteering.lookahead), 41, accuracy: 1e-9)
    }

    /// The voice holds (silence) or the scroll is ahead of it: the scroll stands still, never going back.
    func testTheScrollNeverRunsBackToMeetTheVoice() {
        var scroll = ScrollModel(length: 100, speed: .wordsPerMinute(150))
        scroll.jump(to: 10, at: 0)
        scroll.start(at: 0)
        VoiceSteering.steer(&scroll, wantedNow: 7, wantedSoon: 7, at: s)
        XCTAssertTrue(scroll.isPaused)
        let held = scroll.position(at: s)
        XCTAssertEqual(scroll.position(at: 5 * s), held, "stands still")
        XCTAssertGreaterThanOrEqual(held, 10)
    }

    /// A [PAUSE] cue holds the scroll until the voice goes on past it; then it is released.
    func testTheVoicePassingACueReleasesIt() {
        var scroll = ScrollModel(length: 100, cues: [5], speed: .wordsPerMinute(150))
        VoiceSteering.steer(&scroll, wantedNow: 4, wantedSoon: 5, at: 0)
        XCTAssertEqual(scroll.position(at: 2 * s), 5, accuracy: 1e-9)
        XCTAssertTrue(scroll.isHeldAtCue(at: 2 * s))
        VoiceSteering.steer(&scroll, wantedNow: 6, wantedSoon: 7, at: 2 * s)
        XCTAssertFalse(scroll.isHeldAtCue(at: 2 * s + VoiceSteering.lookahead))
        XCTAssertGreaterThan(scroll.position(at: 2 * s + VoiceSteering.lookahead), 6.5)
    }

    func testCatchingUpIsBounded() {
        var scroll = ScrollModel(length: 100, speed: .wordsPerMinute(150))
        VoiceSteering.steer(&scroll, wantedNow: 7, wantedSoon: 7.9, at: 0)
        XCTAssertLessThanOrEqual(scroll.speed.unitsPerSecond, VoiceSteering.fastest + 1e-9)
    }
}
