import Foundation
import XCTest

/// The operator's monitor unplugged mid-take (xrandr on the virtual desktop): the window goes to the
/// remaining monitor, fullscreen, its picture filling it; the subject view goes, since one monitor cannot
/// be both (with that reason); the take goes on and decodes complete.
final class OperatorMonitorUnplugTests: XCTestCase {
    func testUnpluggingTheOperatorMonitorKeepsTheWindowFullscreenAndTheTake() throws {
        let desktop = try VirtualDesktop(test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let takes = desktop.directory.appendingPathComponent("takes")
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--source", "videotestsrc", "--format", "1280x720@30", "--events", events.path, "--record-dir", takes.path],
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        let app = DesktopEndToEndTests.App(process: p, events: events)
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try desktop.key("space")
        let started = try app.wait("the take", timeout: 30) { $0["event"] as? String == "take-started" }
        let file = try XCTUnwrap(started.event["file"] as? String)

        let mark = app.count
        try desktop.xrandr(["--output", "DUMMY0", "--off"])
        try desktop.xrandr(["-q"])
        let gone = try app.wait("the subject view to go", after: mark) {
            $0["event"] as? String == "availability" && $0["available"] as? Bool == false
        }
        let reasons = gone.event["reasons"] as? [String] ?? []
        XCTAssertTrue(reasons.contains("no-subject-monitor") || reasons.contains("subject-monitor-is-operators"), "\(reasons)")
        XCTAssertEqual(gone.event["shown"] as? Bool, false)
        // Fullscreen on DUMMY1 (the screen is now that monitor alone, at 0,0), the preview's bars across it.
        let window = try XCTUnwrap(try desktop.run("xdotool", ["search", "--name", "^duo-capture operator$"]).stdout.split(separator: "\n").first.map(String.init))
        try waitFor("the window fullscreen on the remaining monitor", timeout: 15) {
            let state = try desktop.run("xprop", ["-id", window, "_NET_WM_STATE"]).stdout
            let info = try desktop.run("xwininfo", ["-id", window]).stdout
            return state.contains("_NET_WM_STATE_FULLSCREEN") && info.contains("Absolute upper-left X:  0") && info.contains("Width: 1280") && info.contains("Height: 720")
        }
        _ = try waitForScreen(desktop, "the preview on the remaining monitor") { s in
            s.width == 1280 && [(1, 255, 255, 0), (2, 0, 255, 255), (5, 255, 0, 0)].allSatisfy { i, r, g, b in
                let p = s.pixel(Int((Double(i) + 0.5) * 1280 / 7), 400)
                return abs(p.r - r) < 60 && abs(p.g - g) < 60 && abs(p.b - b) < 60
            }
        }
        // The take kept running through it.
        let first = try app.wait("a status while recording", after: gone.index) { $0["event"] as? String == "status" }
        let later = try app.wait("a later status", after: first.index + 1) { $0["event"] as? String == "status" }
        XCTAssertEqual(later.event["recording"] as? Bool, true)
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
        let ended = try XCTUnwrap(app.all().first { $0["event"] as? String == "take-ended" })
        XCTAssertEqual(ended["kept"] as? Bool, true)
        XCTAssertNil(ended["error"] as? String)
        // The file decodes to the end: as many frames as the take counted.
        let probe = try runTool("gst-discoverer-1.0", [file], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(probe.status, 0, probe.stderr)
        let decoded = try runTool("gst-launch-1.0", ["-q", "filesrc", "location=\(file)", "!", "decodebin", "!", "fakesink"],
                                  environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(decoded.status, 0, "the take decodes to its end: \(decoded.stderr)")
        XCTAssertGreaterThan(ended["frames"] as? Int ?? 0, 15, "the take recorded through the unplug")
    }

    /// A minimised operator window is not on the glass: the subject view goes (operator-not-fullscreen)
    /// and comes back when the window is restored.
    func testAMinimisedOperatorWindowDoesNotCount() throws {
        let desktop = try VirtualDesktop(test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let p = try desktop.launch(DesktopEndToEndTests.binary.path, ["--source", "videotestsrc", "--format", "640x360@30", "--events", events.path],
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        let app = DesktopEndToEndTests.App(process: p, events: events)
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        let window = try XCTUnwrap(try desktop.run("xdotool", ["search", "--name", "^duo-capture operator$"]).stdout.split(separator: "\n").first.map(String.init))
        var mark = app.count
        _ = try desktop.run("xdotool", ["windowminimize", window])
        let hidden = try app.wait("the subject view to go", after: mark) { $0["event"] as? String == "availability" && $0["available"] as? Bool == false }
        XCTAssertEqual(hidden.event["reasons"] as? [String], ["operator-not-fullscreen"])
        mark = app.count
        _ = try desktop.run("xdotool", ["windowactivate", window])
        try app.wait("the subject view back", after: mark) { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
    }
}
