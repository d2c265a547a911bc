@testable import DuoCLI
import DuoCore
import DuoMedia
@testable import DuoRender
import Foundation
import XCTest

/// Issue 39: no note text ever reaches the subject view. Two runs of one session (the teleprompter with a
/// 2 s countdown, so the standby, countdown and recording views) with the fake capture and a manual
/// clock, one with notes and flags (between takes, during the countdown, in the take, after it) and one
/// without: the subject's frames drawn at the same moments are byte for byte the same, and so is the
/// subject view model each frame was drawn from; the notes themselves are in the take's sidecar, the
/// session notes file and the events.
///
/// Each frame is drawn once the presenter has settled (`settle()`): the overlay builds a new scene off the
/// drawing thread and draws the previous one until it is ready (by design: the streaming thread never
/// waits), so without it a frame drawn microseconds after a command (the manual clock) may show either
/// scene. That is why two plain runs once drew different frames (3 of 6 tries); settled, 0 of 24 did.
final class NotesPrivacyTests: XCTestCase {
    static let sentinel = "QZXW-private-note-7781"

    private struct Seen {
        var frames: [[UInt8]] = []
        var models: [SubjectViewModel?] = []
    }

    private func run(withNotes: Bool, in directory: String) async throws -> Seen {
        let clock = ManualClock(1_000_000_000)
        let script = TestPlans.root.appendingPathComponent("Assets/scripts/talk.md").path
        let plan = try TestPlans.simulated("320x240@30")
        var settings = RunDirector.Settings()
        settings.recordDirectory = directory
        settings.countdown = try Countdown(seconds: 2)
        settings.parts.script.path = script
        var subject = SubjectSetup()
        subject.accessory = .teleprompter
        subject.scriptPath = script
        subject.countdown = settings.countdown
        let presenter = try SubjectPresenter(subject, width: 320, height: 240, format: .i420)
        let d = RunDirector(settings: settings, plan: plan, capture: FakeCapture(plan: plan, clock: clock), presenter: presenter,
                            face: HeadlessFace(), clock: clock, events: try EventLog(path: directory + "/events.jsonl"),
                            watchDevices: { _ in nil }, log: { _ in })
        func send(_ line: String) async throws { await d.process(.command(try ControlCommand.parse(line), source: .control)) }
        func note(_ line: String) async throws { if withNotes { try await send(line) } }
        var seen = Seen()
        func frame() async {
            await presenter.settle()
            var y = [UInt8](repeating: 0, count: 320 * 240), u = [UInt8](repeating: 0, count: 160 * 120), v = u
            y.withUnsafeMutableBufferPointer { yp in u.withUnsafeMutableBufferPointer { up in v.withUnsafeMutableBufferPointer { vp in
                presenter.drawer.draw(into: I420Planes(y: yp.baseAddress!, yStride: 320, u: up.baseAddress!, uStride: 160, v: vp.baseAddress!,
                                                       vStride: 160, width: 320, height: 240), at: clock.now())
            } } }
            seen.frames.append(y + u + v)
            seen.models.append((presenter.drawer as? SubjectFrameDrawer)?.overlay.currentScene?.viewModel)
        }
        func step(_ nanoseconds: Int64) async {
            clock.advance(byNanoseconds: nanoseconds)
            await d.process(.tick)
            await frame()
        }
        await d.process(.started)
        try await note(#"{"cmd":"note","code":"PII","text":"between takes \#(Self.sentinel)"}"#)
        await frame()
        try await send(#"{"cmd":"record"}"#)
        await frame()
        try await note(#"{"cmd":"note","code":"Q","text":"counting down \#(Self.sentinel)"}"#)
        await step(700_000_000)
        await step(700_000_000)
        for i in 0..<7 {
            await step(700_000_000)
            if i == 1 { try await note(#"{"cmd":"note","code":"BUG","text":"\#(Self.sentinel) in the take"}"#) }
            if i == 3 { try await note(#"{"cmd":"flag"}"#) }
        }
        try await send(#"{"cmd":"stop"}"#)
        await step(500_000_000)
        try await note(#"{"cmd":"note","code":"GOOD","text":"after it \#(Self.sentinel)"}"#)
        await step(500_000_000)
        return seen
    }

    func testNotesAndFlagsNeverChangeTheSubjectsFramesOrModel() async throws {
        let base = try scratchDirectory(self)
        for folder in ["plain", "notes"] { try FileManager.default.createDirectory(atPath: "\(base)/\(folder)", withIntermediateDirectories: true) }
        let plain = try await run(withNotes: false, in: base + "/plain")
        let noted = try await run(withNotes: true, in: base + "/notes")
        XCTAssertEqual(plain.frames.count, noted.frames.count)
        for (i, (a, b)) in zip(plain.models, noted.models).enumerated() { XCTAssertEqual(a, b, "the subject view model at frame \(i) differs with notes") }
        for (i, (a, b)) in zip(plain.frames, noted.frames).enumerated() {
            XCTAssertTrue(a == b, "subject frame \(i) differs with notes in \(zip(a, b).filter { $0 != $1 }.count) bytes")
        }
        // Not vacuous: the views differ over the run (standby, countdown, recording), every model is there.
        // (Alike: the countdown's "2" 0.7 s apart, and the standby after the take 0.5 s apart.)
        XCTAssertGreaterThanOrEqual(Set(plain.frames).count, plain.frames.count - 2, "the steps show other frames")
        XCTAssertTrue(plain.models.allSatisfy { $0 != nil })
        XCTAssertTrue(plain.models.contains { $0?.countdownStartedAt != nil } && plain.models.contains { $0?.recordingStartedAt != nil })

        // The notes were taken: in the take's sidecar, the session's notes file and the events; none in the plain run.
        let files = try FileManager.default.contentsOfDirectory(atPath: base + "/notes")
        let sidecar = try files.filter { $0.hasSuffix(".json") }.map { try String(contentsOfFile: base + "/notes/" + $0, encoding: .utf8) }.joined()
        XCTAssertTrue(sidecar.contains(Self.sentinel + " in the take"), "the note is in the take's sidecar: \(files)")
        XCTAssertTrue(sidecar.contains(#""FLAG""#), "the flag is in the take's sidecar")
        let session = try String(contentsOfFile: base + "/notes/" + TakeNote.sessionFile, encoding: .utf8)
        XCTAssertEqual(session.split(separator: "\n").filter { $0.contains(Self.sentinel) }.count, 3, session)
        let events = try String(contentsOfFile: base + "/notes/events.jsonl", encoding: .utf8)
        XCTAssertEqual(events.split(separator: "\n").filter { $0.contains(#""event":"note""#) }.count, 5, events)
        XCTAssertFalse(try String(contentsOfFile: base + "/plain/events.jsonl", encoding: .utf8).contains(Self.sentinel))
    }
}
