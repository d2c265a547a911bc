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

    /// Sends `stop` (refused: nothing records) every 100 ms until `done` says an event ends it; returns
    /// how long each took to be carried out (its `command` event) and the event that ended it.
    private func probe(_ client: ControlClient, until done: ([String: Any]) -> Bool) throws -> (latencies: [Double], end: [String: Any]?) {
        var latencies: [Double] = []
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline {
            client.send(#"{"cmd":"stop"}"#)
            let sent = Date()
            var event: [String: Any], end: [String: Any]? = nil
            repeat {
                event = try client.nextAny()
                if done(event) { end = event }
            } while event["event"] as? String != "command"
            // A probe answered only after the load finished counts too (it waited for it).
            latencies.append(Date().timeIntervalSince(sent))
            if let end { return (latencies, end) }
            usleep(100_000)   // pacing between probes, not a wait for an event
        }
        return (latencies, nil)
    }

    /// Status events (the event log) up to the first one `trigger`ed by the script: the largest gap between
    /// two (that one included), and the lengths the ones before it showed.
    private func statusBefore(_ events: String, trigger: String) -> (gap: Double, lengths: Set<Double>) {
        var times: [Double] = [], lengths: Set<Double> = []
        for e in statusEvents(events) where e["event"] as? String == "status" {
            times.append(e["t"] as? Double ?? 0)
            if e["trigger"] as? String == trigger { break }
            lengths.insert(e["length"] as? Double ?? -1)
        }
        return (zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0, lengths)
    }

    /// A ~2 MB script saved mid-run, then another opened with `{"cmd":"script"}`, are read and laid out
    /// off the director (each held it up 4-6 s): commands are carried out at once and the
    /// status events keep coming while they load, the old text stays on screen until the new one is
    /// ready, and then it is swapped in.
    func testALargeScriptLoadsWithoutHoldingUpTheRun() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/talk.md", other = "\(dir)/other.md"
        let paragraph = "Every word of this sentence is read aloud by the presenter at a steady pace. "
        try ("# Talk\n\n" + String(repeating: paragraph, count: 40) + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let events = "\(dir)/events.jsonl", socket = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none",
                                     "--script", script, "--events", events, "--control", socket, "--json"],
                                    directory: dir, environment: ["XDG_STATE_HOME": dir])
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "a status") { statusEvents(events).contains { $0["event"] as? String == "status" } }
        let lengthBefore = try XCTUnwrap(statusEvents(events).last { $0["event"] as? String == "status" }?["length"] as? Double)
        let client = try ControlClient(path: socket)

        // Saved with ~1.9 MB of text (written beside and renamed into place, as editors do).
        let long = String(repeating: paragraph, count: 25) + "\n\n"
        let big = "# Talk\n\n" + String(repeating: long, count: 1_900_000 / long.utf8.count)
        try big.write(toFile: script, atomically: true, encoding: .utf8)
        let saved = try probe(client) { $0["event"] as? String == "status" && $0["trigger"] as? String == "script" }
        let reloaded = try XCTUnwrap(saved.end, "the reload happened")
        XCTAssertGreaterThan(reloaded["length"] as? Double ?? 0, 100_000, "the new text is in")
        XCTAssertGreaterThanOrEqual(saved.latencies.count, 2, "commands were carried out while it loaded")
        XCTAssertLessThan(saved.latencies.max() ?? 0, 1.5, "no command waited for the reload: \(saved.latencies)")
        let whileSaving = statusBefore(events, trigger: "script")
        XCTAssertLessThan(whileSaving.gap, 2.5, "status events kept coming")
        XCTAssertEqual(whileSaving.lengths, [lengthBefore], "the old text stayed on screen while the new one loaded")

        // Another large script opened (the O key's command).
        let shorter = String(repeating: paragraph, count: 20) + "\n\n"
        try ("# Other\n\n" + String(repeating: shorter, count: 1_800_000 / shorter.utf8.count)).write(toFile: other, atomically: true, encoding: .utf8)
        client.send(#"{"cmd":"script","path":"\#(other)"}"#)
        XCTAssertEqual(try client.next("command")["cmd"] as? String, "script")
        let opened = try probe(client) {
            $0["event"] as? String == "status" && $0["trigger"] as? String == "script" && ($0["length"] as? Double) != reloaded["length"] as? Double
        }
        XCTAssertNotNil(opened.end, "the other script was opened")
        XCTAssertGreaterThanOrEqual(opened.latencies.count, 2, "commands were carried out while it loaded")
        XCTAssertLessThan(opened.latencies.max() ?? 0, 1.5, "no command waited for the opening: \(opened.latencies)")
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("opened script \(other)"), run.stderr)
    }

    /// Saved twice in a row, a large script and then a small one: the later save supersedes the load
    /// still under way, so the small text goes on screen as soon as it is read and the large one never
    /// does.
    func testANewerSaveSupersedesALoadUnderWay() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/talk.md"
        let paragraph = "Every word of this sentence is read aloud by the presenter at a steady pace. "
        try ("# Talk\n\n" + String(repeating: paragraph, count: 40) + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let events = "\(dir)/events.jsonl", socket = "\(dir)/control.sock"
        // --verbose: the run says when the superseded load finishes.
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none",
                                     "--script", script, "--events", events, "--control", socket, "--json", "--verbose"],
                                    directory: dir, environment: ["XDG_STATE_HOME": dir, "GST_DEBUG_NO_COLOR": "1"])
        defer { if run.process.isRunning { run.process.terminate() } }
        func statuses() -> [[String: Any]] { statusEvents(events).filter { $0["event"] as? String == "status" } }
        try run.wait(for: "a status") { !statuses().isEmpty }
        let long = String(repeating: paragraph, count: 25) + "\n\n"
        try ("# Talk\n\n" + String(repeating: long, count: 1_900_000 / long.utf8.count)).write(toFile: script, atomically: true, encoding: .utf8)
        // The director looks at the file every half second: two status events later it has seen the save.
        let seen = statuses().count + 2
        try run.wait(for: "the large save to be seen") { statuses().count >= seen }
        try ("# Talk\n\n" + String(repeating: paragraph, count: 10) + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        try run.wait(for: "the reload") { statuses().contains { $0["trigger"] as? String == "script" } }
        let reloaded = try XCTUnwrap(statuses().first { $0["trigger"] as? String == "script" })
        XCTAssertLessThan(reloaded["length"] as? Double ?? .infinity, 200, "the small text went on screen first")
        // After the large load has finished (and was dropped), the small text is still the one on screen.
        try run.wait(upTo: 60, for: "the large load to finish") { run.stderr.contains("finished after a newer one superseded it") }
        let seenAfter = statuses().count + 2
        try run.wait(for: "two status events after it") { statuses().count >= seenAfter }
        XCTAssertEqual(statuses().filter { $0["trigger"] as? String == "script" }.count, 1, "the large text never went on screen")
        XCTAssertEqual(statuses().last?["length"] as? Double, reloaded["length"] as? Double)
        try ControlClient(path: socket).send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
    }
}
