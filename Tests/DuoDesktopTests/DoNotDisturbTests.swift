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

    private func start(_ desktop: VirtualDesktop, _ extra: [String], log: String) throws -> DesktopEndToEndTests.App {
        let events = desktop.directory.appendingPathComponent("events-\(log).jsonl")
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--source", "videotestsrc", "--format", "640x360@30", "--events", events.path,
                                    "--record-dir", desktop.directory.appendingPathComponent("takes").path] + extra,
                                   log: "\(log).log", environment: bus, directory: VirtualDesktop.repositoryRoot)
        return DesktopEndToEndTests.App(process: p, events: events)
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
