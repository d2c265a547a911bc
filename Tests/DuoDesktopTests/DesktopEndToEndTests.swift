import Foundation
import XCTest

/// The real `duo-capture` binary on a real two-monitor X desktop (see VirtualDesktop): what the operator
/// and the subject see, asserted from screenshots, and the events it reports, while a user presses keys
/// and a monitor is unplugged and plugged back.
final class DesktopEndToEndTests: XCTestCase {
    /// duo-capture with the test hub registered (fault commands, test cameras): what the desktop tests run.
    static var binary: URL { built("duo-capture-testhub") }
    /// The product itself, as install.sh installs it.
    static var product: URL { built("duo-capture") }

    static func built(_ name: String) -> URL {
        let next = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: next.path) { return next }
        return VirtualDesktop.repositoryRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// A running duo-capture and its `--events` file. Thread: the test's thread.
    final class App {
        let process: Process
        let events: URL
        init(process: Process, events: URL) { self.process = process; self.events = events }

        func all() -> [[String: Any]] {
            guard let text = try? String(contentsOf: events, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }

        /// Waits for an event matching `match` that comes after the first `after` events; returns it and its index.
        @discardableResult
        func wait(_ what: String, after: Int = 0, timeout: Double = 30, _ match: ([String: Any]) -> Bool) throws -> (event: [String: Any], index: Int) {
            var found: ([String: Any], Int)?
            try waitFor(what, timeout: timeout) {
                guard process.isRunning || !all().isEmpty else { throw Failure("duo-capture exited before \(what)") }
                let events = all()
                for (i, e) in events.enumerated().dropFirst(after) where match(e) { found = (e, i); return true }
                if !process.isRunning { throw Failure("duo-capture exited (\(process.terminationStatus)) before \(what); events: \(events)") }
                return false
            }
            return found!
        }
        var count: Int { all().count }
    }

