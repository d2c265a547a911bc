import DuoCore
import DuoMedia
import DuoPlatform
import Foundation
import XCTest

/// What an events file says happened to takes and cameras, one short line each: "take", "ended",
/// "swap", "lost B", "restored B", "stopped quit command".
func eventStory(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
        guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        switch e["event"] as? String {
        case "camera-lost": return "lost \(e["camera"] as? String ?? "?")"
        case "camera-restored": return "restored \(e["camera"] as? String ?? "?")"
        case "swap": return "swap"
        case "take-started": return "take"
        case "take-ended": return "ended"
        case "stopped": return "stopped \(e["reason"] as? String ?? "")"
        default: return nil
        }
    }
}

/// The real executable, run as a user would, with its stdout, stderr and exit code.
struct Run {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs a built binary to its end: by default duo-capture with the test hub registered (test cameras,
/// fault commands); `product: "duo-capture"` runs the program users install.
func duoCapture(_ arguments: [String], environment: [String: String] = [:], product: String = "duo-capture-testhub") throws -> Run {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(product)
    let executable = FileManager.default.fileExists(atPath: binary.path)
        ? binary
        : URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/\(product)")
    return try runToEnd(executable, arguments, removing: ["DISPLAY", "WAYLAND_DISPLAY"], environment: environment, timeout: 90)
}

/// Runs `executable` to its end with this process's environment less `removing`, plus `environment`.
/// One that should have ended by itself but did not within `timeout` seconds is terminated: a failure,
/// not a hang of the suite.
func runToEnd(_ executable: URL, _ arguments: [String], removing: [String] = [], environment: [String: String] = [:],
              timeout: Double) throws -> Run {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for key in removing { env.removeValue(forKey: key) }
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs what `duo-capture pipeline` printed under gst-launch-1.0 for 30 video frames (plus `limits`, such
/// as an audio source's num-buffers), writing the take to `file`. Returns gst-launch's exit status.
func runPrintedGraph(_ printed: String, writingTo file: String, limits: [String: String] = [:]) throws -> Int32 {
    var line = String(printed.dropFirst("gst-launch-1.0 -e ".count)).trimmingCharacters(in: .whitespacesAndNewlines)
    line = line.replacingOccurrences(of: "is-live=true", with: "is-live=true num-buffers=30")
    for (from, to) in limits { line = line.replacingOccurrences(of: from, with: to) }
    line = line.replacingOccurrences(of: #"'location="[^"]*"[^ ]*"#, with: "'location=\"\(file)\"'", options: .regularExpression)
    let launch = Process()
    launch.executableURL = URL(fileURLWithPath: "/bin/sh")
    launch.arguments = ["-c", "gst-launch-1.0 -q -e \(line)"]
    try launch.run()
    launch.waitUntilExit()
    return launch.terminationStatus
}

func scratchDirectory(_ test: XCTestCase) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-capture-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir.path
}

final class CommandLineTests: XCTestCase {
    /// The issue's headline command, on a small format: one take recorded, summary printed, file plays.
    func testHeadlessRunRecordsOneTakeThatPlays() throws {
        let dir = try scratchDirectory(self)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "2", "--record",
                                  "--record-dir", dir, "--format", "320x240@30", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        struct Summary: Decodable {
            struct Branch: Decodable { let frames: Int64; let dropped: Int64 }
            struct Take: Decodable { let file: String; let frames: Int64; let durationSeconds: Double }
            let camera: Branch, operatorView: Branch, subjectView: Branch
            let takes: [Take]
            let firstPreviewFrameMs: Double?
        }
        let summary = try JSONDecoder().decode(Summary.self, from: Data(run.stdout.utf8))
        XCTAssertGreaterThan(summary.camera.frames, 40)
        XCTAssertGreaterThan(summary.operatorView.frames, 40)
        XCTAssertGreaterThan(summary.subjectView.frames, 40)
        XCTAssertEqual(summary.operatorView.dropped, 0)
        XCTAssertGreaterThan(try XCTUnwrap(summary.firstPreviewFrameMs), 0, "the first preview frame is reported (Benchmarks/startup.py)")
        XCTAssertEqual(summary.takes.count, 1)
        let take = summary.takes[0]
        XCTAssertTrue(take.file.hasPrefix(dir) && take.file.hasSuffix("-take01.mkv"), take.file)
        let decoded = try MediaInspector.decode(take.file)
        XCTAssertEqual(Double(decoded.video.frames), Double(take.frames), accuracy: 1)
        XCTAssertEqual(take.durationSeconds, 2, accuracy: 0.25)
    }

    func testHumanSummaryNamesEveryBranch() throws {
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "0.5", "--format", "160x120@15", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        for word in ["camera", "operator", "subject", "dropped", "160x120@15"] {
            XCTAssertTrue(run.stdout.contains(word), "summary lacks \(word): \(run.stdout)")
        }
        XCTAssertEqual(run.stderr, "", "--quiet prints nothing but errors")
    }

    func testPipelineCommandPrintsAGraphGstLaunchAccepts() throws {
        let dir = try scratchDirectory(self)
        let run = try duoCapture(["pipeline", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", dir])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("gst-launch-1.0 -e "))
        XCTAssertTrue(run.stdout.contains("tee name=t") && run.stdout.contains("x264enc") && run.stdout.contains("matroskamux"))
        // Run exactly that graph for 30 frames with gst-launch-1.0 and check the file it writes decodes.
        let file = "\(dir)/launch.mkv"
        XCTAssertEqual(try runPrintedGraph(run.stdout, writingTo: file), 0)
        XCTAssertEqual(try MediaInspector.decode(file).video.frames, 30)
    }

    /// Caps read as a GStreamer user writes them: the Duo pair's common 1080p60 is `framerate=60/1`,
    /// never an unreduced `60000/1000`.
    func testPrintedCapsUseReducedFractions() throws {
        let run = try duoCapture(["pipeline", "--camera", "inner", "--camera", "outer"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("framerate=60/1"), run.stdout)
        let rates = run.stdout.components(separatedBy: "framerate=").dropFirst().map { $0.prefix { "0123456789/".contains($0) } }
        XCTAssertFalse(rates.isEmpty)
        for rate in rates {
            let terms = rate.split(separator: "/").compactMap { Int($0) }
            XCTAssertEqual(terms.count, 2, String(rate))
            func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
            XCTAssertEqual(gcd(terms[0], terms[1]), 1, "framerate=\(rate) is not reduced")
        }
    }

    /// The printed command is safe to pipe to sh: a record folder named like shell code stays a name.
    func testPipelineCommandIsSafeToPasteIntoAShell() throws {
        let dir = try scratchDirectory(self)
        let evil = "\(dir)/$(touch \(dir)/PWNED)'; touch \(dir)/PWNED2; '"
        try FileManager.default.createDirectory(atPath: evil, withIntermediateDirectories: true)
        let run = try duoCapture(["pipeline", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", evil])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The shell hands gst-launch-1.0 exactly one argument, the description, and runs nothing else.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        let out = Pipe()
        shell.standardOutput = out
        shell.arguments = ["-c", #"printarg() { shift; printf '%s\n' "$@"; }; "# + run.stdout.replacingOccurrences(of: "gst-launch-1.0", with: "printarg")]
        try shell.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        let words = printed.split(separator: "\n").map(String.init)
        XCTAssertTrue(words.contains { $0.hasPrefix("location=\"\(evil)/duo-") }, "the folder's name reaches gst-launch-1.0 as it is: \(printed)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(dir)/PWNED"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(dir)/PWNED2"))
    }

    /// GST_DEBUG_DUMP_DOT_DIR works as in gst-launch-1.0: the running graph and each take's graph are dumped.
    func testGraphDumpsFollowGStreamerConvention() throws {
        let dir = try scratchDirectory(self)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "160x120@15", "--duration", "0.5",
                                  "--record", "--record-dir", dir, "--quiet"], environment: ["GST_DEBUG_DUMP_DOT_DIR": dir])
        XCTAssertEqual(run.status, 0, run.stderr)
        let playing = try String(contentsOfFile: "\(dir)/duo-capture-playing.dot", encoding: .utf8)
        XCTAssertTrue(playing.contains("operator_sink") && playing.contains("subject_sink"))
        let take = try String(contentsOfFile: "\(dir)/duo-capture-take1.dot", encoding: .utf8)
        XCTAssertTrue(take.contains("record_sink"))
    }

    func testHelpTellsTheWholeStory() throws {
        let run = try duoCapture(["--help"])
        XCTAssertEqual(run.status, 0)
        for option in ["--source", "--camera", "--format", "--headless", "--duration", "--record", "--record-dir",
                       "--container", "--encoder", "--aspect", "--pipelines", "--json", "--control", "pipeline", "cameras", "EXIT CODES",
                       "--audio", "--countdown", "remux", "sidecar"] {
            XCTAssertTrue(run.stdout.contains(option), "--help lacks \(option)")
        }
    }

    // MARK: Errors: one line, what to do, a distinct exit code per kind.

    private func assertError(_ args: [String], exit code: Int32, mentions words: [String],
                             environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try duoCapture(args, environment: environment)
        XCTAssertEqual(run.status, code, "exit code for \(args): \(run.stderr)", file: file, line: line)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "exactly one line on stderr: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(lines.first?.hasPrefix("duo-capture: error: ") ?? false, run.stderr, file: file, line: line)
        for w in words { XCTAssertTrue(run.stderr.contains(w), "\(run.stderr) should mention \(w)", file: file, line: line) }
        XCTAssertEqual(run.stdout, "", file: file, line: line)
    }

    func testUsageErrorsExit64() throws {
        try assertError(["--frobnicate"], exit: 64, mentions: ["--frobnicate", "--help"])
        try assertError(["--headless", "--format", "big"], exit: 64, mentions: ["--format", "1280x720@30"])
        try assertError(["--headless", "--duration", "-3"], exit: 64, mentions: ["--duration"])
        try assertError(["--headless", "--duration"], exit: 64, mentions: ["--duration needs a value"])
        try assertError(["--headless", "--aspect", "5:4"], exit: 64, mentions: ["16:9"])
        try assertError(["--headless", "--camera", "inner", "--camera", "outer", "--source", "videotestsrc"], exit: 64, mentions: ["at most two cameras"])
        try assertError(["--headless", "--camera", "inner", "--camera", "inner"], exit: 64, mentions: ["the same"])
        try assertError(["--headless", "--camera-mode", "sideways"], exit: 64, mentions: ["virtual or individual"])
        try assertError(["--headless", "--swap-policy", "pause"], exit: 64, mentions: ["lock, segment or stop"])
        try assertError(["--headless", "--encoder", "h265"], exit: 64, mentions: ["x264"])
        try assertError(["--headless", "--camera", "usb"], exit: 64, mentions: ["v4l2:/dev/videoN"])
        try assertError(["--headless", "--camera", "v4l2:/dev/video99"], exit: 64, mentions: ["/dev/video99", "duo-capture cameras"])
        try assertError(["--camera", "inner"], exit: 64, mentions: ["--headless"])
        try assertError(["--headless", "--camera", "inner", "--format", "300x200@30"], exit: 64, mentions: ["no format at or below", "320x180@30"])
        try assertError(["--headless", "--source", "videotestsrc", "--record", "--record-dir", "/etc/hostname/takes"], exit: 64, mentions: ["--record-dir"])
    }

    func testBadInputFilesExit65() throws {
        let dir = try scratchDirectory(self)
        let bad = "\(dir)/bad.json"
        try Data("{\"id\": \"x\", \"name\": \"y\", \"formats\": []}".utf8).write(to: URL(fileURLWithPath: bad))
        try assertError(["--headless", "--camera", "profile:\(bad)"], exit: 65, mentions: [bad, "formats"])
        try Data([0xff, 0xfe, 0x00]).write(to: URL(fileURLWithPath: bad))
        try assertError(["--headless", "--camera", "profile:\(bad)"], exit: 65, mentions: ["not valid JSON"])
        try assertError(["--headless", "--camera", "profile:\(dir)/none.json"], exit: 65, mentions: ["does not exist"])
        // A user's pipeline folder with a broken branch file.
        let pipelines = "\(dir)/Pipelines"
        try FileManager.default.copyItem(atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Pipelines").path, toPath: pipelines)
        try Data("queue ! {{no_such_value}} ! fakesink".utf8).write(to: URL(fileURLWithPath: "\(pipelines)/operator-headless.gst"))
        try assertError(["--headless", "--source", "videotestsrc", "--pipelines", pipelines], exit: 65, mentions: ["operator-headless.gst", "{{no_such_value}}"])
        // A renamed element the code looks up (the audio tee, the record sink): one line, exit 65, no crash.
        try FileManager.default.removeItem(atPath: pipelines)
        try FileManager.default.copyItem(atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Pipelines").path, toPath: pipelines)
        let audio = try String(contentsOfFile: "\(pipelines)/audio.gst", encoding: .utf8)
        try audio.replacingOccurrences(of: "tee name=at ", with: "tee name=audio_tee ").write(toFile: "\(pipelines)/audio.gst", atomically: true, encoding: .utf8)
        try assertError(["--headless", "--source", "videotestsrc", "--audio", "test", "--duration", "1", "--pipelines", pipelines],
                        exit: 65, mentions: ["audio.gst", "element at"])
        let record = try String(contentsOfFile: "\(pipelines)/record.gst", encoding: .utf8)
        try record.replacingOccurrences(of: "name=record_sink", with: "name=sink").write(toFile: "\(pipelines)/record.gst", atomically: true, encoding: .utf8)
        try assertError(["--headless", "--source", "videotestsrc", "--audio", "none", "--record", "--countdown", "0", "--duration", "1",
                         "--record-dir", dir, "--pipelines", pipelines], exit: 65, mentions: ["record.gst", "record_sink"])
        // A record branch that ends in fakesink would count frames into no file: refused before the graph
        // starts, with no take reported.
        let sinkless = record.replacingOccurrences(of: #"filesink name=record_sink location="{{location}}" async=false buffer-mode=unbuffered"#,
                                                   with: "fakesink name=record_sink async=false")
        XCTAssertNotEqual(sinkless, record, "record.gst ends in the filesink this test replaces")
        try sinkless.write(toFile: "\(pipelines)/record.gst", atomically: true, encoding: .utf8)
        try assertError(["--headless", "--source", "videotestsrc", "--audio", "none", "--record", "--countdown", "0", "--duration", "1",
                         "--record-dir", dir, "--pipelines", pipelines], exit: 65, mentions: ["record.gst", "writes no file"])
    }

    /// A real missing plugin: GStreamer is pointed at a plugin folder without x264 and openh264.
    func testMissingEncoderPluginExits69NamingThePackage() throws {
        let dir = try scratchDirectory(self)
        let plugins = "\(dir)/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let system = "/usr/lib/\(machineTriplet())/gstreamer-1.0"
        for name in try FileManager.default.contentsOfDirectory(atPath: system)
        where name.hasSuffix(".so") && name != "libgstx264.so" && name != "libgstopenh264.so" {
            try FileManager.default.createSymbolicLink(atPath: "\(plugins)/\(name)", withDestinationPath: "\(system)/\(name)")
        }
        let env = ["GST_PLUGIN_SYSTEM_PATH_1_0": plugins, "GST_PLUGIN_PATH_1_0": "", "GST_REGISTRY_1_0": "\(dir)/registry.bin"]
        try assertError(["--headless", "--source", "videotestsrc", "--encoder", "x264", "--duration", "1"], exit: 69,
                        mentions: ["x264enc", "apt-get install gstreamer1.0-plugins-ugly"], environment: env)
        try assertError(["--headless", "--source", "videotestsrc", "--duration", "1", "--record", "--record-dir", dir], exit: 69,
                        mentions: ["no H.264 encoder", "gstreamer1.0-plugins-ugly"], environment: env)
    }

    /// A runtime failure: /dev/null exists but is no camera.
    func testRuntimeFailureExits70() throws {
        try assertError(["--headless", "--camera", "v4l2:/dev/null", "--duration", "1"], exit: 70, mentions: ["/dev/null"])
    }

    /// A camera another duo-capture owns: the second one is told which pid has it, before it touches the device.
    func testACameraInUseNamesItsOwner() throws {
        let runtime = try scratchDirectory(self)
        let held = try CameraLock(device: "/dev/null", directory: "\(runtime)/duo-capture")
        try assertError(["--headless", "--camera", "v4l2:/dev/null", "--duration", "1"], exit: 70,
                        mentions: ["/dev/null is in use by duo-capture pid \(getpid())"], environment: ["XDG_RUNTIME_DIR": runtime])
        withExtendedLifetime(held) {}
    }

    private func machineTriplet() -> String {
        #if arch(arm64)
        "aarch64-linux-gnu"
        #else
        "x86_64-linux-gnu"
        #endif
    }
}
