@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// Issue 39: no note text ever reaches the subject view. Two runs of the same session with the fake
/// capture and a manual clock, one with notes and flags (in a take and between takes) and one without:
/// the subject's frames, drawn at the same moments, are byte for byte the same; the notes themselves are
/// in the take's sidecar and the events.
final class NotesPrivacyTests: XCTestCase {
    static let sentinel = "QZXW-private-note-7781"

    private func run(withNotes: Bool, in directory: String) async throws -> [[UInt8]] {
        let clock = ManualClock(1_000_000_000)
        let script = TestPlans.root.appendingPathComponent("Assets/scripts/talk.md").path
        let plan = try TestPlans.simulated("320x240@30")
        var settings = RunDirector.Settings()
        settings.recordDirectory = directory
        settings.countdown = try Countdown(seconds: 0)
        settings.parts.script.path = script
        var subject = SubjectSetup()
        subject.accessory = .teleprompter
        subject.scriptPath = script
        let presenter = try SubjectPresenter(subject, width: 320, height: 240, format: .i420)
        let capture = FakeCapture(plan: plan, clock: clock)
        let d = RunDirector(settings: settings, plan: plan, capture: capture, presenter: presenter, face: HeadlessFace(),
                            clock: clock, events: try EventLog(path: directory + "/events.jsonl"), watchDevices: { _ in nil }, log: { _ in })
        func send(_ line: String) async throws { await d.process(.command(try ControlCommand.parse(line), source: .control)) }
        var frames: [[UInt8]] = []
        func frame() {
            var y = [UInt8](repeating: 0, count: 320 * 240), u = [UInt8](repeating: 0, count: 160 * 120), v = u
            y.withUnsafeMutableBufferPointer { yp in u.withUnsafeMutableBufferPointer { up in v.withUnsafeMutableBufferPointer { vp in
                presenter.drawer.draw(into: I420Planes(y: yp.baseAddress!, yStride: 320, u: up.baseAddress!, uStride: 160, v: vp.baseAddress!,
                                                       vStride: 160, width: 320, height: 240), at: clock.now())
            } } }
            frames.append(y + u + v)
        }
        await d.process(.started)
        if withNotes { try await send(#"{"cmd":"note","code":"PII","text":"between takes \#(Self.sentinel)"}"#) }
        frame()
        try await send(#"{"cmd":"record"}"#)
        for step in 0..<6 {
            clock.advance(byNanoseconds: 700_000_000)
            if withNotes, step == 1 { try await send(#"{"cmd":"note","code":"BUG","text":"\#(Self.sentinel) in the take"}"#) }
            if withNotes, step == 3 { try await send(#"{"cmd":"flag"}"#) }
            frame()
        }
        try await send(#"{"cmd":"stop"}"#)
        clock.advance(byNanoseconds: 500_000_000)
        frame()
        return frames
    }

    func testNotesAndFlagsNeverChangeTheSubjectsFrames() async throws {
        let base = try scratchDirectory(self)
        try FileManager.default.createDirectory(atPath: base + "/plain", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/notes", withIntermediateDirectories: true)
        let plain = try await run(withNotes: false, in: base + "/plain")
        let noted = try await run(withNotes: true, in: base + "/notes")
        XCTAssertEqual(plain.count, noted.count)
        for (i, (a, b)) in zip(plain, noted).enumerated() { XCTAssertTrue(a == b, "subject frame \(i) differs with notes") }
        XCTAssertNotEqual(plain.first, plain.last, "the frames change over the run (the comparison is not vacuous)")
        // The notes were taken: in the take's sidecar and the events, never in the plain run's.
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: base + "/notes").filter { $0.hasSuffix(".json") }
        let sidecar = try sidecars.map { try String(contentsOfFile: base + "/notes/" + $0, encoding: .utf8) }.joined()
        XCTAssertTrue(sidecar.contains(Self.sentinel + " in the take"), "the note is in the take's sidecar: \(sidecars)")
        let events = try String(contentsOfFile: base + "/notes/events.jsonl", encoding: .utf8)
        XCTAssertTrue(events.contains(Self.sentinel), "note events")
        XCTAssertFalse(try String(contentsOfFile: base + "/plain/events.jsonl", encoding: .utf8).contains(Self.sentinel))
    }
}