    func startApp(_ desktop: VirtualDesktop, _ extra: [String]) throws -> App {
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let takes = desktop.directory.appendingPathComponent("takes").path
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let p = try desktop.launch(Self.binary.path, ["--source", "videotestsrc", "--format", "1280x720@30",
                                                      "--script", script, "--events", events.path, "--record-dir", takes] + extra,
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        return App(process: p, events: events)
    }

    // MARK: Tests

    /// The issue's scenario: preview on the operator monitor and teleprompter on the subject monitor;
    /// leave and re-enter fullscreen with the keys (the subject view goes and comes back, enabled stays
    /// on, the script keeps its position); unplug the subject monitor during a take (unavailable with
    /// that reason, the take goes on) and plug it back; Q finalises the take.
    func testOperatorAndSubjectMonitorsThroughFullscreenTogglesAndUnplug() throws {
        let desktop = try VirtualDesktop(test: self)
        let app = try startApp(desktop, [])

        // Both views up: available, shown, preview on the left, teleprompter on the right.
        let ready = try app.wait("the accessory to become available") { $0["event"] as? String == "availability" && $0["available"] as? Bool == true }
        XCTAssertEqual(ready.event["shown"] as? Bool, true)
        XCTAssertEqual(ready.event["subjectMonitor"] as? String, "DUMMY1")
        let first = app.all().first { $0["event"] as? String == "availability" }
        XCTAssertEqual(first?["available"] as? Bool, false, "the run starts unavailable (not yet fullscreen, no frames)")
        // Both at once (going fullscreen, the operator window is drawn again at its new size, a frame later).
        let both = try waitForScreen(desktop, "the preview and the teleprompter") { s in
            s.width == 2560 && self.isTeleprompter(self.subjectStats(s)) && self.operatorShowsBars(s)
        }
        assertOperatorShowsBars(both)
        XCTAssertFalse(isTeleprompter(both.stats(x: 0, y: 200, width: 1280, height: 520)), "the operator monitor shows the camera, not the prompter")

        XCTAssertEqual(recordingLightPixels(both), 0, "no red REC line in the HUD before the take")

        // A take, so the script scrolls.
        try desktop.key("space")
        try app.wait("the countdown") { $0["event"] as? String == "countdown" }
        try app.wait("take 1 to start", timeout: 20) { $0["event"] as? String == "take-started" }
        _ = try waitForScreen(desktop, "the HUD's red REC line") { self.recordingLightPixels($0) > 20 }
        let moving = try app.wait("the script to scroll") { $0["event"] as? String == "status" && ($0["position"] as? Double ?? 0) > 1 }
        // Up: faster. The speed, like the position, must survive what follows.
        try desktop.key("Up")
        let faster = try app.wait("the speed to go up", after: moving.index + 1) { $0["event"] as? String == "status" && $0["speed"] as? String != moving.event["speed"] as? String }
        let speed = try XCTUnwrap(faster.event["speed"] as? String)
        let positionBefore = faster.event["position"] as! Double

        // Esc twice leaves fullscreen (during a take one is held: SubjectPrivacyDesktopTests): the
        // subject view goes, enabled stays on.
        var mark = app.count
        try desktop.key("Escape", "Escape")
        let left = try app.wait("unavailability after leaving fullscreen", after: mark) { $0["event"] as? String == "availability" && $0["available"] as? Bool == false }
        XCTAssertEqual(left.event["reasons"] as? [String], ["operator-not-fullscreen"])
        XCTAssertEqual(left.event["enabled"] as? Bool, true, "availability never changes enabled")
        XCTAssertEqual(left.event["shown"] as? Bool, false)
        XCTAssertTrue(app.all().dropFirst(mark).contains { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == false })
        let windowed = try waitForScreen(desktop, "the subject view to disappear") { s in !self.isTeleprompter(self.subjectStats(s)) }
        XCTAssertGreaterThan(windowed.stats(x: 0, y: 0, width: 1280, height: 720).saturated, 0.2, "the operator window still shows the preview")
        // Hidden, the subject branch does no work: its frame count stands still while the camera's runs on.
        let s1 = try app.wait("a status while hidden", after: left.index + 1) { $0["event"] as? String == "status" }
        let s2 = try app.wait("a later status while hidden", after: s1.index + 1) { $0["event"] as? String == "status" }
        XCTAssertEqual(s1.event["subjectFrames"] as? Int, s2.event["subjectFrames"] as? Int, "no subject frames while hidden")
        XCTAssertGreaterThan(s2.event["cameraFrames"] as? Int ?? 0, s1.event["cameraFrames"] as? Int ?? 0)

        // T turns the accessory off and on: enabled changes, availability does not.
        mark = app.count
        try desktop.key("t")
        let off = try app.wait("the accessory to be disabled", after: mark) { $0["event"] as? String == "accessory" }
        XCTAssertEqual(off.event["enabled"] as? Bool, false)
        XCTAssertEqual(off.event["reasons"] as? [String], ["operator-not-fullscreen"], "T does not change availability")
        try desktop.key("t")
        let on = try app.wait("the accessory to be enabled", after: off.index + 1) { $0["event"] as? String == "accessory" }
        XCTAssertEqual(on.event["enabled"] as? Bool, true)
        XCTAssertEqual(on.event["shown"] as? Bool, false, "still unavailable: not fullscreen")

        // F11 re-enters fullscreen: the subject view comes back; the script continues where it was.
        mark = app.count
        try desktop.key("F11")
        let back = try app.wait("availability after F11", after: mark) { $0["event"] as? String == "availability" && $0["available"] as? Bool == true }
        XCTAssertEqual(back.event["enabled"] as? Bool, true)
        XCTAssertEqual(back.event["shown"] as? Bool, true)
        // The subject view can come back a moment before the window manager has made the operator's window
        // fullscreen again: both, on one screen.
        let again = try waitForScreen(desktop, "the teleprompter to return and the preview to fill its monitor") { s in
            self.isTeleprompter(self.subjectStats(s)) && self.operatorShowsBars(s)
        }
        assertOperatorShowsBars(again)
        // The subject window draws the teleprompter itself: the graph's subject branch carries only the
        // self-view's small picture again (SelfViewDesktopTests: none with the self-view off).
        let s3 = try app.wait("a status while shown", after: back.index + 1) { $0["event"] as? String == "status" }
        let shownStatus = try app.wait("a later status while shown", after: s3.index + 1) { $0["event"] as? String == "status" }
        XCTAssertGreaterThan(shownStatus.event["subjectFrames"] as? Int ?? 0, s2.event["subjectFrames"] as? Int ?? 0, "the self-view's frames flow again")
        let after = try app.wait("the script position after re-entering", after: back.index + 1) { $0["event"] as? String == "status" }
        XCTAssertGreaterThan(after.event["position"] as! Double, positionBefore, "the script kept scrolling through the fullscreen toggle")
        XCTAssertEqual(after.event["speed"] as? String, speed, "the speed survived the fullscreen toggle")
        XCTAssertEqual(after.event["recording"] as? Bool, true)

        // Unplug the subject monitor during the take: unavailable with that reason; the take goes on.
        mark = app.count
        try desktop.unplugSubjectMonitor()
        let unplugged = try app.wait("unavailability after the unplug", after: mark) { $0["event"] as? String == "availability" && $0["available"] as? Bool == false }
        XCTAssertEqual(unplugged.event["reasons"] as? [String], ["no-subject-monitor"])
        XCTAssertEqual(unplugged.event["enabled"] as? Bool, true)
        let single = try waitForScreen(desktop, "the desktop to shrink to the operator monitor") { $0.width == 1280 }
        assertOperatorShowsBars(single)
        let during = try app.wait("the script to go on while unplugged", after: unplugged.index + 1) { $0["event"] as? String == "status" }
        XCTAssertGreaterThan(during.event["position"] as! Double, after.event["position"] as! Double)

        // Plug it back: available and shown again.
        mark = app.count
        try desktop.plugSubjectMonitor()
        let replugged = try app.wait("availability after the replug", after: mark) { $0["event"] as? String == "availability" && $0["available"] as? Bool == true }
        XCTAssertEqual(replugged.event["shown"] as? Bool, true)
        _ = try waitForScreen(desktop, "the teleprompter on the replugged monitor") { s in s.width == 2560 && self.isTeleprompter(self.subjectStats(s)) }
        XCTAssertFalse(app.all().contains { $0["event"] as? String == "take-ended" }, "the take ran through the unplug")

        // The teleprompter keys reach the subject view's script: P pauses, Home restarts, PgDn jumps to the
        // next marker (heading), M mirrors.
        // (The status that follows the key's own event, not a periodic one from before the key was handled.)
        // A key is a binding to a command: the event names the command and that it came from a key.
        func afterKey(_ key: String, _ command: String) throws -> [String: Any] {
            let mark = app.count
            try desktop.key(key)
            let handled = try app.wait("the \(key) key", after: mark) {
                $0["event"] as? String == "command" && $0["cmd"] as? String == command && $0["source"] as? String == "key"
            }
            return try app.wait("a status after \(key)", after: handled.index + 1) {
                $0["event"] as? String == "status" && $0["trigger"] as? String == "command"
            }.event
        }
        XCTAssertEqual(try afterKey("p", "pause")["paused"] as? Bool, true)
        XCTAssertEqual(try afterKey("Home", "jump")["position"] as? Double ?? -1, 0, accuracy: 0.5)
        XCTAssertGreaterThan(try afterKey("Next", "jump")["position"] as? Double ?? 0, 1)
        XCTAssertEqual(try afterKey("m", "mirror")["mirror"] as? String, "h")

        // Q finalises the take and quits.
        try desktop.key("q")
        let ended = try app.wait("take 1 to end") { $0["event"] as? String == "take-ended" }
        try app.wait("the run to stop") { $0["event"] as? String == "stopped" }
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
        XCTAssertGreaterThan(ended.event["frames"] as? Int ?? 0, 60, "one continuous take across the toggles and the unplug")
        let file = ended.event["file"] as! String
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 10_000, "the take file \(file) has the recording")
    }

