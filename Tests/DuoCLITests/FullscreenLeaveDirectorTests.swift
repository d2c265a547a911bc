@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// The run director holds a stray Esc during a take (FullscreenLeave), with the fake capture and a
/// manual clock: the face is asked to leave fullscreen only by a second request within 3 s or a
/// confirmed one; the HUD carries the notice until its 3 s are up; outside takes Esc leaves at once.
final class FullscreenLeaveDirectorTests: XCTestCase {
    let clock = ManualClock(1_000_000_000)

    /// A face that records what fullscreen it was asked for, and the HUD's last figures.
    final class FullscreenFace: RunFace, Sendable {
        private let state = Locked<(asked: [Bool?], run: HudModel.Run?)>(([], nil))
        var asked: [Bool?] { state.value.asked }
        var run: HudModel.Run? { state.value.run }
        var drawsSubjectView: Bool { false }
        func shownAtStart(enabled: Bool) -> Bool { enabled }
        var showsFigures: Bool { true }
        func setSubjectPicture(_ shown: Bool) {}
        func connect(_ report: @escaping @Sendable (RunInput) -> Void) {}
        func show(_ run: HudModel.Run) { state.update { $0.run = run } }
        func setAccessory(enabled: Bool) {}
        func setFullscreen(_ on: Bool?) -> String? { state.update { $0.asked.append(on) }; return nil }
        func setFramesFlowing(_ flowing: Bool) {}
        func setRemoteDisplays(asked: Int, connected: Int) {}
        func setRemoteAddress(_ url: String?) {}
        func setRemoteLink(_ on: Bool?) -> String? { nil }
        func keepScreenOn(_ on: Bool, reason: String) {}
        func subjectViewFailed(enabled: Bool) {}
        func say(_ message: String) {}
        func close() {}
    }

    private func director(face: FullscreenFace) throws -> (RunDirector, String) {
        let dir = try scratchDirectory(self)
        let plan = try TestPlans.simulated("640x360@30")
        var subject = SubjectSetup()
        subject.accessory = .countdown
        let presenter = try SubjectPresenter(subject, width: 320, height: 180)
        let events = "\(dir)/events.jsonl"
        var settings = RunDirector.Settings()
        settings.recordDirectory = dir
        let d = RunDirector(settings: settings, plan: plan, capture: FakeCapture(plan: plan, clock: clock), presenter: presenter, face: face,
                            clock: clock, events: try EventLog(path: events), watchDevices: { _ in nil }, log: { _ in })
        return (d, events)
    }

    private func errors(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "error" }.compactMap { $0["message"] as? String }
    }

    private let esc = RunInput.command(.fullscreen(on: false), source: .key)

    func testDuringATakeOneEscIsHeldAndTheSecondWithinThreeSecondsLeaves() async throws {
        let face = FullscreenFace()
        let (d, events) = try director(face: face)
        await d.process(.started)
        await d.process(.fullscreen(true))
        await d.process(.command(.record, source: .key))
        // The countdown counts: F11 (a toggle) is held as Esc is.
        await d.process(.command(.fullscreen(on: nil), source: .key))
        XCTAssertEqual(face.asked, [])
        XCTAssertEqual(face.run?.fullscreenNotice, FullscreenLeave.notice)
        XCTAssertTrue(try errors(events).last?.contains("confirm") ?? false)
        clock.advance(bySeconds: 3.2)
        await d.process(.tick)
        XCTAssertNil(face.run?.fullscreenNotice, "the notice goes after 3 s")

        await d.process(esc)
        XCTAssertEqual(face.asked, [], "a press after the 3 s starts a new pair")
        clock.advance(bySeconds: 2.9)
        await d.process(esc)
        XCTAssertEqual(face.asked, [false], "the second press within 3 s leaves")
        XCTAssertNil(face.run?.fullscreenNotice)
    }

    func testConfirmLeavesInOneGoAndOutsideATakeEscLeavesAtOnce() async throws {
        let face = FullscreenFace()
        let (d, _) = try director(face: face)
        await d.process(.started)
        await d.process(.fullscreen(true))
        await d.process(esc)
        XCTAssertEqual(face.asked, [false], "no take: at once")
        await d.process(.command(.fullscreen(on: true), source: .key))
        await d.process(.fullscreen(true))
        await d.process(.command(.record, source: .key))
        await d.process(.command(try ControlCommand.parse(#"{"cmd":"fullscreen","confirm":true}"#), source: .control))
        XCTAssertEqual(face.asked, [false, true, false], "confirmed: in one go during the countdown")
    }
}
