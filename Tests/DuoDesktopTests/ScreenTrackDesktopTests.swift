import Foundation
import XCTest

/// `--screen` on the real two-monitor X desktop (VirtualDesktop): a take holds the camera and the
/// recorded monitor as two video streams of one file, on one clock; a monitor that is not there, or no
/// display at all, is one line before anything starts.
final class ScreenTrackDesktopTests: XCTestCase {
    static var fixture: String {
        VirtualDesktop.repositoryRoot.appendingPathComponent("Tests/DuoDesktopTests/Fixtures/screen_clock.py").path
    }

    /// A clock drawn on monitor 1 (a window of the test's, showing CLOCK_MONOTONIC in ms as luma blocks)
    /// and the camera's test pattern stamped with the time each frame stands for (the test hub's
    /// DUO_TEST_CLOCK_CODE): in the take, the screen track is the monitor's size at 15 fps, and each
    /// screen frame shows the time the camera frame at the same file time shows, within two screen
    /// frames (133 ms). Shifting the screen track by 300 ms fails this (tried by hand on the leg's offset).
    func testTheScreenIsASecondPictureOfTheTakeOnTheSameClock() throws {
        let desktop = try VirtualDesktop(test: self)
        let clock = try desktop.launch("/usr/bin/env", ["python3", Self.fixture, "show", "1280", "0"], log: "clock.out")
        try waitFor("the clock window", timeout: 20) {
            guard clock.isRunning else { throw Failure("the clock window exited: \(desktop.tail("clock.out"))") }
            return desktop.tail("clock.out").contains("shown")
        }
        let takes = desktop.directory.appendingPathComponent("takes").path
        let events = desktop.directory.appendingPathComponent("events.jsonl").path
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = desktop.display
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env["DUO_TEST_CLOCK_CODE"] = "1"
        let run = try runTool(DesktopEndToEndTests.binary.path,
                              ["--headless", "--source", "videotestsrc", "--format", "1280x720@30", "--audio", "none",
                               "--screen", "1", "--countdown", "0", "--record", "--duration", "3",
                               "--record-dir", takes, "--events", events], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("screen track: monitor 1 (DUMMY1, 1280x720+1280+0) at 15 fps"), run.stderr)

        let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: takes).first { $0.hasSuffix(".mkv") }, "no take")
        let path = (takes as NSString).appendingPathComponent(file)
        let probe = try runTool("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=width,height,avg_frame_rate",
                                            "-of", "csv=p=0", path], environment: env)
        XCTAssertEqual(probe.stdout.split(separator: "\n"), ["1280,720,30/1", "1280,720,15/1"], "two video streams: camera, then screen")

        // The sidecar and the event name the monitor.
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path.replacingOccurrences(of: ".mkv", with: ".json")))) as? [String: Any]
        let screen = try XCTUnwrap(sidecar?["screen"] as? [String: Any], "sidecar: \(String(describing: sidecar))")
        XCTAssertEqual(screen["connector"] as? String, "DUMMY1")
        XCTAssertEqual(screen["geometry"] as? String, "1280x720+1280+0")
        XCTAssertEqual(screen["rate"] as? Int, 15)
        XCTAssertGreaterThan(screen["frames"] as? Int ?? 0, 35, "about 45 screen frames in 3 s")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains("\"event\":\"screen\"") && $0.contains("\"state\":\"recording\"") && $0.contains("DUMMY1") },
                      lines.joined(separator: "\n"))

        // Sync: every screen frame's clock against the camera frame nearest in file time.
        let read = try runTool("python3", [Self.fixture, "read", path], environment: env)
        XCTAssertEqual(read.status, 0, read.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        let pairs = try XCTUnwrap(result["pairs"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(pairs.count, 30, "screen frames whose clock read: \(result["screenFrames"] ?? 0), camera \(result["cameraFrames"] ?? 0)")
        let twoFrames = 2 * 1000 / 15
        let apart = pairs.map { p -> Int in
            // The codes wrap at 2^24 ms; a difference across the wrap is taken the short way.
            var d = (p["screen"] as? Int ?? 0) - (p["camera"] as? Int ?? 0)
            if d > 1 << 23 { d -= 1 << 24 } else if d < -(1 << 23) { d += 1 << 24 }
            return d
        }
        let worst = apart.map(abs).max() ?? 0
        print("screen track sync: \(pairs.count) screen frames, screen clock minus camera clock \(apart.min() ?? 0)...\(apart.max() ?? 0) ms")
        XCTAssertLessThanOrEqual(worst, twoFrames, "screen minus camera, ms, per screen frame: \(apart)")

        // inspect decodes both; the report shows both pictures; the MP4 remux keeps both tracks.
        let inspect = try runTool(DesktopEndToEndTests.binary.path, ["inspect", path], environment: env)
        XCTAssertTrue(inspect.stdout.contains("screen track") && inspect.stdout.contains("1280x720"), inspect.stdout + inspect.stderr)
        let report = try runTool(DesktopEndToEndTests.binary.path, ["report", takes], environment: env)
        XCTAssertEqual(report.status, 0, report.stderr)
        let html = try String(contentsOfFile: (takes as NSString).appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "alt=\"screen thumbnail\"").count - 1, 6, "six screen thumbnails")
        XCTAssertTrue(html.contains("DUMMY1 1280x720@15"))
        let json = try runTool(DesktopEndToEndTests.binary.path, ["report", takes, "--json"], environment: env)
        let listed = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["takeList"] as? [[String: Any]])
        let screenJSON = try XCTUnwrap(listed.first?["screen"] as? [String: Any], json.stdout)
        XCTAssertEqual(screenJSON["connector"] as? String, "DUMMY1")
        XCTAssertEqual(screenJSON["thumbnails"] as? Int, 6)
        let remux = try runTool(DesktopEndToEndTests.binary.path, ["remux", path], environment: env)
        XCTAssertEqual(remux.status, 0, remux.stderr)
        let mp4 = try runTool("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=width,height",
                                          "-of", "csv=p=0", path.replacingOccurrences(of: ".mkv", with: ".mp4")], environment: env)
        XCTAssertEqual(mp4.stdout.split(separator: "\n"), ["1280,720", "1280,720"], "the MP4 keeps both pictures")
    }

    /// On the desktop with both monitors holding duo-capture's windows, `--screen` alone records the
    /// operator's monitor (never the subject's teleprompter) and says so: the start line and the event.
    func testTheDefaultOnTheDesktopIsTheOperatorsMonitorSaidAtStart() throws {
        let desktop = try VirtualDesktop(test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--source", "videotestsrc", "--format", "1280x720@30", "--audio", "none", "--script", script,
                                    "--events", events.path, "--record-dir", desktop.directory.appendingPathComponent("takes").path,
                                    "--screen", "--duration", "3"],
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        let app = DesktopEndToEndTests.App(process: p, events: events)
        let (event, _) = try app.wait("the screen event") { $0["event"] as? String == "screen" }
        XCTAssertEqual(event["connector"] as? String, "DUMMY0", "\(event)")
        XCTAssertEqual(event["state"] as? String, "recording")
        XCTAssertTrue((event["reason"] as? String ?? "").contains("operator's monitor"), "\(event)")
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
        let log = try String(contentsOf: desktop.directory.appendingPathComponent("duo-capture.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("screen track: monitor 0 (DUMMY0, 1280x720+0+0) at 15 fps"), log)
    }

    /// `--screen 7` on a two-monitor desktop, and `--screen` with no display: one line each, saying what
    /// to do, exit 64, before the camera is opened.
    func testAMonitorThatIsNotThereAndNoDisplayAreOneLine() throws {
        let desktop = try VirtualDesktop(test: self)
        let bad = try desktop.run(DesktopEndToEndTests.binary.path, ["--headless", "--source", "videotestsrc", "--screen", "7", "--duration", "2"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--screen 7: no such monitor") && bad.stderr.contains("0 DUMMY0 1280x720+0+0, 1 DUMMY1 1280x720+1280+0"), bad.stderr)

        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let none = try runTool(DesktopEndToEndTests.binary.path, ["--headless", "--source", "videotestsrc", "--screen", "--duration", "2"], environment: env)
        XCTAssertEqual(none.status, 64, none.stderr)
        XCTAssertEqual(none.stderr.split(separator: "\n").count, 1, none.stderr)
        XCTAssertTrue(none.stderr.contains("--screen: no display to record") && none.stderr.contains("leave out --screen"), none.stderr)
    }
}
