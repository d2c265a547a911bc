import Foundation
import XCTest

/// Issue 37 on the virtual two-monitor X desktop (DUMMY0 the operator's at 0,0 1280x720, DUMMY1 the
/// subject's at 1280,0): the cue chooser opens on the operator's monitor from the C key and from the
/// control bar's cue button, and what is chosen there is the run's `cue` command (key and button).
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

        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }
}
