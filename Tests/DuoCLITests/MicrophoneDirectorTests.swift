@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// The fake capture's microphone leg: how often it was attached and taken out, and the buffers the
/// attached leg delivered (set by the test).
///
/// Thread: any; a lock guards it.
final class FakeMicrophoneLegs: @unchecked Sendable {
    private let lock = Lock()
    private var state = (attached: 0, detached: 0, buffers: Int64(0), isAttached: false)
    var attached: Int { lock.withLock { state.attached } }
    var detached: Int { lock.withLock { state.detached } }
    func attach() { lock.withLock { state.attached += 1; state.buffers = 0; state.isAttached = true } }
    func detach() { lock.withLock { state.detached += 1; state.isAttached = false } }
    func deliver(_ n: Int64) { lock.withLock { state.buffers += n } }
    var buffers: Int64? { lock.withLock { state.isAttached ? state.buffers : nil } }
    static let shared = FakeMicrophoneLegs()
}

extension FakeCapture: MicrophonePort {
    func attachMicrophone() async throws(DuoError) { FakeMicrophoneLegs.shared.attach() }
    func detachMicrophone() async { FakeMicrophoneLegs.shared.detach() }
    var microphoneBuffers: Int64? { FakeMicrophoneLegs.shared.buffers }
}

/// The device monitor's word on the microphone, as the test says it.
///
/// Thread: any; a lock guards it.
final class ScriptedMicrophone: MicrophoneWatchPort, @unchecked Sendable {
    private let lock = Lock()
    private var next: Bool?
    func say(_ listed: Bool) { lock.withLock { next = listed } }
    func change(woken: Bool) -> Bool? { lock.withLock { defer { next = nil }; return next } }
}

/// The director carrying out MicrophoneHealth's decisions with a fake capture and a manual clock: the
/// events, the leg taken out and attached again, the HUD's line and the take's sidecar.
final class MicrophoneDirectorTests: XCTestCase {
    func testAnUnpluggedMicrophoneIsTakenOutAndBackAndTheTakeListsTheGap() async throws {
        let dir = try scratchDirectory(self)
        let clock = ManualClock(1_000_000_000)
        let plan = try TestPlans.simulated("320x240@30", audio: .microphone(node: "usb-mic", label: "USB Mic"))
        var settings = RunDirector.Settings()
        settings.recordDirectory = dir
        settings.countdown = try Countdown(seconds: 0)
        var subject = SubjectSetup()
        subject.accessory = .countdown
        let capture = FakeCapture(plan: plan, clock: clock)
        let watch = ScriptedMicrophone()
        let d = RunDirector(settings: settings, plan: plan, capture: capture, presenter: try SubjectPresenter(subject, width: 320, height: 240),
                            face: HeadlessFace(), clock: clock, events: try EventLog(path: "\(dir)/events.jsonl"),
                            watchMicrophone: { node, _ in node == "usb-mic" ? watch : nil }, log: { _ in })
        let legs = FakeMicrophoneLegs.shared
        legs.attach()   // the session attaches the first leg as the graph starts
        await d.process(.started)
        await d.process(.command(.record, source: .control))
        legs.deliver(10)
        clock.advance(bySeconds: 0.2); await d.process(.tick)
        clock.advance(bySeconds: 0.3); await d.process(.tick)

        watch.say(false)
        await d.process(.devicesChanged)
        XCTAssertEqual(legs.detached, 1, "the leg is taken out at once")
        let lostNote = await d.soundNote(at: clock.now() + 1_000_000_000)
        XCTAssertEqual(lostNote, "no sound: microphone lost 1 s ago (the take records silence)")
        for _ in 0..<20 { clock.advance(bySeconds: 0.2); await d.process(.tick) }
        XCTAssertEqual(legs.attached, 1, "gone: never tried again by itself")

        watch.say(true)
        await d.process(.devicesChanged)
        XCTAssertEqual(legs.attached, 2, "listed again: a new leg at once")
        clock.advance(bySeconds: 0.2); await d.process(.tick)
        legs.deliver(5)
        clock.advance(bySeconds: 0.2); await d.process(.tick)
        let afterNote = await d.soundNote(at: clock.now())
        XCTAssertEqual(afterNote, "take: sound missing 4.4 s (microphone lost 1 time)")
        await d.process(.command(.stop, source: .control))

        let lines = try String(contentsOfFile: "\(dir)/events.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let story = lines.compactMap { $0["event"] as? String }.filter { $0.hasPrefix("microphone-") }
        XCTAssertEqual(story, ["microphone-lost", "microphone-restored"])
        let lost = try XCTUnwrap(lines.first { $0["event"] as? String == "microphone-lost" })
        XCTAssertEqual(lost["reason"] as? String, "unplugged (the device is gone)")
        XCTAssertEqual(lost["id"] as? String, "usb-mic")
        XCTAssertEqual(lines.first { $0["event"] as? String == "microphone-restored" }?["missingSeconds"] as? Double, 4.4)
        let take = try XCTUnwrap(lines.first { $0["event"] as? String == "take-ended" }?["file"] as? String)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take))
        let gap = try XCTUnwrap(sidecar.audio?.gaps?.first)
        XCTAssertEqual(sidecar.audio?.gaps?.count, 1)
        XCTAssertEqual(gap.fromSeconds, 0.5, accuracy: 0.001)
        XCTAssertEqual(gap.toSeconds, 4.9, accuracy: 0.001)
        XCTAssertEqual(sidecar.interruptions?.map { "\($0.what) \($0.device)" }, ["lost microphone", "restored microphone"])
    }
}
