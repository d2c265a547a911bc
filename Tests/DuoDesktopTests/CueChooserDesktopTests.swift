import Foundation
import XCTest

/// Issue 37 on the virtual two-monitor X desktop (DUMMY0 the operator's at 0,0 1280x720, DUMMY1 the
/// subject's at 1280,0): the cue chooser opens on the operator's monitor from the C key and from the
/// control bar's cue button, and what is chosen there is the run's `cue` command (key and button); and
/// (issue 39) the control bar's note field and the K key's flag.
final class CueChooserDesktopTests: XCTestCase {
    /// The chooser's window once it is up: whole on the operator's monitor, none of it on the subject's.
    private func chooserOnTheOperatorMonitor(_ desktop: VirtualDesktop) throws {
        var geometry: (x: Int, y: Int, width: Int, height: Int)?
        try waitFor("the cue chooser", timeout: 20, interval: 0.2) {
            geometry = try desktop.windowGeometry(named: "^Cue the talent$")
            return geometry.map { $0.width > 100 } ?? false
        }
        let g = try XCTUnwrap(geometry)
        XCTAssertTrue(g.x >= 0 && g.x + g.width <= 1280 && g.y >= 0 && g.y + g.height <= 720, "on the operator's monitor (0,0 1280x720): \(g)")
    }

    func testTheCueChooserOpensOnTheOperatorMonitorAndSendsTheCue() throws {
        let desktop = try VirtualDesktop(test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let p = try desktop.launch(DesktopEndToEndTests.binary.path, ["--source", "videotestsrc", "--format", "1280x720@30", "--script", script,
                                                                      "--events", events.path], log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        let app = DesktopEndToEndTests.App(process: p, events: events)
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }

        // C: the chooser; free text typed and Enter sends it as the key's cue.
        try desktop.key("c")
        try chooserOnTheOperatorMonitor(desktop)
        let typed = try desktop.run("xdotool", ["type", "--delay", "20", "HOLD FOR APPLAUSE"])
        XCTAssertEqual(typed.status, 0, typed.stderr)
        try desktop.key("Return")
        let (cue, at) = try app.wait("the typed cue") { $0["event"] as? String == "cue" }
        XCTAssertEqual(cue["text"] as? String, "HOLD FOR APPLAUSE", "\(cue)")
        let command = app.all().last { $0["event"] as? String == "command" && $0["cmd"] as? String == "cue" }
        XCTAssertEqual(command?["source"] as? String, "key", "\(command ?? [:])")
        try waitFor("the chooser to close", timeout: 20) { try desktop.windowGeometry(named: "^Cue the talent$") == nil }

        // The control bar's cue button: the same chooser, on the operator's monitor; Alt+W is "wrap up".
        try desktop.pointer(moveTo: 1900, 400)
        try desktop.pointer(moveTo: 640, 300)
        let shown = try app.wait("the control bar") { $0["event"] as? String == "controls" && $0["shown"] as? Bool == true }
        let button = try XCTUnwrap((shown.event["buttons"] as? [String: [Int]])?["cue"], "no cue button: \(shown.event)")
        try desktop.click(button)
        try chooserOnTheOperatorMonitor(desktop)
        try desktop.key("alt+w")
        let (wrap, _) = try app.wait("the preset", after: at + 1) { $0["event"] as? String == "cue" }
        XCTAssertEqual(wrap["preset"] as? String, "wrap", "\(wrap)")
        let pressed = app.all().last { $0["event"] as? String == "command" && $0["cmd"] as? String == "cue" }
        XCTAssertEqual(pressed?["source"] as? String, "button", "\(pressed ?? [:])")
        try waitFor("the chooser to close", timeout: 20) { try desktop.windowGeometry(named: "^Cue the talent$") == nil }

        // Issue 39, in the same run: Return opens the bar's note field (its entry and code chooser in the
        // buttons' place); typed words with spaces and a q never start a take nor quit; Down chooses the
        // second code and Enter sends the note; Esc closes a field without a note; K drops a flag.
        var mark = app.count
        XCTAssertNotNil((shown.event["buttons"] as? [String: [Int]])?["note"], "a note button: \(shown.event)")
        XCTAssertNotNil((shown.event["buttons"] as? [String: [Int]])?["flag"], "a flag button: \(shown.event)")
        try desktop.key("Return")
        let field = try app.wait("the note field", after: mark) { ($0["buttons"] as? [String: [Int]])?["note-text"] != nil }
        let entry = try XCTUnwrap((field.event["buttons"] as? [String: [Int]])?["note-text"])
        XCTAssertTrue(entry[0] >= 0 && entry[0] + entry[2] <= 1280 && entry[1] + entry[3] <= 720, "on the operator's monitor: \(entry)")
        XCTAssertNil((field.event["buttons"] as? [String: [Int]])?["record"], "the field in the buttons' place: \(field.event)")
        let words = "menu hides the q button"
        let typedNote = try desktop.run("xdotool", ["type", "--delay", "20", words])
        XCTAssertEqual(typedNote.status, 0, typedNote.stderr)
        try desktop.key("Down")
        try desktop.key("Return")
        let (note, noteAt) = try app.wait("the note", after: mark) { $0["event"] as? String == "note" }
        XCTAssertEqual(note["text"] as? String, words, "\(note)")
        XCTAssertEqual(note["code"] as? String, "Q", "the second code: \(note)")
        XCTAssertEqual(note["kind"] as? String, "note", "\(note)")
        try app.wait("the field to close", after: field.index) { $0["event"] as? String == "controls" && ($0["buttons"] as? [String: [Int]])?["record"] != nil }
        // Esc: closed, nothing sent. Then K: a flag (had the field kept the keys, K would be its text).
        try desktop.key("Return")
        try app.wait("the note field again", after: noteAt) { ($0["buttons"] as? [String: [Int]])?["note-text"] != nil }
        let discarded = try desktop.run("xdotool", ["type", "--delay", "20", "not this one"])
        XCTAssertEqual(discarded.status, 0, discarded.stderr)
        mark = app.count
        try desktop.key("Escape")
        try app.wait("the field to close", after: mark) { $0["event"] as? String == "controls" && ($0["buttons"] as? [String: [Int]])?["record"] != nil }
        try desktop.key("k")
        let (flag, _) = try app.wait("the flag", after: noteAt + 1) { $0["event"] as? String == "note" }
        XCTAssertEqual(flag["kind"] as? String, "flag", "Esc sent no note; K dropped a flag: \(flag)")
        XCTAssertEqual(flag["code"] as? String, "FLAG", "\(flag)")
        let all = app.all()
        XCTAssertFalse(all.contains { ["countdown", "take-started"].contains($0["event"] as? String) }, "the typed space started no take")
        XCTAssertFalse(all.contains { $0["event"] as? String == "command" && $0["cmd"] as? String == "quit" }, "the typed q quit nothing")
        XCTAssertEqual(all.filter { $0["event"] as? String == "note" }.count, 2, "one note, one flag")
        XCTAssertTrue(app.process.isRunning)

        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }
}
