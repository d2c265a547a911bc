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

    // MARK: Nodes the graph cannot take, and odd sizes

    /// Nodes no format can be agreed with: v210, r210 and IYU2 are formats the camera chain's first
    /// element (videoflip) does not take; PipeWire 0.3.65 has no name for Y444_16LE, NV12_10LE32 and
    /// Y412_LE, so those nodes offer a format with no pixel format at all, as the seventh does, published
    /// from caps naming none. `said` is how the format is named back (as PipeWire offers it).
    private static let unusableNodes: [(name: String, format: String?, said: String)] = [
        ("duo-pw-v210", "v210", "in v210"), ("duo-pw-y444-16", "Y444_16LE", "with no pixel format"),
        ("duo-pw-r210", "r210", "in r210"), ("duo-pw-iyu2", "IYU2", "in IYU2"),
        ("duo-pw-nv12-10", "NV12_10LE32", "with no pixel format"), ("duo-pw-y412", "Y412_LE", "with no pixel format"),
        ("duo-pw-noformat", nil, "with no pixel format"),
    ]

    /// Each node above: `cameras` marks it unusable (and auto takes the one usable node beside them);
    /// named with `--camera`, the start ends by itself at `--start-timeout` with one line naming the
    /// node and its format, exit 69 (it took 30 s and said "the pipeline refused to start", exit 70);
    /// and SIGTERM, SIGINT or SIGHUP while it waits for PipeWire ends the run within 2 s (they were
    /// held until the 30 s were over). The nodes are published at once and serve both halves.
    func testNodesInFormatsTheGraphCannotTakeAreUnusableAndEndTheStartByThemselves() throws {
        let daemon = try PipeWireDaemon(test: self)
        let nodes = Self.unusableNodes
        try daemon.publishCameras(nodes.map { node in
            (node.name, "video/x-raw,\(node.format.map { "format=\($0)," } ?? "")width=320,height=240,framerate=30/1")
        } + [("duo-pw-usable", "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")])
        let dir = try scratchDirectory(self)

        // The device monitor may see a node a moment after pw-cli does: asked again until all are there.
        var listed = Run(status: -1, stdout: "", stderr: "")
        try PipeWireDaemon.waitFor("cameras to list every node", timeout: 20, interval: 0.2) {
            listed = try duoCapture(["cameras"], environment: environment(daemon, dir))
            return (nodes.map(\.name) + ["duo-pw-usable"]).allSatisfy { listed.stdout.contains("\t\($0)\t") }
        }
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        for node in nodes {
            let line = lines.first { $0.hasPrefix("-\t\(node.name)\t") } ?? ""
            let why = node.said == "with no pixel format" ? "its modes name no pixel format" : "it offers only \(node.format!), which duo-capture cannot convert"
            XCTAssertTrue(line.hasSuffix("\tunusable: \(why) (1 modes)"), "\(node.name): \(listed.stdout)")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("-\tduo-pw-usable\t") && $0.hasSuffix("best 320x240@30, 1 modes\t(auto)") }, listed.stdout)

        // Named, each ends by itself at the bound.
        func start(_ node: String, timeout: String) throws -> (run: BackgroundRun, events: String) {
            let own = "\(dir)/\(node)-\(timeout)"
            try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
            let run = try BackgroundRun(["--headless", "--camera", "pipewire:\(node)", "--start-timeout", timeout, "--audio", "none",
                                         "--events", "\(own)/events.jsonl"], directory: own, environment: environment(daemon, own))
            addTeardownBlock { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL); run.process.waitUntilExit() } }
            return (run, "\(own)/events.jsonl")
        }
        let launched = Date()
        let bounded = try nodes.map { try start($0.name, timeout: "3") }
        try PipeWireDaemon.waitFor("every bounded start to end", timeout: 60) { bounded.allSatisfy { !$0.run.process.isRunning } }
        let took = Date().timeIntervalSince(launched)
        for (node, run) in zip(nodes, bounded.map(\.run)) {
            XCTAssertEqual(run.finish(), 69, "\(node.name): \(run.stderr)")
            let said = run.stderr.split(separator: "\n")
            XCTAssertEqual(said.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("duo-capture: error: camera \(node.name) (PipeWire) gave no first frame within 3 s: no format could be agreed with PipeWire node \(node.name), which offers 320x240@30 \(node.said)"), run.stderr)
        }
        XCTAssertLessThan(took, 20, "the starts end at their 3 s bound, not at pipewiresrc's own 30 s")

        // A signal while each waits inside pipewiresrc's wait for a format: after its `starting` event,
        // once its camera's streaming thread (GStreamer names it camera:src) runs, blocked in that wait.
        // One of the three signals each.
        let waiting = try nodes.map { try start($0.name, timeout: "60") }
        try PipeWireDaemon.waitFor("every run to wait for PipeWire", timeout: 30) {
            guard waiting.allSatisfy({ $0.run.process.isRunning }) else { throw PipeWireDaemon.Failure("a run ended early: \(waiting.map(\.run.stderr))") }
            return waiting.allSatisfy { w in
                ((try? String(contentsOfFile: w.events, encoding: .utf8)) ?? "").contains(#""event":"starting""#)
                    && Self.threadNames(w.run.process.processIdentifier).contains("camera:src")
            }
        }
        let signals = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")]
        var sent: [Date] = [], ended: [Date?] = Array(repeating: nil, count: waiting.count)
        for (i, w) in waiting.enumerated() {
            kill(w.run.process.processIdentifier, signals[i % 3].0)
            sent.append(Date())
        }
        try PipeWireDaemon.waitFor("every signalled run to end", timeout: 60, interval: 0.005) {
            for (i, w) in waiting.enumerated() where ended[i] == nil && !w.run.process.isRunning { ended[i] = Date() }
            return !ended.contains(nil)
        }
        for (i, w) in waiting.enumerated() {
            XCTAssertEqual(w.run.finish(), 0, w.run.stderr)
            XCTAssertTrue(w.run.stderr.contains("stopped before the capture graph started (\(signals[i % 3].1) received)"), w.run.stderr)
            XCTAssertLessThanOrEqual(ended[i]!.timeIntervalSince(sent[i]), 2, "\(nodes[i].name): \(signals[i % 3].1) to exit")
        }
    }

    /// The names of a process's threads (`/proc/PID/task/*/comm`).
    private static func threadNames(_ pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// A node at an odd size (641x479) is listed at its own size, opens, and records a take that decodes
    /// at the even size its chain scales it to: 640x478 (each odd side one pixel smaller; x264 takes no
    /// odd 4:2:0 side, and every take stopped after one frame). The start line says so, once.
    func testAnOddSizedNodeRecordsATakeAtAnEvenSize() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-pw-odd", caps: "video/x-raw,format=YUY2,width=641,height=479,framerate=30/1")
        let dir = try scratchDirectory(self)
        var listed = Run(status: -1, stdout: "", stderr: "")
        try PipeWireDaemon.waitFor("cameras to list the node", timeout: 20, interval: 0.2) {
            listed = try duoCapture(["cameras"], environment: environment(daemon, dir))
            return listed.stdout.contains("\tduo-pw-odd\t")
        }
        XCTAssertTrue(listed.stdout.contains("-\tduo-pw-odd\tid:pipewire:duo-pw-odd\tbest 641x479@30, 1 modes"), listed.stdout)
        let run = try duoCapture(["--headless", "--camera", "pipewire:duo-pw-odd", "--record", "--record-dir", dir, "--countdown", "0",
                                  "--duration", "2", "--audio", "none", "--json"], environment: environment(daemon, dir))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("capturing duo-pw-odd (PipeWire) at 640x478@30 (camera mode 641x479@30 YUY2; odd size 641x479 scaled to 640x478)"), run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: "odd size").count, 2, "said once: \(run.stderr)")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1)
        let decoded = try MediaInspector.decode(report.takes[0].file)
        XCTAssertEqual(decoded.width, 640)
        XCTAssertEqual(decoded.height, 478)
        XCTAssertGreaterThanOrEqual(decoded.video.frames, 45, "about 2 s at 30 fps, not one frame")
    }
}
