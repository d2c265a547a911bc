import Foundation
import XCTest
import DuoCore
@testable import DuoRender

/// Why two runs of one session once drew different subject frames at the same pipeline times (issue 39's
/// first privacy test): the live overlay builds each new scene on its own queue and, by design, draws the
/// previous one until it is ready (the streaming thread never waits). Once the overlay is idle, a frame is
/// a function of the view model and the time only: the same bytes as a scene built and prepared on the
/// calling thread (another thread's Pango font map), whatever scene came before it.
final class OverlaySettleTests: XCTestCase {
    private func frame(_ draw: (I420Planes) -> Void) -> [UInt8] {
        let image = I420Image(width: 320, height: 240)
        draw(image.planes)
        return image.bytes()
    }

    func testASettledOverlayDrawsWhatItsModelAndTimeSayWhicheverThreadBuiltIt() throws {
        let talk = try ScriptParser.parse(bytes: Array(try String(contentsOfFile: Checkout.path("Assets/scripts/talk.md"), encoding: .utf8).utf8),
                                          format: .forPath("talk.md"), name: "talk.md")
        var scroll = ScrollModel(length: Double(talk.subject.wordCount), cues: talk.subject.pauseCueWordPositions, speed: .wordsPerMinute(160))
        scroll.start(at: 3_000_000_000)
        let standby = SubjectViewModel.whitelisted(from: PrompterSessionState(script: talk, scroll: scroll, countdown: try Countdown(seconds: 3)))
        let recording = SubjectViewModel.whitelisted(from: PrompterSessionState(
            script: talk, scroll: scroll, countdown: try Countdown(seconds: 3), countdownStartedAt: 0, recordingStartedAt: 3_000_000_000))
        let overlay = SubjectOverlay(width: 320, height: 240)
        overlay.update(standby)
        overlay.waitUntilIdle()
        let time: Int64 = 5_500_000_000
        overlay.update(recording, preparingAt: time)
        // Right after the update the overlay may still draw the standby scene (no REC light): by design.
        overlay.waitUntilIdle()
        let live = frame { overlay.draw(into: $0, at: time) }
        let here = SubjectScene(viewModel: recording, width: 320, height: 240, format: .i420)
        here.prepare(at: time)
        XCTAssertTrue(live == frame { here.draw(into: $0, at: time) }, "the settled overlay draws the model at the time")
        let before = SubjectScene(viewModel: standby, width: 320, height: 240, format: .i420)
        before.prepare(at: time)
        XCTAssertFalse(live == frame { before.draw(into: $0, at: time) }, "not vacuous: the standby scene draws otherwise")
    }
}
