import DuoCore
import Foundation
import XCTest

/// Issue 37: the phone page knows the session. One headless Chromium run at a phone's size (390x844)
/// during a shot-list session with a 3 s countdown (Tests/DuoCLITests/Fixtures/remote-shots.py drives it).
final class RemoteShotsTests: XCTestCase {
    static let shots = """
        # Remote shots
        note-codes: BUG, Q, GOOD, PII, A11Y

        ## 07 — Harbour at dawn
        Say where you are and what you see.
        length: 20s

        ## 08 — The long road home
        Describe the journey in one sentence.
        """

    /// The page shows the current shot's id and title (and its place), the countdown's seconds in the
    /// elapsed box while counting down (never 0:00), keeps every box where it was between idle, countdown,
    /// REC and a marked take, its Good button marks the last take (the `mark` event and the take's
    /// sidecar say good), and Shot ⏭ shows the next shot's title.
    func testThePageKnowsTheShotAndMarksTheTake() throws {
        let list = try scratchDirectory(self) + "/shots.md"
        try Data(Self.shots.utf8).write(to: URL(fileURLWithPath: list))
        let remote = try RemoteRun(self, extra: ["--shots", list, "--countdown", "3"], script: RemoteControlTests.script)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/remote-shots.py").path
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [fixture, "http://127.0.0.1:\(remote.webPort)/?token=\(remote.token)", remote.socketPath]
        let out = Pipe(), err = Pipe()
        python.standardOutput = out
        python.standardError = err
        try python.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0, errors + remote.run.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [String: Any], errors)