    /// `--accessory off`: available but not shown (enabled is the user's); T shows it, T hides it again.
    func testAccessoryOffUntilTheUserTurnsItOn() throws {
        let desktop = try VirtualDesktop(test: self)
        let app = try startApp(desktop, ["--accessory", "off"])
        let ready = try app.wait("availability") { $0["event"] as? String == "availability" && $0["available"] as? Bool == true }
        XCTAssertEqual(ready.event["enabled"] as? Bool, false)
        XCTAssertEqual(ready.event["shown"] as? Bool, false)
        let shot = try waitForScreen(desktop, "the preview") { s in s.pixel(Int(4.5 * 1280 / 7), 260).r > 120 }
        assertOperatorShowsBars(shot)
        XCTAssertFalse(isTeleprompter(subjectStats(shot)), "disabled: nothing on the subject monitor")

        try desktop.key("t")
        let on = try app.wait("the accessory to be enabled", after: ready.index + 1) { $0["event"] as? String == "accessory" }
        XCTAssertEqual(on.event["enabled"] as? Bool, true)
        XCTAssertEqual(on.event["shown"] as? Bool, true)
        _ = try waitForScreen(desktop, "the teleprompter") { s in self.isTeleprompter(self.subjectStats(s)) }

        try desktop.key("t")
        let off = try app.wait("the accessory to be disabled", after: on.index + 1) { $0["event"] as? String == "accessory" }
        XCTAssertEqual(off.event["shown"] as? Bool, false)
        XCTAssertEqual(off.event["available"] as? Bool, true, "turning it off does not change availability")
        _ = try waitForScreen(desktop, "the subject view to go") { s in !self.isTeleprompter(self.subjectStats(s)) }
        // SIGTERM ends a desktop run cleanly too.
        kill(app.process.processIdentifier, SIGTERM)
        let stopped = try app.wait("the run to stop") { $0["event"] as? String == "stopped" }
        XCTAssertEqual(stopped.event["reason"] as? String, "SIGTERM received")
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }

