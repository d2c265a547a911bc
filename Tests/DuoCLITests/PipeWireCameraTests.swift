@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoPlatform
import Foundation
import XCTest

/// Cameras through PipeWire, end to end: a private PipeWire daemon (`PipeWireDaemon`) with virtual
/// camera nodes, and the real duo-capture binary talking to it.
final class PipeWireCameraTests: XCTestCase {
    /// What a duo-capture child needs: the daemon's runtime folder (its socket, and the camera locks)
    /// and a state folder of its own (the camera remembered).
    private func environment(_ daemon: PipeWireDaemon, _ dir: String) -> [String: String] {
        daemon.environment.merging(["XDG_STATE_HOME": "\(dir)/state"]) { _, new in new }
    }

    private func events(_ path: String) -> [String] {
        (try? eventStory(path)) ?? []
    }

    /// The fixture itself: a published camera is listed by `duo-capture cameras` under that daemon only,
    /// with its identity and formats, and is gone when unpublished.
    func testCamerasListsAPipeWireCameraWithItsFormats() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-fixture-cam", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        let listed = try duoCapture(["cameras"], environment: daemon.environment)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let line = listed.stdout.split(separator: "\n").first { $0.contains("duo-fixture-cam") }.map(String.init) ?? ""
        XCTAssertTrue(line.hasPrefix("-\tduo-fixture-cam\tid:pipewire:duo-fixture-cam\tbest 320x240@30, 1 modes\t(auto)"), listed.stdout)
        XCTAssertFalse(listed.stderr.contains("PipeWire"), "the daemon answers: no notice (\(listed.stderr))")
        try daemon.unpublish("duo-fixture-cam")
        let after = try duoCapture(["cameras"], environment: daemon.environment)
        XCTAssertFalse(after.stdout.contains("duo-fixture-cam"), after.stdout)
    }

    /// `--camera auto` opens the PipeWire camera (PipeWire before the simulated stand-in), the start line
    /// says PipeWire opened it, and the take it records decodes at the camera's size and rate.
    func testARunRecordsFromAPipeWireCamera() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-pw-rec", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        let dir = try scratchDirectory(self)
        let run = try duoCapture(["--headless", "--record", "--record-dir", dir, "--countdown", "0", "--duration", "2",
                                  "--audio", "none", "--json"], environment: environment(daemon, dir))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("capturing duo-pw-rec (PipeWire) at 320x240@30"), run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1)
        let decoded = try MediaInspector.decode(report.takes[0].file)
        XCTAssertGreaterThanOrEqual(decoded.video.frames, 45, "about 2 s at 30 fps from the PipeWire node")
        XCTAssertEqual(decoded.width, 320)
        XCTAssertEqual(decoded.height, 240)
        XCTAssertEqual(try String(contentsOfFile: "\(dir)/state/duo-capture/last-camera", encoding: .utf8), "pipewire:duo-pw-rec\n")
    }

    /// The only camera's node removed mid-take: the camera is lost at once and the take finalised (it
    /// decodes); the node published again brings the camera back, under the same identity.
    func testANodeRemovedMidTakeIsALossAndPublishingItAgainBringsItBack() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-pw-loss", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        let dir = try scratchDirectory(self)
        let eventsFile = "\(dir)/events.jsonl"
        let timeline = "\(dir)/timeline.jsonl"
        try Data(#"{"at": 0.1, "cmd": "record"}"#.utf8).write(to: URL(fileURLWithPath: timeline))
        let run = try BackgroundRun(["--headless", "--camera", "pipewire:duo-pw-loss", "--timeline", timeline, "--record-dir", dir,
                                     "--countdown", "0", "--audio", "none", "--events", eventsFile, "--json"],
                                    directory: dir, environment: environment(daemon, dir))
        addTeardownBlock { if run.process.isRunning { run.process.terminate(); run.process.waitUntilExit() } }
        try run.wait(for: "the take to start") { events(eventsFile).contains("take") }
        // A second of frames in the take before the camera goes (the run's status event, each second).
        try run.wait(for: "a second of the take") {
            ((try? String(contentsOfFile: eventsFile, encoding: .utf8)) ?? "").split(separator: "\n").contains { line in
                guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      e["event"] as? String == "status", e["recording"] as? Bool == true else { return false }
                return (e["cameraFrames"] as? Int ?? 0) >= 45
            }
        }
        try daemon.unpublish("duo-pw-loss")
        try run.wait(for: "the camera lost and the take ended") { events(eventsFile).starts(with: ["take", "lost A", "ended"]) }
        try daemon.publishCamera("duo-pw-loss", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        try run.wait(for: "the camera back") { events(eventsFile).contains("restored A") }
        kill(run.process.processIdentifier, SIGINT)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertEqual(Array(events(eventsFile).prefix(4)), ["take", "lost A", "ended", "restored A"], run.stderr)
        let lost = try String(contentsOfFile: eventsFile, encoding: .utf8).split(separator: "\n").first { $0.contains("camera-lost") }
        XCTAssertTrue(lost?.contains("unplugged") ?? false, "lost at once, when the node went: \(lost ?? "")")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1)
        XCTAssertGreaterThanOrEqual(try MediaInspector.decode(report.takes[0].file).video.frames, 15, "the take before the loss plays")
    }

    /// With a PipeWire daemon running, every device monitor duo-capture starts runs PipeWire's provider,
    /// and stopping the last one aborted the process about one time in two (heap corruption as its
    /// thread ends). Here the only monitor is the one `--audio auto` starts to look for a microphone
    /// (the camera is simulated): ten start-ups in a row never abort.
    func testDeviceMonitorsUnderPipeWireNeverAbortTheProcess() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishMicrophone("duo-pw-monitor-mic")
        let dir = try scratchDirectory(self)
        for attempt in 1...10 {
            let run = try duoCapture(["pipeline", "--headless", "--camera", "inner", "--audio", "auto"], environment: environment(daemon, dir))
            XCTAssertEqual(run.status, 0, "start-up \(attempt): \(run.stderr.prefix(300))")
            guard run.status == 0 else { break }
        }
    }

    /// A PipeWire camera belongs to one duo-capture at a time: a second one asking for it hears who has
    /// it (the lock is on the camera's identity), in one line.
    func testASecondDuoCaptureIsToldWhoHasThePipeWireCamera() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-pw-lock", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        let dir = try scratchDirectory(self)
        let eventsFile = "\(dir)/events.jsonl"
        let first = try BackgroundRun(["--headless", "--camera", "pipewire:duo-pw-lock", "--audio", "none", "--events", eventsFile],
                                      directory: dir, environment: environment(daemon, dir))
        addTeardownBlock { if first.process.isRunning { first.process.terminate(); first.process.waitUntilExit() } }
        try first.wait(for: "the first run to start") {
            ((try? String(contentsOfFile: eventsFile, encoding: .utf8)) ?? "").contains("\"started\"")
        }
        let second = try duoCapture(["--headless", "--camera", "id:pipewire:duo-pw-lock", "--duration", "1"], environment: environment(daemon, dir))
        XCTAssertEqual(second.status, 70, second.stderr)
        XCTAssertEqual(second.stderr.split(separator: "\n").count, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("camera id:pipewire:duo-pw-lock is in use by duo-capture pid \(first.process.processIdentifier)"), second.stderr)
        kill(first.process.processIdentifier, SIGINT)
        XCTAssertEqual(first.finish(), 0, first.stderr)
    }

    /// Two PipeWire cameras: `formats` intersects them like any cameras; as one virtual camera, B's node
    /// removed while B is on the air is a loss A takes over in the same take, and B published again
    /// comes back.
    func testTwoPipeWireCamerasAsOneVirtualCameraSurviveBGoing() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-pw-a", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1", pattern: "ball")
        try daemon.publishCamera("duo-pw-b", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1", pattern: "snow")
        let dir = try scratchDirectory(self)
        let formats = try duoCapture(["formats", "pipewire:duo-pw-a", "id:pipewire:duo-pw-b"], environment: environment(daemon, dir))
        XCTAssertEqual(formats.status, 0, formats.stdout + formats.stderr)
        XCTAssertTrue(formats.stdout.contains("A: duo-pw-a (PipeWire): 320x240@30"), formats.stdout)
        XCTAssertTrue(formats.stdout.hasSuffix("choice: 320x240@30\n"), formats.stdout)
        let eventsFile = "\(dir)/events.jsonl"
        let timeline = "\(dir)/timeline.jsonl"
        try Data("""
            {"at": 0.1, "cmd": "record"}
            {"at": 0.5, "cmd": "swap"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let run = try BackgroundRun(["--headless", "--camera", "pipewire:duo-pw-a", "--camera", "pipewire:duo-pw-b", "--timeline", timeline,
                                     "--record-dir", dir, "--countdown", "0", "--audio", "none", "--events", eventsFile, "--json"],
                                    directory: dir, environment: environment(daemon, dir))
        addTeardownBlock { if run.process.isRunning { run.process.terminate(); run.process.waitUntilExit() } }
        try run.wait(for: "B on the air") { events(eventsFile).starts(with: ["take", "swap"]) }
        try daemon.unpublish("duo-pw-b")
        try run.wait(for: "B lost and A back on the air") { events(eventsFile).starts(with: ["take", "swap", "lost B", "swap"]) }
        try daemon.publishCamera("duo-pw-b", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1", pattern: "snow")
        try run.wait(for: "B back") { events(eventsFile).contains("restored B") }
        kill(run.process.processIdentifier, SIGINT)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertEqual(Array(events(eventsFile).prefix(5)), ["take", "swap", "lost B", "swap", "restored B"], run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1, "one file through the loss")
        let decoded = try MediaInspector.decode(report.takes[0].file)
        let seconds = Double((decoded.video.lastPTS ?? 0) - (decoded.video.firstPTS ?? 0)) / 1e9
        XCTAssertGreaterThanOrEqual(Double(decoded.video.frames), 0.9 * 30 * seconds, "full rate through the loss")
    }

    /// No PipeWire daemon: `cameras` says so in one line (and lists the rest), and the simulated camera
    /// still records a take that plays.
    func testWithoutAPipeWireDaemonCamerasSaysSoInOneLineAndTheSimulatedCameraRecords() throws {
        let dir = try scratchDirectory(self)
        let runtime = "\(dir)/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let env = ["XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": "\(dir)/state", "DUO_TEST_CAMERAS": "\(dir)/none"]
        let listed = try duoCapture(["cameras"], environment: env)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let lines = listed.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, listed.stderr)
        XCTAssertEqual(lines.first.map(String.init), "duo-capture: no PipeWire daemon at \(runtime)/pipewire-0; PipeWire cameras are not listed, V4L2 and simulated cameras still work (start pipewire and wireplumber for the desktop's cameras)")
        let run = try duoCapture(["--headless", "--camera", "inner", "--format", "320x240@30", "--record", "--record-dir", dir,
                                  "--countdown", "0", "--duration", "1.5", "--audio", "none", "--json"], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertGreaterThanOrEqual(try MediaInspector.decode(report.takes[0].file).video.frames, 30)
    }

    /// The camera portal asked on a session bus where no portal runs (as outside a desktop): a real
    /// D-Bus call that fails, said in a few words, never a hang or a crash. (Asking a real portal, and
    /// the user's refusal, cannot be tested here: no xdg-desktop-portal runs on this machine.)
    func testTheCameraPortalWithoutAPortalServiceIsUnavailable() throws {
        let daemon = try PipeWireDaemon(test: self)
        let saved = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        setenv("DBUS_SESSION_BUS_ADDRESS", daemon.environment["DBUS_SESSION_BUS_ADDRESS"]!, 1)
        defer { if let saved { setenv("DBUS_SESSION_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") } }
        let started = Date()
        let answer = CameraPortal.requestAccess(timeout: 5)
        guard case .unavailable(let why) = answer else { return XCTFail("\(answer)") }
        XCTAssertTrue(why.hasPrefix("the camera portal did not answer ("), why)
        XCTAssertTrue(why.contains("org.freedesktop.portal.Desktop"), why)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the bus says at once that no portal is there")
    }

    /// `--camera pipewire:NODE` and `libcamera:ID` are the identities' own words (also in the settings
    /// file, which goes through the same parser); an empty name is a one-line usage error.
    func testPipeWireAndLibcameraCameraChoicesParse() throws {
        XCTAssertEqual(try Options.parse(["--camera", "pipewire:v4l2_input.usb-1"]).source, .device("pipewire:v4l2_input.usb-1"))
        XCTAssertEqual(try Options.parse(["--camera", "libcamera:/base/soc/cam0"]).source, .device("libcamera:/base/soc/cam0"))
        XCTAssertEqual(try Options.parse(["--camera", "id:pipewire:n", "--camera", "pipewire:m"]).secondSource, .device("pipewire:m"))
        XCTAssertThrowsError(try Options.parse(["--camera", "pipewire:"])) { error in
            XCTAssertTrue((error as! DuoError).message.contains("expected v4l2:/dev/videoN, id:IDENTITY (see duo-capture cameras), pipewire:NODE, libcamera:ID"), "\(error)")
        }
    }

    /// A PipeWire camera named that is not there: one line naming the cameras there are.
    func testAPipeWireCameraThatIsNotThereIsOneLineNamingWhatIs() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-pw-here", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        let dir = try scratchDirectory(self)
        let run = try duoCapture(["--headless", "--camera", "id:pipewire:duo-pw-gone", "--duration", "1"], environment: environment(daemon, dir))
        XCTAssertEqual(run.status, 64, run.stderr)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("camera id:pipewire:duo-pw-gone is not connected (connected: id:pipewire:duo-pw-here)"), run.stderr)
    }
}