        XCTAssertEqual(result["viewport"] as? [Int], [390, 390], "a phone's width, nothing wider: \(result)")
        XCTAssertEqual(result["shotTitle"] as? String, "07 · Harbour at dawn", "\(result)")
        XCTAssertEqual(result["shotPlace"] as? String, "shot 1 of 2 · 0 takes · next 08", "\(result)")
        // The countdown: its seconds, counting down, never the elapsed 0:00.
        XCTAssertEqual(result["countdownSeconds"] as? Int, 3, "\(result)")
        let shown = try XCTUnwrap(result["countdownShown"] as? [String], "\(result)")
        let numbers = shown.compactMap(Int.init)
        XCTAssertEqual(numbers.count, shown.count, "only numbers during the countdown: \(shown)")
        XCTAssertFalse(numbers.isEmpty, "\(result)")
        XCTAssertTrue(numbers.allSatisfy { (1...3).contains($0) }, "\(shown)")
        XCTAssertEqual(numbers, numbers.sorted(by: >), "counting down: \(shown)")
        XCTAssertGreaterThanOrEqual(numbers.first ?? 0, 2, "the first number seen is the countdown's start: \(shown)")
        // No box moves between the states.
        let layout = try XCTUnwrap(result["layout"] as? [String: [[Any]]], "\(result)")
        let idle = try XCTUnwrap(layout["idle"]).map { "\($0)" }
        for state in ["countdown", "recording", "marked", "cued"] {
            XCTAssertEqual(try XCTUnwrap(layout[state]).map { "\($0)" }, idle, "the boxes moved in \(state)")
        }
        XCTAssertEqual(result["elapsedShown"] as? String, "0:01", "\(result)")
        XCTAssertEqual(result["takeKept"] as? Bool, true, "\(result)")
        XCTAssertEqual(result["shotPlaceAfterTake"] as? String, "shot 1 of 2 · 1 take · next 08", "\(result)")
        // Good marks the take: the mark event and the sidecar.
        let mark = try XCTUnwrap(result["mark"] as? [String: Any], "\(result)")
        XCTAssertEqual(mark["mark"] as? String, "good", "\(result)")
        XCTAssertEqual(mark["shot"] as? String, "07", "\(result)")
        XCTAssertEqual(mark["shotTake"] as? Int, 1, "\(result)")
        XCTAssertEqual(result["lastTakeAfter"] as? String, "last take: shot 07 take 1 (1) · good", "\(result)")
        let file = try XCTUnwrap(result["takeFile"] as? String, "\(result)")
        XCTAssertEqual(mark["file"] as? String, file)
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TakeSidecar.path(forTake: file)))) as? [String: Any]
        XCTAssertEqual(sidecar?["mark"] as? String, "good", "\(sidecar ?? [:])")
        XCTAssertEqual(result["nextShotTitle"] as? String, "08 · The long road home", "\(result)")

        // Re-take (issue 37): refused from the phone during the take, with the page's own line; between
        // takes it starts the shot's next take's countdown.
        XCTAssertTrue((result["retakeRefused"] as? String ?? "").contains("take 1 is recording"), "\(result)")
        XCTAssertEqual(result["retakeCountdown"] as? Int, 2, "\(result)")
        // Cues from the phone: 41 characters refused on the page (nothing sent, the text kept to shorten),
        // free text, a preset and clear each a cue event, and the page says what the prompter shows.
        XCTAssertEqual(result["cueRefused"] as? String, "A cue is at most 40 characters (this one has 41): shorten it.", "\(result)")
        XCTAssertEqual(result["cueKept"] as? Int, 41, "\(result)")
        XCTAssertEqual(result["cueText"] as? String, "smile, then slow down", "\(result)")
        XCTAssertEqual(result["cueShown"] as? String, "cue: smile, then slow down", "\(result)")
        XCTAssertEqual(result["cuePreset"] as? [String], ["lens", "look at the lens"], "\(result)")
        XCTAssertTrue(result["cueCleared"] is NSNull, "\(result)")
        // Notes (issue 39): the shot list's codes are the page's buttons; 501 characters refused on the
        // page (kept to shorten); a typed note with A11Y tapped is the take's note, in its sidecar; Flag a flag.
        XCTAssertEqual(result["noteCodes"] as? [String], ["BUG", "Q", "GOOD", "PII", "A11Y"], "\(result)")
        XCTAssertEqual(result["noteRefused"] as? String, "A note is at most 500 characters (this one has 501): shorten it.", "\(result)")
        XCTAssertEqual(result["noteKept"] as? Int, 501, "\(result)")
        let note = try XCTUnwrap(result["note"] as? [String: Any], "\(result)")
        XCTAssertEqual(note["kind"] as? String, "note")
        XCTAssertEqual(note["code"] as? String, "A11Y")
        XCTAssertEqual(note["text"] as? String, "the menu hides the q button")
        XCTAssertEqual(note["take"] as? Int, 1)
        XCTAssertEqual(result["noteShown"] as? String, "note sent: A11Y", "\(result)")
        XCTAssertEqual(result["noteBoxAfter"] as? String, "", "\(result)")
        XCTAssertEqual(result["flag"] as? [String], ["flag", "FLAG"], "\(result)")
        let noted = try String(contentsOfFile: TakeSidecar.path(forTake: file), encoding: .utf8)
        XCTAssertTrue(noted.contains("the menu hides the q button") && noted.contains("A11Y"), noted)

        // OSC marks the latest take no good (issue 37); its sidecar says so.
        let control = try ControlClient(path: remote.socketPath)
        OSCTestClient(port: remote.oscPort).send(OSCMessage("/duo/mark/nogood"))
        let oscMark = try control.next("mark")
        XCTAssertEqual(oscMark["mark"] as? String, "no-good", "\(oscMark)")
        XCTAssertEqual(oscMark["file"] as? String, file)
        let remarked = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TakeSidecar.path(forTake: file)))) as? [String: Any]
        XCTAssertEqual(remarked?["mark"] as? String, "no-good", "\(remarked ?? [:])")

        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let commands = remote.eventLines.filter { $0.contains(#""event":"command""#) && $0.contains(#""cmd":"mark""#) }
        XCTAssertEqual(commands.count, 2, commands.joined(separator: "\n"))
        XCTAssertTrue(commands.first?.contains(#""source":"remote""#) ?? false, commands.joined(separator: "\n"))
        XCTAssertTrue(commands.last?.contains(#""source":"osc""#) ?? false, commands.joined(separator: "\n"))
        // The page sent three cues: the 41 characters never left it.
        let cues = remote.eventLines.filter { $0.contains(#""event":"command""#) && $0.contains(#""cmd":"cue""#) }
        XCTAssertEqual(cues.count, 3, cues.joined(separator: "\n"))
        XCTAssertEqual(remote.eventLines.filter { $0.contains(#""cmd":"retake""#) && $0.contains(#""source":"remote""#) }.count, 2)
    }
}

/// Issue 37: what the web remote logs is what happened.
final class RemoteLogTests: XCTestCase {
    /// The browser's icon request (no token) is answered 204 and not logged; a wrong token is logged as
    /// "wrong token" though a request without one came just before from the same address, and a missing
    /// one as "no token": one line each.
    func testTheFaviconIsAnsweredAndEachRefusalSaysWhatItWas() throws {
        let remote = try RemoteRun(self, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/favicon.ico", upgrade: false), 204)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/", upgrade: false), 401)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/?token=not-the-token", upgrade: false), 401)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/favicon.ico", upgrade: false), 204)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/?token=\(remote.token)", upgrade: false), 200)
        let control = try ControlClient(path: remote.socketPath)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let refusals = remote.run.stderr.split(separator: "\n").filter { $0.contains("remote: refused") }
        XCTAssertEqual(refusals.filter { $0.contains("refused 127.0.0.1: no token") }.count, 1, refusals.joined(separator: "\n"))
        XCTAssertEqual(refusals.filter { $0.contains("refused 127.0.0.1: wrong token") }.count, 1, refusals.joined(separator: "\n"))
        XCTAssertEqual(refusals.count, 2, refusals.joined(separator: "\n"))
        XCTAssertFalse(remote.run.stderr.contains("favicon"), remote.run.stderr)
    }
}
