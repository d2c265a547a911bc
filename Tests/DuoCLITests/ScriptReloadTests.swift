import DuoCore
import Foundation
import XCTest

/// A script saved while the run goes on is reloaded in place: the reading position is kept, and a save
/// that cannot be read keeps the old text and says why.
final class ScriptReloadTests: XCTestCase {
    private func statusEvents(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    func testASavedScriptIsReloadedKeepingThePlaceAndABrokenSaveKeepsTheOldText() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/talk.md"
        let paragraph = "Every word of this sentence is read aloud by the presenter at a steady pace. "
        let original = "# Talk\n\n" + String(repeating: paragraph, count: 40) + "\n"
        try original.write(toFile: script, atomically: true, encoding: .utf8)
        let events = "\(dir)/events.jsonl", socket = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none",
                                     "--script", script, "--wpm", "600", "--record", "--countdown", "0", "--record-dir", dir,
                                     "--events", events, "--control", socket, "--json"], directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the script to scroll past word 20") {
            statusEvents(events).contains { ($0["position"] as? Double ?? 0) > 20 }
        }
        let before = try XCTUnwrap(statusEvents(events).last { $0["event"] as? String == "status" })
        let lengthBefore = try XCTUnwrap(before["length"] as? Double)

        // Saved with a paragraph added at the end (written beside and renamed into place, as editors do).
        try (original + "\nA new closing paragraph for the end of the talk.\n").write(toFile: script, atomically: true, encoding: .utf8)
        try run.wait(for: "the reload") { statusEvents(events).contains { $0["trigger"] as? String == "script" } }
        let reloaded = try XCTUnwrap(statusEvents(events).first { $0["trigger"] as? String == "script" })
        let position = try XCTUnwrap(reloaded["position"] as? Double)
        XCTAssertGreaterThan(try XCTUnwrap(reloaded["length"] as? Double), lengthBefore, "the new text is in")
        XCTAssertGreaterThanOrEqual(position, (before["position"] as? Double ?? 0), "the place is kept, not reset")
        XCTAssertLessThan(position, (before["position"] as? Double ?? 0) + 40, "within a few seconds of reading")

        // A broken save: the old (reloaded) text stays, and the error says so.
        try Data([0x23, 0x00, 0xff, 0xfe]).write(to: URL(fileURLWithPath: script))
        try run.wait(for: "the refusal") {
            statusEvents(events).contains { ($0["message"] as? String ?? "").contains("cannot be read") }
        }
        let refusalIndex = try XCTUnwrap(statusEvents(events).firstIndex { ($0["message"] as? String ?? "").contains("cannot be read") })
        try run.wait(for: "a status after the refusal") {
            statusEvents(events).dropFirst(refusalIndex).contains { $0["event"] as? String == "status" }
        }
        let after = try XCTUnwrap(statusEvents(events).dropFirst(refusalIndex).first { $0["event"] as? String == "status" })
        XCTAssertEqual(after["length"] as? Double, reloaded["length"] as? Double, "the previous text stays on screen")
        let client = try ControlClient(path: socket)
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("reloaded; the reading position is kept"), run.stderr)
    }

    /// `{"cmd":"script","path":…}` (what the O key's file chooser sends) opens a script in a run that had
    /// none: the teleprompter commands then work; a bad path is refused and changes nothing.
    func testAnotherScriptCanBeOpenedWhileRunning() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/later.md"
        try "# Later\n\nWords opened while the run was going.\n".write(toFile: script, atomically: true, encoding: .utf8)
        let socket = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none",
                                     "--control", socket, "--json"], directory: dir,
                                    environment: ["XDG_STATE_HOME": dir])
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socket) }
        let client = try ControlClient(path: socket)
        client.send(#"{"cmd":"pause"}"#)
        XCTAssertTrue((try client.next("error")["message"] as? String ?? "").contains("no teleprompter script"))
        client.send(#"{"cmd":"script","path":"\#(dir)/missing.md"}"#)
        XCTAssertTrue((try client.next("error")["message"] as? String ?? "").contains("does not exist"))
        client.send(#"{"cmd":"script","path":"\#(script)"}"#)
        var opened: [String: Any]
        repeat { opened = try client.next("status") } while opened["trigger"] as? String != "script"
        XCTAssertGreaterThan(opened["length"] as? Double ?? 0, 5, "the new script is on screen")
        client.send(#"{"cmd":"pause"}"#)
        var paused: [String: Any]
        repeat { paused = try client.next("status") } while paused["trigger"] as? String != "command"
        XCTAssertEqual(paused["paused"] as? Bool, false, "pause toggles the opened script's scrolling")
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: "\(dir)/duo-capture/last-script", encoding: .utf8), script + "\n",
                       "remembered as the last script used")
    }

    /// Text size steps (the + and - keys, `{"cmd":"font","step":…}`) keep the reading place, and the size
    /// comes back the next time the same script is opened.
    func testTextSizeStepsKeepThePlaceAndAreRemembered() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/talk.md"
        try ("# Talk\n\n" + String(repeating: "Words to read at an even pace for the test. ", count: 30)).write(toFile: script, atomically: true, encoding: .utf8)
        let socket = "\(dir)/control.sock"
        func start() throws -> (BackgroundRun, ControlClient) {
            let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "640x360@30", "--audio", "none",
                                         "--script", script, "--control", socket, "--json"], directory: dir, environment: ["XDG_STATE_HOME": dir])
            try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socket) }
            return (run, try ControlClient(path: socket))
        }
        func commandStatus(_ client: ControlClient, _ line: String) throws -> [String: Any] {
            client.send(line)
            var status: [String: Any]
            repeat { status = try client.next("status") } while status["trigger"] as? String != "command"
            return status
        }
        var (run, client) = try start()
        let moved = try commandStatus(client, #"{"cmd":"jump","to":"next"}"#)
        let initial = try XCTUnwrap(moved["fontSize"] as? Double)
        let larger = try commandStatus(client, #"{"cmd":"font","step":1}"#)
        XCTAssertGreaterThan(larger["fontSize"] as? Double ?? 0, initial)
        XCTAssertEqual(larger["position"] as? Double, moved["position"] as? Double, "the same word")
        let largerStill = try commandStatus(client, #"{"cmd":"font","step":1}"#)
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)

        (run, client) = try start()
        let reopened = try commandStatus(client, #"{"cmd":"mirror"}"#)
        XCTAssertEqual(reopened["fontSize"] as? Double, largerStill["fontSize"] as? Double, "remembered with the script")
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
    }
}
