@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// The script's part: the teleprompter's commands refused without a script, and a saved script looked
/// at twice a second, reloaded once per save.
final class ScriptPartTests: XCTestCase {
    func testTeleprompterCommandsWithoutAScriptAreRefusedSayingHowToOpenOne() async throws {
        let run = try PartRun(self)
        await run.director.process(.started)
        await run.send(.speedStep(1))
        await run.send(.jump(.next))
        let errors = try run.events("error").compactMap { $0["message"] as? String }
        XCTAssertEqual(errors.count, 2)
        XCTAssertTrue(errors.allSatisfy { $0.hasPrefix("control: no teleprompter script in this run; open one with O") }, "\(errors)")
        XCTAssertTrue(try run.events("status").allSatisfy { $0["trigger"] as? String != "command" }, "nothing scrolled")
    }

    /// Saved at 1.05 s: not looked at before 1.5 s (the last look was at the start), then read off the
    /// director and put on screen; the file unchanged afterwards is never read again.
    func testASavedScriptIsSeenAtTheNextHalfSecondAndReloadedOnce() async throws {
        let script = try scriptFile(self)
        let run = try PartRun(self, configure: { $0.parts.script.path = script },
                              subject: { $0.accessory = .teleprompter; $0.scriptPath = script })
        let d = run.director
        await d.process(.started)   // looks at 1.0 s
        try "# Talk\n\nA second version, saved while the run goes on, with more words in it.\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        await run.advance(0.2)
        var loading = await d.scriptLoad
        XCTAssertNil(loading, "looked at no more than twice a second")
        await run.advance(0.3)
        loading = await d.scriptLoad
        XCTAssertEqual(loading?.path, script)
        XCTAssertEqual(loading?.opening, false, "a reload, keeping the reading position")
        try await run.carryInputs { await d.scriptLoad == nil }
        XCTAssertTrue(try run.events("status").contains { $0["trigger"] as? String == "script" })
        await run.advance(0.5)
        await run.advance(0.5)
        loading = await d.scriptLoad
        XCTAssertNil(loading, "no save since: not read again")
        XCTAssertEqual(try run.events("status").filter { $0["trigger"] as? String == "script" }.count, 1)
    }
}

/// The voice part: a recogniser that failed before the graph played keeps voice-follow off (time follows)
/// even with `--follow voice`, and says so.
final class VoicePartTests: XCTestCase {
    private func run(recogniserFails: Bool) async throws -> PartRun {
        let script = try scriptFile(self)
        let run = try PartRun(self, configure: { $0.parts.script.path = script; $0.parts.voice.follow = true },
                              adapt: { $0.voice = VoiceModelFiles(acousticModel: "/am", languageModel: "/lm", dictionary: "/dic") },
                              subject: { $0.accessory = .teleprompter; $0.scriptPath = script })
        if recogniserFails { await run.director.process(.session(.recogniserFailed("cannot load /lm"))) }
        await run.director.process(.started)
        return run
    }

    func testARecogniserThatFailedBeforeTheStartLeavesTheTeleprompterOnTime() async throws {
        let following = try await run(recogniserFails: false)
        XCTAssertEqual(try following.events("follow").first?["mode"] as? String, "voice", "--follow voice, a recogniser: voice")
        let failed = try await run(recogniserFails: true)
        XCTAssertEqual(try failed.events("follow").map { $0["mode"] as? String }, ["time"])
        XCTAssertTrue((try failed.events("error").first?["message"] as? String ?? "").hasPrefix("voice-follow stopped (cannot load /lm)"))
    }
}
