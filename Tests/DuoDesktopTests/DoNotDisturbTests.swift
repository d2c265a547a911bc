import Foundation
import XCTest

/// Do not disturb on the subject's monitor, against real GSettings: a session bus of its own (dbus-daemon,
/// as dbus-run-session starts one) with dconf behind GSettings. GNOME's `show-banners` is off while the
/// subject view is shown, given back when the run ends, and after a SIGKILL given back by the next run
/// at its start; `--allow-notifications` leaves it alone.
final class DoNotDisturbTests: XCTestCase {
    private var bus: [String: String] = [:]

    /// A private session bus on the desktop (stopped with it); GSettings writes through dconf to the
    /// desktop's own HOME.
    private func startBus(_ desktop: VirtualDesktop) throws {
        let address = desktop.directory.appendingPathComponent("bus.address")
        let daemon = try desktop.launch("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"], log: "bus.address")
        try waitFor("the session bus", timeout: 20) {
            guard daemon.isRunning else { throw Failure("dbus-daemon exited: \(desktop.tail("bus.address"))") }
            return ((try? String(contentsOf: address, encoding: .utf8)) ?? "").contains("\n")
        }
        let line = try String(contentsOf: address, encoding: .utf8).split(separator: "\n")[0]
        bus = ["DBUS_SESSION_BUS_ADDRESS": String(line), "GSETTINGS_BACKEND": "dconf",
               "XDG_RUNTIME_DIR": desktop.directory.appendingPathComponent("runtime").path]
        try FileManager.default.createDirectory(atPath: bus["XDG_RUNTIME_DIR"]!, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    private func banners(_ desktop: VirtualDesktop) throws -> String {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in bus { env[k] = v }
        env["HOME"] = desktop.directory.path
        let r = try runTool("gsettings", ["get", "org.gnome.desktop.notifications", "show-banners"], environment: env)
        guard r.status == 0 else { throw Failure("gsettings get failed: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `withBus` false: a run that cannot reach any session bus (GSettings cannot write through dconf).
    private func start(_ desktop: VirtualDesktop, _ extra: [String], log: String, withBus: Bool = true) throws -> DesktopEndToEndTests.App {
        let events = desktop.directory.appendingPathComponent("events-\(log).jsonl")
        var environment = bus
        if !withBus {
            let runtime = desktop.directory.appendingPathComponent("runtime-without-bus").path
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": runtime, "GSETTINGS_BACKEND": "dconf", "NO_AT_BRIDGE": "1"]
        }
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--source", "videotestsrc", "--format", "640x360@30", "--events", events.path, "--countdown", "0",
                                    "--record-dir", desktop.directory.appendingPathComponent("takes").path] + extra,
                                   log: "\(log).log", environment: environment, directory: VirtualDesktop.repositoryRoot)
        return DesktopEndToEndTests.App(process: p, events: events)
    }

    private func quit(_ desktop: VirtualDesktop, _ app: DesktopEndToEndTests.App, _ log: String) throws {
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail(log))
    }

    private func marker(_ desktop: VirtualDesktop) -> String? {
        try? String(contentsOfFile: desktop.directory.appendingPathComponent("state/duo-capture/notifications-silenced").path, encoding: .utf8)
    }

    /// Two takes with Esc between them: the view hides, the curtain holds the subject's monitor, and
    /// banners stay off throughout (they came back between takes before the curtain).
    func testBannersStayOffBetweenTwoTakesWithTheViewHidden() throws {
        let desktop = try VirtualDesktop(test: self)
        try startBus(desktop)
        let app = try start(desktop, [], log: "takes")
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try waitFor("show-banners false", timeout: 10) { try self.banners(desktop) == "false" }
        try desktop.key("space")
        let first = try app.wait("take 1", timeout: 20) { $0["event"] as? String == "take-started" }
        try desktop.key("space")
        let ended = try app.wait("take 1 to end", after: first.index) { $0["event"] as? String == "take-ended" }
        try desktop.key("Escape")
        let hidden = try app.wait("the view to hide", after: ended.index) { $0["event"] as? String == "availability" && $0["shown"] as? Bool == false }
        // Between the takes, view hidden: every reading over several statuses says off.
        var after = hidden.index + 1
        for _ in 0..<3 {
            after = try app.wait("a status between the takes", after: after) { $0["event"] as? String == "status" }.index + 1
            XCTAssertEqual(try banners(desktop), "false", "between takes with the view hidden")
        }
        try desktop.key("space")
        let second = try app.wait("take 2", after: after, timeout: 20) { $0["event"] as? String == "take-started" }
        XCTAssertEqual(try banners(desktop), "false")
        try desktop.key("space")
        try app.wait("take 2 to end", after: second.index) { $0["event"] as? String == "take-ended" }
        XCTAssertEqual(try banners(desktop), "false")
        try quit(desktop, app, "takes.log")
        XCTAssertEqual(try banners(desktop), "true", "given back at the end")
        XCTAssertNil(marker(desktop))
    }

    /// After a SIGKILL, a run without a session bus cannot give the setting back: it keeps the marker (it
    /// used to delete it, leaving banners off for good); the next run with a bus, a headless one, does.
    /// And a second run started while the first holds banners off leaves the first's setting and marker alone.
    func testTheMarkerIsKeptUntilGivenBackAndALiveRunsIsLeftAlone() throws {
        let desktop = try VirtualDesktop(test: self)
        try startBus(desktop)
        var app = try start(desktop, [], log: "killed")
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try waitFor("show-banners false", timeout: 10) { try self.banners(desktop) == "false" }
        let written = try XCTUnwrap(marker(desktop))
        XCTAssertTrue(written.contains(" \(app.process.processIdentifier) "), "the marker names its run: \(written)")
        kill(app.process.processIdentifier, SIGKILL)
        app.process.waitUntilExit()

        // Without a bus: the marker stays.
        app = try start(desktop, [], log: "nobus", withBus: false)
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try quit(desktop, app, "nobus.log")
        XCTAssertEqual(marker(desktop), written, "kept for a run that can give it back: \(desktop.tail("nobus.log"))")
        XCTAssertEqual(try banners(desktop), "false")

        // A headless run with the bus gives it back.
        let headless = try desktop.launch(DesktopEndToEndTests.binary.path, ["--headless", "--source", "videotestsrc", "--duration", "1"],
                                          log: "headless.log", environment: bus, directory: VirtualDesktop.repositoryRoot)
        try waitFor("the headless run to end", timeout: 60) { !headless.isRunning }
        XCTAssertEqual(headless.terminationStatus, 0, desktop.tail("headless.log"))
        XCTAssertEqual(try banners(desktop), "true", desktop.tail("headless.log"))
        XCTAssertNil(marker(desktop))
        XCTAssertTrue(desktop.tail("headless.log").contains("left off by an earlier run"), desktop.tail("headless.log"))

        // A run holds banners off; a second one starts meanwhile: the first's setting stays off.
        let first = try start(desktop, [], log: "live")
        try first.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try waitFor("show-banners false", timeout: 10) { try self.banners(desktop) == "false" }
        let live = try XCTUnwrap(marker(desktop))
        let second = try start(desktop, ["--windowed"], log: "second")
        try second.wait("the second run's start") { $0["event"] as? String == "started" }
        let s1 = try first.wait("a status of the first", after: first.count) { $0["event"] as? String == "status" }
        try first.wait("a later status of the first", after: s1.index + 1) { $0["event"] as? String == "status" }
        XCTAssertEqual(try banners(desktop), "false", "the live run's setting is left alone: \(desktop.tail("second.log"))")
        XCTAssertEqual(marker(desktop), live)
        XCTAssertTrue(desktop.tail("second.log").contains("left to it"), desktop.tail("second.log"))
        kill(second.process.processIdentifier, SIGTERM)
        try waitFor("the second run to end", timeout: 30) { !second.process.isRunning }
        kill(first.process.processIdentifier, SIGTERM)
        try waitFor("the first run to end", timeout: 30) { !first.process.isRunning }
        XCTAssertEqual(try banners(desktop), "true", desktop.tail("live.log"))
        XCTAssertNil(marker(desktop))
    }

    func testBannersOffWhileTheSubjectViewIsShownAndBackAfterAnEndOrACrash() throws {
        let desktop = try VirtualDesktop(test: self)
        try startBus(desktop)
        XCTAssertEqual(try banners(desktop), "true", "GNOME's default")
        let marker = desktop.directory.appendingPathComponent("state/duo-capture/notifications-silenced").path

        // A run: off while the subject view is shown, on again after Q.
        var app = try start(desktop, [], log: "first")
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try waitFor("show-banners false", timeout: 10) { try self.banners(desktop) == "false" }
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "written down before the change")
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("first.log"))
        XCTAssertEqual(try banners(desktop), "true", "given back at the end")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))

        // Killed while off: the setting stays off (nothing could run), and the marker says so.
        app = try start(desktop, [], log: "killed")
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        try waitFor("show-banners false", timeout: 10) { try self.banners(desktop) == "false" }
        kill(app.process.processIdentifier, SIGKILL)
        app.process.waitUntilExit()
        XCTAssertEqual(try banners(desktop), "false", "a killed run cannot give it back itself")
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker))

        // The next run gives it back at its start and says so; with --allow-notifications it then leaves
        // the banners on while the subject view is shown.
        app = try start(desktop, ["--allow-notifications"], log: "next")
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        XCTAssertEqual(try banners(desktop), "true", "the leftover is given back at the start")
        XCTAssertTrue(desktop.tail("next.log").contains("left off by an earlier run"), desktop.tail("next.log"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
        let shown = try app.wait("a status while shown") { $0["event"] as? String == "status" }
        try app.wait("a later status", after: shown.index + 1) { $0["event"] as? String == "status" }
        XCTAssertEqual(try banners(desktop), "true", "--allow-notifications leaves them on")
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(try banners(desktop), "true")
    }
}
