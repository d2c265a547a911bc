@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// Re-takes rewind (issue 37): a re-take, or a shot recorded again, starts the teleprompter where the
/// shot's first take started, or at the script heading the shot names (`heading:`); each take's sidecar
/// records the script range it covered. In process, with the fake capture and a manual clock.
final class RetakeRewindTests: XCTestCase {
    let clock = ManualClock(1_000_000_000)

    // 10 words a second (600 wpm). Words: "Welcome" 0; line 3: 1-18; line 5 (after a note line): 19-39;
    // "The team" 40-41 (line 7); line 9: 42-60; line 10: 61-79; "Closing" 80 (line 12); line 14: 81-99 (100 words).
    let script = """
        # Welcome

        Hello and welcome to this short film about the studio and the way we work every single day.
        [[note: PRIVATE smile here]]
        We begin with the team and the room, then the tools, and then what comes next for all of us here.

        ## The team

        Our team is small and every person here does many things at once, from the lights to the sound.
        They care about each take and every frame, and they never stop asking how it could be even better.

        ## Closing

        Thank you for watching, and see you in the next film we make together with you and your friends.
        """

    let shots = """
        ## 01 — The team
        Tell us about the team.

        ## 02 — Closing
        Say goodbye.
        heading: Closing
        """

    func testARetakeStartsWhereTheShotsFirstTakeDidAndAHeadingShotStartsAtItsHeading() async throws {
        let directory = try scratchDirectory(self)
        let scriptPath = directory + "/script.md", shotsPath = directory + "/shots.md"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        try shots.write(toFile: shotsPath, atomically: true, encoding: .utf8)
        let plan = try TestPlans.simulated("320x240@30")
        var settings = RunDirector.Settings()
        settings.recordDirectory = directory
        settings.countdown = try Countdown(seconds: 0)
        settings.parts.shots = .init(list: try ShotList.load(path: shotsPath), path: shotsPath)
        settings.parts.script.path = scriptPath
        var subject = SubjectSetup()
        subject.scriptPath = scriptPath
        subject.wordsPerMinute = 600
        let presenter = try SubjectPresenter(subject, width: 320, height: 240, format: .i420)
        let capture = FakeCapture(plan: plan, clock: clock)
        let d = RunDirector(settings: settings, plan: plan, capture: capture, presenter: presenter, face: HeadlessFace(),
                            clock: clock, events: try EventLog(path: directory + "/events.jsonl"), watchDevices: { _ in nil }, log: { _ in })
        func send(_ command: ControlCommand) async { await d.process(.command(command, source: .control)) }
        func take(seconds: Double) async {
            await send(.record)
            clock.advance(byNanoseconds: Int64(seconds * 1e9))
            await send(.stop)
        }
        await d.process(.started)
        // Shot 01 (no heading:) starts where the operator put the script: at "The team".
        await send(.jump(.next))
        await take(seconds: 2.3)
        // A re-take after the take ended, then one while a take records: each starts where take 1 did,
        // not where the one before stopped.
        await send(.retake)
        clock.advance(byNanoseconds: 1_700_000_000)
        await send(.retake)
        clock.advance(byNanoseconds: 900_000_000)
        await send(.stop)
        // Shot 02 names its heading: it starts there (not where take 3 stopped); its re-take too.
        await send(.shot(next: true, id: nil))
        let standby = await presenter.place(at: clock.now())
        XCTAssertEqual(standby?.position, 80, "the subject sees the shot's heading during standby")
        XCTAssertEqual(standby?.line, 12)
        await take(seconds: 1.2)
        await send(.retake)
        clock.advance(byNanoseconds: 500_000_000)
        await send(.stop)

        let ranges = try await capture.begun.map { try XCTUnwrap(TakeSidecar.read(TakeSidecar.path(forTake: $0.path)).scriptRange) }
        XCTAssertEqual(ranges.count, 5)
        XCTAssertEqual(ranges.map(\.startPosition), [40, 40, 40, 80, 80], "\(ranges)")
        XCTAssertEqual(ranges.map(\.startLine), [7, 7, 7, 12, 12])
        XCTAssertEqual(ranges.map(\.endPosition), [63, 57, 49, 92, 85])
        XCTAssertEqual(ranges.map(\.endLine), [10, 9, 9, 14, 14])
        XCTAssertEqual(ranges.map(\.startFraction), [0.4, 0.4, 0.4, 0.8, 0.8], "100 words")
        XCTAssertTrue(ranges.allSatisfy { $0.script == scriptPath && $0.unit == "words" })
        XCTAssertTrue(ranges.allSatisfy { ($0.endFraction ?? 0) > $0.startFraction })
    }
}
