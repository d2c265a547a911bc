@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// Notes and flags in the run director (issue 39), in process with the fake capture and a manual clock:
/// a note during a take is in its sidecar at once (a killed run keeps it) with the take's time and shot,
/// the take's chapters reach the capture port, a note between takes is the session's (its file), and an
/// unknown code or a long text is a one-line error that records nothing.
final class NotesDirectorTests: XCTestCase {
    private var directory = ""
    private var eventsPath = ""
    let clock = ManualClock(1_000_000_000)

    override func setUpWithError() throws {
        directory = try scratchDirectory(self)
        eventsPath = directory + "/events.jsonl"
        try "## 07 — Checkout\nPay with the saved card.\n".write(toFile: directory + "/shots.md", atomically: true, encoding: .utf8)
    }

    private func director(codes: NoteCodeBook = .standard) throws -> (RunDirector, FakeCapture) {
        let plan = try TestPlans.simulated("320x240@25")
        var settings = RunDirector.Settings()
        settings.recordDirectory = directory
        settings.countdown = try Countdown(seconds: 0)
        settings.parts.shots = .init(list: try ShotList.load(path: directory + "/shots.md"), path: directory + "/shots.md")
        settings.parts.notes.codes = codes
        var subject = SubjectSetup()
        subject.accessory = .countdown
        let presenter = try SubjectPresenter(subject, width: 320, height: 240, format: .i420)
        let capture = FakeCapture(plan: plan, clock: clock)
        let d = RunDirector(settings: settings, plan: plan, capture: capture, presenter: presenter, face: HeadlessFace(),
                            clock: clock, events: try EventLog(path: eventsPath), watchDevices: { _ in nil }, log: { _ in })
        return (d, capture)
    }

    private func events(_ name: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: eventsPath, encoding: .utf8)
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == name }
    }

    private func send(_ line: String, _ d: RunDirector) async throws {
        await d.process(.command(try ControlCommand.parse(line), source: .control))
    }

    func testNotesGoToTheTakeOrTheSessionWithTheirTimeShotAndChapters() async throws {
        let (d, capture) = try director(codes: try NoteCodeBook.parse("BUG,Q,UX"))
        await d.process(.started)
        try await send(#"{"cmd":"note","code":"q","text":"asked what 'saved card' means"}"#, d)   // between takes
        try await send(#"{"cmd":"record"}"#, d)
        let begun = await capture.begun
        let take = try XCTUnwrap(begun.first)
        clock.advance(byNanoseconds: 2_480_000_000)
        try await send(#"{"cmd":"note","code":"BUG","text":"pay button hidden, \"Pay\" off screen"}"#, d)
        clock.advance(byNanoseconds: 1_000_000_000)
        try await send(#"{"cmd":"flag"}"#, d)
        // Written as they are made: the sidecar of the take still recording holds both (a kill keeps them).
        let during = try TakeSidecar.read(TakeSidecar.path(forTake: take.path))
        XCTAssertFalse(during.complete)
        XCTAssertEqual(during.notes?.map(\.code), ["BUG", "FLAG"])
        XCTAssertEqual(during.notes?.map(\.atSeconds), [2.48, 3.48])
        XCTAssertEqual(during.notes?.first?.shot, "07")
        // The chapters the file gets: the take's start with its shot, then each note and flag.
        let chapters = await capture.chapterLists
        XCTAssertEqual(chapters.last, [TakeChapter(atSeconds: 0, title: "Take 1 · shot 07"),
                                                         TakeChapter(atSeconds: 2.48, title: "BUG: pay button hidden, \"Pay\" off screen"),
                                                         TakeChapter(atSeconds: 3.48, title: "FLAG")])
        // Refused, each in one line, nothing kept: an unknown code, a note over 500 characters.
        try await send(#"{"cmd":"note","code":"PII","text":"x"}"#, d)
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"note","text":""# + String(repeating: "a", count: 501) + #""}"#)) {
            XCTAssertTrue(($0 as? DuoError)?.message.contains("keep a note to 500") == true, "\($0)")
        }
        try await send(#"{"cmd":"stop"}"#, d)
        let after = try TakeSidecar.read(TakeSidecar.path(forTake: take.path))
        XCTAssertTrue(after.complete)
        XCTAssertEqual(after.notes?.map(\.text), ["pay button hidden, \"Pay\" off screen", ""])
        let errors = try events("error").compactMap { $0["message"] as? String }
        XCTAssertTrue(errors.contains { $0.contains("unknown code \"PII\"") && $0.contains("BUG, Q, UX") }, "\(errors)")
        // The session's note: in the session file, with no take or time, and its shot.
        let session = TakeNote.readSession(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + TakeNote.sessionFile)))
        XCTAssertEqual(session.notes.map(\.code), ["Q"])
        XCTAssertNil(session.notes.first?.take)
        XCTAssertNil(session.notes.first?.atSeconds)
        XCTAssertEqual(session.notes.first?.shot, "07")
        // The events: three notes, in order, with take and time where they belong.
        let notes = try events("note")
        XCTAssertEqual(notes.map { $0["code"] as? String }, ["Q", "BUG", "FLAG"])
        XCTAssertTrue(notes[0]["take"] is NSNull)
        XCTAssertEqual(notes[1]["take"] as? Int, 1)
        XCTAssertEqual(notes[2]["at"] as? Double, 3.48)
        XCTAssertEqual(notes[2]["kind"] as? String, "flag")
    }
}
