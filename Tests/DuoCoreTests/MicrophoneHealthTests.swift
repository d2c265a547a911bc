import DuoCore
import XCTest

/// The named microphone's health, with time as a parameter (ms): lost by silence, by an error or by the
/// device going; taken back when it is listed again or a retry delivers; the gaps a take's sidecar lists.
final class MicrophoneHealthTests: XCTestCase {
    private let ms: Int64 = 1_000_000

    private func started() -> MicrophoneHealth {
        var h = MicrophoneHealth(lossTimeout: 600 * ms, retryInterval: 2_000 * ms)
        h.attached(at: 0)
        return h
    }

    func testSilenceAfterSoundIsALossFromTheLastSound() {
        var h = started()
        XCTAssertNil(h.observe(buffers: 0, at: 500 * ms), "nothing yet: still starting")
        XCTAssertNil(h.observe(buffers: 40, at: 1_000 * ms))
        XCTAssertNil(h.observe(buffers: 40, at: 1_600 * ms), "0.6 s is not over the timeout")
        XCTAssertEqual(h.observe(buffers: 40, at: 1_800 * ms), .lost(reason: Said(verbatim: "delivered no sound for 0.8 s")))
        XCTAssertTrue(h.isLost)
        XCTAssertEqual(h.gaps, [.init(from: 1_000 * ms, to: nil)], "the sound went when it last came")
        XCTAssertNil(h.observe(buffers: 40, at: 1_900 * ms), "reported once")
        XCTAssertEqual(h.missing(at: 2_000 * ms), 1_000 * ms)
    }

    func testUnpluggedThenListedAgainIsTakenBackAtOnceAndRestoredByItsSound() {
        var h = started()
        _ = h.observe(buffers: 10, at: 200 * ms)
        XCTAssertEqual(h.deviceRemoved(at: 3_000 * ms), .lost(reason: Said(verbatim: "unplugged (the device is gone)")))
        h.detached()
        XCTAssertNil(h.deviceRemoved(at: 3_100 * ms))
        XCTAssertNil(h.observe(buffers: 0, at: 9_000 * ms), "gone: not tried again, however long")
        XCTAssertEqual(h.deviceAdded(at: 10_000 * ms), .reattach)
        h.attached(at: 10_000 * ms)
        XCTAssertNil(h.observe(buffers: 0, at: 10_200 * ms), "attached, no sound yet: still lost")
        XCTAssertTrue(h.isLost)
        XCTAssertEqual(h.observe(buffers: 3, at: 10_400 * ms), .restored)
        XCTAssertFalse(h.isLost)
        XCTAssertEqual(h.gaps, [.init(from: 3_000 * ms, to: 10_400 * ms)])
        XCTAssertNil(h.missing(at: 11_000 * ms))
        XCTAssertNil(h.deviceAdded(at: 11_000 * ms), "listed while present: nothing to do")
    }

    func testAFailedLegIsTriedAgainEveryIntervalWhileItIsListed() {
        var h = started()
        _ = h.observe(buffers: 10, at: 200 * ms)
        XCTAssertEqual(h.failed("microphone1_source: stream error", at: 1_000 * ms), .lost(reason: Said(verbatim: "microphone1_source: stream error")))
        XCTAssertNil(h.failed("again", at: 1_100 * ms), "lost once")
        h.detached()
        XCTAssertNil(h.observe(buffers: 0, at: 2_000 * ms), "too early to try again")
        XCTAssertEqual(h.observe(buffers: 0, at: 3_100 * ms), .reattach)
        h.attached(at: 3_100 * ms)
        XCTAssertNil(h.observe(buffers: 0, at: 4_000 * ms))
        XCTAssertEqual(h.observe(buffers: 0, at: 5_100 * ms), .reattach, "a new leg that stays silent is replaced")
        h.attached(at: 5_100 * ms)
        XCTAssertEqual(h.observe(buffers: 1, at: 5_300 * ms), .restored)
    }

    func testALegThatNeverDeliversIsReplacedWithoutBeingCalledLost() {
        var h = started()
        XCTAssertNil(h.observe(buffers: 0, at: 1_900 * ms))
        XCTAssertEqual(h.observe(buffers: 0, at: 2_000 * ms), .reattach)
        XCTAssertFalse(h.isLost)
        h.attached(at: 2_000 * ms)
        XCTAssertNil(h.observe(buffers: 5, at: 2_200 * ms), "its sound is no restoration: it was never lost")
        XCTAssertEqual(h.gaps, [])
    }

    func testEachTakeGetsTheGapsInsideItInSecondsFromItsStart() {
        var h = started()
        _ = h.observe(buffers: 10, at: 200 * ms)
        _ = h.deviceRemoved(at: 2_000 * ms)
        h.detached()
        _ = h.deviceAdded(at: 3_000 * ms)
        h.attached(at: 3_000 * ms)
        _ = h.observe(buffers: 1, at: 3_500 * ms)
        _ = h.deviceRemoved(at: 8_000 * ms)
        let take = h.gaps(from: 1_000 * ms, to: 9_000 * ms)
        XCTAssertEqual(take.map(\.from), [1.0, 7.0])
        XCTAssertEqual(take.map(\.to), [2.5, 8.0], "the open gap ends with the take")
        XCTAssertEqual(h.gaps(from: 4_000 * ms, to: 7_000 * ms).count, 0, "a take between the gaps has none")
        XCTAssertEqual(h.gaps(from: 2_500 * ms, to: 4_000 * ms).map(\.from), [0.0], "a take that starts in a gap starts with one")
    }

    func testAnErrorFromAMicrophoneLegIsTheMicrophonesByItsBin() {
        var r = FaultRouting()
        r.hasAudio = true
        XCTAssertEqual(r.owner(of: "microphone3_source"), .microphone)
        XCTAssertEqual(r.owner(of: "queue7", ancestors: ["microphone3"]), .microphone, "an unnamed element in the leg's bin")
        XCTAssertEqual(FaultRouting.microphoneLeg(of: "audioconvert9", ancestors: ["microphone12"]), 12)
        XCTAssertNil(FaultRouting.microphoneLeg(of: "audio_mixer"))
        XCTAssertEqual(GraphElement.microphoneQueue.forMicrophone(2), "microphone2_queue")
    }
}