    /// The control socket drives the windows as the keys do: the accessory on, fullscreen off (and so the
    /// accessory unavailable, still enabled), a bad line answered with an error event, quit ends the run.
    func testControlSocketDrivesTheDesktop() throws {
        let desktop = try VirtualDesktop(test: self)
        let socket = desktop.directory.appendingPathComponent("control.sock").path
        let app = try startApp(desktop, ["--accessory", "off", "--control", socket])
        let ready = try app.wait("availability") { $0["event"] as? String == "availability" && $0["available"] as? Bool == true }
        XCTAssertEqual(ready.event["shown"] as? Bool, false)
        try waitFor("the control socket", timeout: 20) { FileManager.default.fileExists(atPath: socket) }

        try send(#"{"cmd":"accessory","on":true}"#, to: socket)
        let on = try app.wait("the accessory to be enabled", after: ready.index + 1) { $0["event"] as? String == "accessory" }
        XCTAssertEqual(on.event["shown"] as? Bool, true)
        _ = try waitForScreen(desktop, "the teleprompter") { s in self.isTeleprompter(self.subjectStats(s)) }

        // The test hub pulls the subject monitor out and plugs it back: the accessory goes unavailable
        // and the subject's screen is left, as when the monitor itself goes; then all comes back.
        try send(#"{"cmd":"unplug","monitor":"subject"}"#, to: socket)
        let gone = try app.wait("the subject monitor to go", after: on.index + 1) { $0["event"] as? String == "availability" && $0["available"] as? Bool == false }
        XCTAssertEqual(gone.event["reasons"] as? [String], ["no-subject-monitor"])
        _ = try waitForScreen(desktop, "the subject window to leave") { s in !self.isTeleprompter(self.subjectStats(s)) }
        try send(#"{"cmd":"replug","monitor":"subject"}"#, to: socket)
        let back = try app.wait("the subject monitor to return", after: gone.index + 1) { $0["event"] as? String == "availability" && $0["available"] as? Bool == true }
        XCTAssertEqual(back.event["shown"] as? Bool, true)
        _ = try waitForScreen(desktop, "the teleprompter again") { s in self.isTeleprompter(self.subjectStats(s)) }

        try send(#"{"cmd":"fullscreen","on":false}"#, to: socket)
        let left = try app.wait("fullscreen to end", after: back.index + 1) { $0["event"] as? String == "availability" && $0["available"] as? Bool == false }
        XCTAssertEqual(left.event["enabled"] as? Bool, true, "availability never changes enabled")
        XCTAssertEqual(left.event["reasons"] as? [String], ["operator-not-fullscreen"])

        try send(#"{"cmd":"swap"}"#, to: socket)
        let refused = try app.wait("the refusal", after: left.index + 1) { $0["event"] as? String == "error" }
        XCTAssertTrue((refused.event["message"] as? String ?? "").contains("second camera"))

        try send(#"{"cmd":"quit"}"#, to: socket)
        let stopped = try app.wait("the run to stop", after: refused.index + 1) { $0["event"] as? String == "stopped" }
        XCTAssertEqual(stopped.event["reason"] as? String, "quit command")
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }

    /// The screen never blanks while a take runs: with the X screen saver set to start after one idle
    /// second, it stays off through a take and starts once the take has ended (the X screen-saver
    /// extension's own state, read as any client reads it).
    func testTheScreenStaysOnWhileATakeRuns() throws {
        let desktop = try VirtualDesktop(test: self)
        XCTAssertEqual(try desktop.run("xset", ["s", "1", "1"]).status, 0)
        let socket = desktop.directory.appendingPathComponent("control.sock").path
        let app = try startApp(desktop, ["--accessory", "off", "--countdown", "0", "--control", socket])
        try app.wait("the run to start") { $0["event"] as? String == "started" }
        try waitFor("the control socket", timeout: 20) { FileManager.default.fileExists(atPath: socket) }
        try waitFor("the screen saver to start while nothing records", timeout: 10, interval: 0.2) { try screenSaverState(desktop) == 1 }
        try send(#"{"cmd":"record"}"#, to: socket)
        let started = try app.wait("the take") { $0["event"] as? String == "take-started" }
        try waitFor("the blanked screen to wake for the take", timeout: 5, interval: 0.1) { try screenSaverState(desktop) == 0 }
        // Three idle seconds, three times the saver's timeout: it never starts.
        for _ in 0..<15 {
            XCTAssertEqual(try screenSaverState(desktop), 0, "the screen blanked during a take")
            Thread.sleep(forTimeInterval: 0.2)
        }
        try send(#"{"cmd":"stop"}"#, to: socket)
        try app.wait("the take to end", after: started.index + 1) { $0["event"] as? String == "take-ended" }
        try waitFor("the screen saver to be allowed again", timeout: 10, interval: 0.2) { try screenSaverState(desktop) == 1 }
        XCTAssertTrue(desktop.tail("duo-capture.log").contains("screen kept on (a take is recording) through the X screen saver"),
                      desktop.tail("duo-capture.log"))
        try send(#"{"cmd":"quit"}"#, to: socket)
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
    }

    /// XScreenSaverQueryInfo's state: 0 off, 1 on (the screen blanked).
    private func screenSaverState(_ desktop: VirtualDesktop) throws -> Int {
        let query = """
            import ctypes, sys
            x11 = ctypes.CDLL("libX11.so.6"); xss = ctypes.CDLL("libXss.so.1")
            class Info(ctypes.Structure):
                _fields_ = [("window", ctypes.c_ulong), ("state", ctypes.c_int), ("kind", ctypes.c_int),
                            ("til_or_since", ctypes.c_ulong), ("idle", ctypes.c_ulong), ("eventMask", ctypes.c_ulong)]
            x11.XOpenDisplay.restype = ctypes.c_void_p
            x11.XDefaultRootWindow.restype = ctypes.c_ulong
            d = ctypes.c_void_p(x11.XOpenDisplay(None))
            info = Info()
            xss.XScreenSaverQueryInfo(d, ctypes.c_ulong(x11.XDefaultRootWindow(d)), ctypes.byref(info))
            print(info.state)
            """
        let r = try desktop.run("python3", ["-c", query])
        guard r.status == 0, let state = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure("cannot read the X screen saver's state: \(r.stderr)")
        }
        return state
    }

    /// One line to the control socket, as a script would send it (Python's socket module).
    private func send(_ line: String, to socket: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode()+b'\\n'); s.close()",
                       socket, line]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "sending \(line)")
    }

    /// One monitor: the operator view works, the accessory is unavailable for want of a second monitor,
    /// and the monitors command lists the one monitor.
    func testOneMonitorRunsWithTheAccessoryUnavailable() throws {
        let desktop = try VirtualDesktop(monitors: 1, test: self)
        let list = try desktop.run(Self.binary.path, ["monitors"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("0\tDUMMY0\t1280x720+0+0"), list.stdout)
        XCTAssertFalse(list.stdout.contains("DUMMY1"), list.stdout)

        let app = try startApp(desktop, [])
        try app.wait("frames to flow") { $0["event"] as? String == "frames" && $0["flowing"] as? Bool == true }
        try app.wait("fullscreen") { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        let shot = try waitForScreen(desktop, "the preview") { s in s.pixel(Int(4.5 * 1280 / 7), 260).r > 120 }
        assertOperatorShowsBars(shot)
        // Esc during the countdown cancels it (and does not leave fullscreen); no take starts.
        try desktop.key("space")
        let countdown = try app.wait("the countdown") { $0["event"] as? String == "countdown" }
        try desktop.key("Escape")
        try app.wait("the countdown to be cancelled", after: countdown.index + 1) { $0["event"] as? String == "countdown-cancelled" }
        let later = try app.wait("a status after the countdown would have ended", timeout: 20) {
            $0["event"] as? String == "status" && ($0["t"] as? Double ?? 0) > (countdown.event["t"] as? Double ?? 0) + 4
        }
        XCTAssertEqual(later.event["recording"] as? Bool, false)
        XCTAssertFalse(app.all().contains { $0["event"] as? String == "take-started" })
        XCTAssertFalse(app.all().contains { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == false })

        let availability = app.all().filter { $0["event"] as? String == "availability" }
        XCTAssertFalse(availability.isEmpty)
        XCTAssertTrue(availability.allSatisfy { $0["available"] as? Bool == false && $0["shown"] as? Bool == false }, "\(availability)")
        XCTAssertEqual(availability.last?["reasons"] as? [String], ["no-subject-monitor"])
        XCTAssertEqual(availability.last?["enabled"] as? Bool, true)
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }

    /// Two monitors, `duo-capture monitors` lists both with connector and geometry.
    func testMonitorsCommandListsBothMonitors() throws {
        let desktop = try VirtualDesktop(test: self)
        let list = try desktop.run(Self.binary.path, ["monitors"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("0\tDUMMY0\t1280x720+0+0\tprimary"), list.stdout)
        XCTAssertTrue(list.stdout.contains("1\tDUMMY1\t1280x720+1280+0"), list.stdout + ((try? desktop.run("xrandr", ["--listmonitors"]).stdout) ?? ""))
        let bad = try desktop.run(Self.binary.path, ["--source", "videotestsrc", "--subject-monitor", "5", "--duration", "5"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("--subject-monitor 5") && bad.stderr.contains("duo-capture monitors"), bad.stderr)
    }

    /// `--help` lists the desktop options and every key of the operator window.
    func testHelpListsTheKeysAndMonitorOptions() throws {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = ["--help"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        for needle in ["--operator-monitor N", "--subject-monitor N", "duo-capture monitors", "--events FILE",
                       "Space", "record / stop", "T ", "F11", "Esc", "Up / Down", "P ", "Home", "PgUp / PgDn", "M ", "Q ",
                       "finalised first"] {
            XCTAssertTrue(text.contains(needle), "--help lacks \(needle)")
        }
    }

    /// No display and no --headless: one line suggesting --headless, exit 64.
    func testNoDisplaySuggestsHeadless() throws {
        let text = try runWithoutDisplay(["--source", "videotestsrc"])
        XCTAssertTrue(text.contains("--headless"), text)
        let monitors = try runWithoutDisplay(["monitors"])
        XCTAssertTrue(monitors.contains("no display found"), monitors)
    }

    /// Runs the binary with no DISPLAY; expects exit 64 and one line on stderr, which it returns.
    func runWithoutDisplay(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 64, file: file, line: line)
        XCTAssertEqual(text.split(separator: "\n").count, 1, text, file: file, line: line)
        return text
    }
}

/// What the monitors show, read from screenshots: shared by the X11 and Wayland end-to-end tests (a
/// 1280x720 operator monitor at 0,0 and a 1280x720 subject monitor at 1280,0).
extension XCTestCase {
    /// The operator monitor shows the SMPTE bars of videotestsrc, fullscreen: the six coloured bars at
    /// their places (below the HUD panel).
    func assertOperatorShowsBars(_ shot: Screenshot, file: StaticString = #filePath, line: UInt = #line) {
        for (name, x, p, shown) in operatorBars(shot) {
            XCTAssertTrue(shown, "operator bar \(name) at x \(x): \(p)", file: file, line: line)
        }
    }

    /// Whether the operator monitor shows the camera's colour bars (below the HUD).
    func operatorShowsBars(_ shot: Screenshot) -> Bool { operatorBars(shot).allSatisfy(\.shown) }

    private func operatorBars(_ shot: Screenshot) -> [(name: String, x: Int, pixel: (r: Int, g: Int, b: Int), shown: Bool)] {
        let expected: [(String, Bool, Bool, Bool)] = [("yellow", true, true, false), ("cyan", false, true, true),
                                                      ("green", false, true, false), ("magenta", true, false, true),
                                                      ("red", true, false, false), ("blue", false, false, true)]
        return expected.enumerated().map { i, bar in
            let (name, r, g, b) = bar
            let x = Int((Double(i + 1) + 0.5) * 1280 / 7)
            let p = shot.pixel(x, 260)
            let on = { (v: Int, want: Bool) in want ? v > 120 : v < 80 }
            return (name, x, p, on(p.r, r) && on(p.g, g) && on(p.b, b))
        }
    }

    /// Red text pixels in the HUD's first line (the "● REC" line is drawn red while recording or counting down).
    func recordingLightPixels(_ shot: Screenshot) -> Int {
        var n = 0
        for y in 10..<34 { for x in 10..<200 { let p = shot.pixel(x, y); if p.r > 200 && p.g < 110 && p.b < 110 { n += 1 } } }
        return n
    }

    /// The teleprompter: mostly dark, with light text in several separate lines, and no test-pattern colour.
    func isTeleprompter(_ s: Screenshot.Stats) -> Bool {
        // The self-view (a sixth of the width, the camera's colours) is the one saturated part: under 5 %.
        s.dark > 0.5 && s.bright > 0.003 && s.bright < 0.3 && s.saturated < 0.05 && s.brightBands >= 2
    }

    func subjectStats(_ shot: Screenshot) -> Screenshot.Stats {
        shot.stats(x: 1280, y: 0, width: 1280, height: 720)
    }


    /// Waits until a screenshot satisfies `condition` (the windows repaint some frames after an event).
    func waitForScreen(_ desktop: TestDesktop, _ what: String, timeout: Double = 20, _ condition: (Screenshot) -> Bool) throws -> Screenshot {
        var last: Screenshot?
        do {
            try waitFor(what, timeout: timeout, interval: 0.2) {
                let s = try desktop.screenshot()
                last = s
                return condition(s)
            }
        } catch {
            let detail = last.map { "\($0.width)x\($0.height), subject half: \($0.width >= 2560 ? "\(subjectStats($0))" : "absent")" } ?? "no screenshot"
            throw Failure("\(error) (\(detail)); \(desktop.tail("duo-capture.log"))")
        }
        return last!
    }
}
