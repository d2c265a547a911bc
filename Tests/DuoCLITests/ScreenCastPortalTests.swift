import Foundation
import XCTest

/// `--screen` on Wayland, through the ScreenCast portal and PipeWire, end to end: a private PipeWire
/// daemon and session bus (`PipeWireDaemon`), a test picture published as a PipeWire node (the monitor),
/// and a stand-in portal on the bus (Fixtures/screencast_portal.py, which says why the real
/// xdg-desktop-portal-wlr cannot stream on a machine without a GPU) that shares that node the way
/// xdg-desktop-portal does. The real duo-capture binary runs headless in a "Wayland session"
/// (WAYLAND_DISPLAY set), so the screen comes only from the portal.
final class ScreenCastPortalTests: XCTestCase {
    static var fixture: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/screencast_portal.py").path
    }

    /// The stand-in portal on the daemon's bus, sharing `node`; stopped by pid at teardown.
    private func startPortal(_ daemon: PipeWireDaemon, node: String, cancel: Bool = false) throws -> (Process, URL) {
        let log = daemon.directory.appendingPathComponent(cancel ? "portal-cancel.log" : "portal.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [Self.fixture, node, "1280", "720"] + (cancel ? ["cancel"] : [])
        p.environment = ProcessInfo.processInfo.environment.merging(daemon.environment) { _, new in new }
        let handle = try FileHandle(forWritingTo: log)
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        addTeardownBlock { if p.isRunning { p.terminate(); p.waitUntilExit() } }
        try PipeWireDaemon.waitFor("the stand-in portal", timeout: 20) {
            guard p.isRunning else { throw PipeWireDaemon.Failure("the stand-in portal exited: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")") }
            return ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("ready")
        }
        return (p, log)
    }

    /// A take under Wayland holds the camera and the portal's stream as two video streams: the second at
    /// the size the portal gave (1280x720) and 15 fps, every frame decoding, its picture the published
    /// node's (SMPTE bars: bright on the left, dark on the right). The portal was asked for one monitor
    /// with the pointer drawn in; the start line, the `screen` event and the sidecar say it is the
    /// portal's. A user who cancels the portal's dialog gets one line, exit 64, before anything starts;
    /// a stream that ends mid-run (sharing stopped) stops only the screen track, and says so.
    func testAWaylandTakeRecordsThePortalsStreamBesideTheCamera() throws {
        let daemon = try PipeWireDaemon(test: self)
        let dir = daemon.directory.appendingPathComponent("run").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let env = daemon.environment.merging(["WAYLAND_DISPLAY": "wayland-duo-test", "XDG_STATE_HOME": "\(dir)/state"]) { _, new in new }

        // Cancelled in the dialog: one line.
        let (cancelling, _) = try startPortal(daemon, node: "duo-screen", cancel: true)
        let cancelled = try duoCapture(["--headless", "--source", "videotestsrc", "--audio", "none", "--screen", "--duration", "2"], environment: env)
        cancelling.terminate()
        cancelling.waitUntilExit()
        XCTAssertEqual(cancelled.status, 64, cancelled.stderr)
        XCTAssertEqual(cancelled.stderr.split(separator: "\n").count, 1, cancelled.stderr)
        XCTAssertTrue(cancelled.stderr.contains("the ScreenCast portal gave no screen to record (the ScreenCast portal was cancelled)")
                      && cancelled.stderr.contains("start again and pick a monitor in its dialog"), cancelled.stderr)

        try daemon.publishCamera("duo-screen", caps: "video/x-raw,format=BGRx,width=1280,height=720,framerate=30/1", pattern: "smpte")
        let (_, portalLog) = try startPortal(daemon, node: "duo-screen")
        let takes = "\(dir)/takes", events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "640x360@30", "--audio", "none", "--screen",
                                  "--countdown", "0", "--record", "--duration", "3", "--record-dir", takes, "--events", events],
                                 environment: env)
        let portal = (try? String(contentsOf: portalLog, encoding: .utf8)) ?? ""
        XCTAssertEqual(run.status, 0, run.stderr + "\nportal:\n" + portal)
        XCTAssertTrue(run.stderr.contains("screen track: the monitor the ScreenCast portal shares (PipeWire node ")
                      && run.stderr.contains("1280x720+0+0) at 15 fps, recorded 1280x720"), run.stderr)
        XCTAssertTrue(portal.contains("select types=1 multiple=False cursor_mode=2"), "one monitor, pointer drawn in: \(portal)")
        XCTAssertTrue(portal.contains("call OpenPipeWireRemote"), portal)

        let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: takes).first { $0.hasSuffix(".mkv") }, "no take")
        let path = "\(takes)/\(file)"
        let probe = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"),
                                 ["-v", "error", "-count_frames", "-select_streams", "v",
                                  "-show_entries", "stream=width,height,avg_frame_rate,nb_read_frames", "-of", "csv=p=0", path], timeout: 60)
        let streams = probe.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        XCTAssertEqual(streams.map { Array($0.prefix(3)) }, [["640", "360", "30/1"], ["1280", "720", "15/1"]], probe.stdout + probe.stderr)
        XCTAssertTrue(probe.stderr.isEmpty, "every frame decodes: \(probe.stderr)")
        // 3 s on one clock: about 90 camera and 45 screen frames (on pipewiresrc's own clock the camera
        // counted 68 frames and the screen 1256 in a take that should have been 3 s).
        XCTAssertTrue((80...95).contains(Int(streams.first?.last ?? "") ?? 0), "about 90 camera frames in 3 s: \(probe.stdout)")
        XCTAssertTrue((38...50).contains(Int(streams.last?.last ?? "") ?? 0), "about 45 screen frames in 3 s: \(probe.stdout)")

        // The screen stream's picture is the node's: SMPTE bars, one luma value per eighth of the width.
        let bars = "\(dir)/bars.gray"
        let frame = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                 ["-v", "error", "-y", "-i", path, "-map", "0:v:1", "-ss", "1", "-frames:v", "1", "-vf", "crop=iw:ih/2:0:0,scale=8:1",
                                  "-f", "rawvideo", "-pix_fmt", "gray", bars], timeout: 60)
        let luma = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: bars))) ?? Data())
        XCTAssertEqual(luma.count, 8, frame.stderr)
        XCTAssertTrue(luma.count == 8 && luma[0] > 150 && luma[6] < 80, "bars bright to dark: \(luma)")

        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path.replacingOccurrences(of: ".mkv", with: ".json")))) as? [String: Any]
        let screen = try XCTUnwrap(sidecar?["screen"] as? [String: Any], "\(String(describing: sidecar))")
        XCTAssertEqual(screen["connector"] as? String, "portal")
        XCTAssertEqual(screen["geometry"] as? String, "1280x720+0+0")
        let story = try String(contentsOfFile: events, encoding: .utf8)
        XCTAssertTrue(story.split(separator: "\n").contains { $0.contains("\"event\":\"screen\"") && $0.contains("\"state\":\"recording\"") && $0.contains("ScreenCast portal") }, story)

        // Sharing stopped mid-run (the node goes, as when the user stops sharing; pipewiresrc itself says
        // nothing): a `screen` event `stopped` saying so once the watchdog's 5 s have passed, and the run
        // goes on to its normal end.
        let own = "\(dir)/stopped"
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        let later = "\(own)/events.jsonl"
        let live = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "640x360@30", "--audio", "none", "--screen",
                                      "--duration", "9", "--events", later], directory: own, environment: env)
        addTeardownBlock { if live.process.isRunning { kill(live.process.processIdentifier, SIGKILL); live.process.waitUntilExit() } }
        func said(_ state: String) -> String? {
            ((try? String(contentsOfFile: later, encoding: .utf8)) ?? "").split(separator: "\n")
                .first { $0.contains("\"event\":\"screen\"") && $0.contains("\"state\":\"\(state)\"") }.map(String.init)
        }
        try live.wait(for: "the screen track recording") { said("recording") != nil }
        try daemon.unpublish("duo-screen")
        let gone = Date()
        try live.wait(upTo: 15, for: "the screen track to stop") { said("stopped") != nil }
        let took = Date().timeIntervalSince(gone)
        XCTAssertTrue(said("stopped")?.contains("sent no picture for 5 s: screen sharing was stopped") ?? false, said("stopped") ?? "")
        XCTAssertTrue((3.5...8).contains(took), "stopped \(took) s after the node went (the watchdog waits 5 s)")
        XCTAssertEqual(live.finish(), 0, live.stderr)
        XCTAssertTrue(live.stderr.contains("warning: the screen track stopped"), live.stderr)
    }

    /// A Wayland session without a session bus (so no portal): one line naming what to install, exit 64,
    /// before the camera is opened; `pipeline --screen` there is one line too.
    func testWithoutAPortalTheLineSaysWhatToInstall() throws {
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--audio", "none", "--screen", "--duration", "2"],
                                 environment: ["WAYLAND_DISPLAY": "wayland-duo-test", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/duo-bus"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("--screen: this is a Wayland session and no ScreenCast portal answered (no session bus")
                      && run.stderr.contains("install xdg-desktop-portal") && run.stderr.contains("xdg-desktop-portal-wlr for sway"), run.stderr)
        // `pipeline` cannot print a portal's stream for gst-launch-1.0, and asks no portal: one line.
        let printed = try duoCapture(["pipeline", "--headless", "--source", "videotestsrc", "--screen"],
                                     environment: ["WAYLAND_DISPLAY": "wayland-duo-test", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/duo-bus"])
        XCTAssertEqual(printed.status, 64, printed.stderr)
        XCTAssertTrue(printed.stderr.contains("pipeline --screen: on Wayland the screen comes from the ScreenCast portal"), printed.stderr)
    }
}
