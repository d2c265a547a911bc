import DuoCore
import DuoMedia
import Foundation
import XCTest

/// The real executable running in the background, so a test can signal it mid-take.
final class BackgroundRun {
    let process = Process()
    private let out: URL
    private let err: URL

    init(_ arguments: [String], directory: String, launcher: [String] = [], environment extra: [String: String] = [:]) throws {
        out = URL(fileURLWithPath: "\(directory)/.stdout")
        err = URL(fileURLWithPath: "\(directory)/.stderr")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let binary = duoCaptureBinary()
        if launcher.isEmpty {
            process.executableURL = binary
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: launcher[0])
            process.arguments = Array(launcher.dropFirst()) + [binary.path] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.merge(extra) { _, new in new }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
    }

    /// Polls `condition` every 20 ms (a real file or counter, never a fixed sleep) for up to `seconds`.
    func wait(upTo seconds: Double = 30, for what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard process.isRunning else { throw DuoError.runtime("duo-capture exited while waiting for \(what): \(stderr)") }
            guard Date() < deadline else { throw DuoError.runtime("timed out waiting for \(what)") }
            usleep(20_000)
        }
    }

    func finish(timeout seconds: Double = 60) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate(); process.waitUntilExit(); return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }
}

func duoCaptureBinary() -> URL {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("duo-capture-testhub")
    return FileManager.default.fileExists(atPath: binary.path)
        ? binary
        : URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/duo-capture-testhub")
}

struct RunReport: Decodable {
    struct Branch: Decodable { let frames: Int64; let dropped: Int64 }
    struct Take: Decodable {
        let file: String; let frames: Int64; let durationSeconds: Double; let startLatencyMs: Double?
        let audioBuffers: Int64?; let dropped: Int64; let error: String?
        let capsChanges: Int64?; let maxGapMs: Double?; let swaps: Int?
        let number: Int?
        /// A joined take's segments, each as recorded, and whether its file is still on disk.
        let segments: [Segment]?
    }
    struct Segment: Decodable { let file: String; let frames: Int64; let durationSeconds: Double; let dropped: Int64; let kept: Bool }
    let endReason: String
    let seconds: Double
    let camera: Branch, operatorView: Branch, subjectView: Branch
    let takes: [Take]
}

final class TakeCommandTests: XCTestCase {
    private let base = ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "test", "--record", "--json"]

    private func files(in dir: String, _ ext: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".\(ext)") }.sorted().map { "\(dir)/\($0)" }
    }
    private func size(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// SIGINT (Matroska) and SIGTERM (MP4, which only plays once finalised): the take is finalised, the
    /// sidecar completed, and the exit code is 0.
    func testSIGINTAndSIGTERMFinaliseTheTakeAndExitZero() throws {
        for (signal, name, container) in [(SIGINT, "SIGINT", "mkv"), (SIGTERM, "SIGTERM", "mp4"), (SIGHUP, "SIGHUP", "mkv")] {
            let dir = try scratchDirectory(self)
            let run = try BackgroundRun(base + ["--countdown", "0", "--container", container, "--record-dir", dir], directory: dir)
            // The take has started (its preliminary sidecar is there) and recorded a second; an MP4 with
            // faststart keeps its data aside until it is finalised, so the file size cannot tell.
            try run.wait(for: "the take to start") { !files(in: dir, "json").isEmpty }
            let started = try XCTUnwrap(TakeSidecar.date(try TakeSidecar.read(files(in: dir, "json")[0]).started))
            try run.wait(for: "a second of recording") { Date().timeIntervalSince(started) >= 1 }
            kill(run.process.processIdentifier, signal)
            XCTAssertEqual(run.finish(), 0, "\(name): \(run.stderr)")
            let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
            XCTAssertEqual(report.endReason, "\(name) received")
            let take = try XCTUnwrap(report.takes.first)
            XCTAssertNil(take.error)
            let decoded = try MediaInspector.decode(take.file)
            XCTAssertEqual(Double(decoded.video.frames), Double(take.frames), accuracy: 1, "\(name) \(container)")
            XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true)
            XCTAssertGreaterThan(decoded.audio.frames, 0)
            XCTAssertNotNil(decoded.duration, "\(container) finalised with a duration")
            XCTAssertGreaterThan(take.durationSeconds, 0.9)
            let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take.file))
            XCTAssertTrue(sidecar.complete, name)
            XCTAssertEqual(sidecar.frames, take.frames)
            XCTAssertNotNil(sidecar.ended)
        }
    }

    /// `duo-capture … 2>&1 | head -n1`: the reader goes away after the first line, and the run still
    /// records its whole take and finalises it (SIGPIPE is ignored; failed writes are no failure).
    func testAClosedStdoutNeverEndsATake() throws {
        let dir = try scratchDirectory(self)
        let run = try BackgroundRun(base + ["--countdown", "0", "--duration", "2", "--record-dir", dir], directory: dir,
                                    launcher: ["/bin/sh", "-c", #""$0" "$@" 2>&1 | head -n1"#])
        XCTAssertEqual(run.finish(), 0, run.stderr)
        let file = try XCTUnwrap(files(in: dir, "mkv").first)
        let decoded = try MediaInspector.decode(file)
        XCTAssertGreaterThan(decoded.video.frames, 50, "the take ran its two seconds")
        XCTAssertNotNil(decoded.duration, "and was finalised")
        XCTAssertTrue(try TakeSidecar.read(TakeSidecar.path(forTake: file)).complete)
    }

    /// Two runs recording into one folder in the same second: each take gets a file of its own.
    func testTwoRunsInOneFolderNeverShareATakeFile() throws {
        let dir = try scratchDirectory(self)
        let runs = try (0..<2).map { _ in
            // Each run's output in a folder of its own; the takes in the shared one.
            try BackgroundRun(base + ["--countdown", "0", "--duration", "1.5", "--record-dir", dir], directory: try scratchDirectory(self))
        }
        for run in runs { XCTAssertEqual(run.finish(), 0, run.stderr) }
        let takes = files(in: dir, "mkv")
        XCTAssertEqual(takes.count, 2, "\(takes)")
        for take in takes { XCTAssertGreaterThan(try MediaInspector.decode(take).video.frames, 30, take) }
    }

    /// SIGKILL: nothing is finalised, yet the Matroska file plays up to within about a second of the
    /// kill, and the preliminary sidecar is there.
    func testSIGKILLLeavesAFilePlayingToWithinASecondOfTheKill() throws {
        let dir = try scratchDirectory(self)
        let run = try BackgroundRun(base + ["--countdown", "0", "--record-dir", dir], directory: dir)
        try run.wait(for: "the preliminary sidecar") { !files(in: dir, "json").isEmpty }
        let sidecarPath = try XCTUnwrap(files(in: dir, "json").first)
        let started = try XCTUnwrap(TakeSidecar.date(try TakeSidecar.read(sidecarPath).started))
        // Record three seconds (the file keeps growing meanwhile), then kill without warning.
        try run.wait(for: "three seconds of recording") { Date().timeIntervalSince(started) >= 3 }
        kill(run.process.processIdentifier, SIGKILL)
        let killedAfter = Date().timeIntervalSince(started)
        _ = run.finish()
        XCTAssertEqual(run.process.terminationReason, .uncaughtSignal)

        let file = try XCTUnwrap(files(in: dir, "mkv").first)
        let decoded = try MediaInspector.decode(file)
        XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true)
        let playable = Double(try XCTUnwrap(decoded.video.lastPTS)) / 1e9 + 1.0 / 30
        let lost = killedAfter - playable
        print(String(format: "SIGKILL after %.2f s of recording: the file plays %.2f s, %.2f s lost", killedAfter, playable, lost))
        XCTAssertLessThan(lost, 1.2, "at most about a second lost")
        XCTAssertGreaterThan(decoded.audio.frames, 0, "audio survives too")
        let sidecar = try TakeSidecar.read(sidecarPath)
        XCTAssertFalse(sidecar.complete, "the preliminary sidecar says the take was not finalised")
        XCTAssertEqual(sidecar.file, (file as NSString).lastPathComponent)
        // And the killed take can still become an MP4 for an editor.
        let remux = try duoCapture(["remux", file])
        XCTAssertEqual(remux.status, 0, remux.stderr)
        let mp4 = try MediaInspector.decode(remux.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(mp4.video.frames, decoded.video.frames)
    }

    /// --countdown: the take starts when it ends, its first frame within one frame interval (from the
    /// buffer timestamps), and the sidecar describes the take.
    func testCountdownStartsTheTakeAndTheSidecarDescribesIt() throws {
        let dir = try scratchDirectory(self)
        let run = try duoCapture(base + ["--countdown", "1", "--duration", "1", "--record-dir", dir, "--aspect", "1:1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("recording starts in 1 s"), run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertGreaterThanOrEqual(report.seconds, 1.9, "countdown, then a one-second take")
        let take = try XCTUnwrap(report.takes.first)
        let latency = try XCTUnwrap(take.startLatencyMs)
        XCTAssertGreaterThanOrEqual(latency, 0)
        XCTAssertLessThan(latency, 1000.0 / 30, "first frame within one frame interval of the countdown's end")
        XCTAssertEqual(take.durationSeconds, 1, accuracy: 0.1)

        let s = try TakeSidecar.read(TakeSidecar.path(forTake: take.file))
        XCTAssertEqual(s.tool, "duo-capture")
        XCTAssertFalse(s.toolVersion.isEmpty)
        XCTAssertTrue(s.complete)
        XCTAssertEqual(s.take, 1)
        XCTAssertEqual(s.countdownSeconds, 1)
        XCTAssertEqual(s.cameras.map(\.label), ["videotestsrc"])
        XCTAssertEqual(s.cameras.first?.mode, "320x240@30 I420")
        XCTAssertEqual(s.format, "240x240@30", "the recorded picture after the 1:1 crop")
        XCTAssertEqual(s.aspect, "1:1")
        XCTAssertEqual(s.encoder, "x264enc")
        XCTAssertEqual(s.container, "matroskamux")
        XCTAssertEqual(s.audio?.source, "audiotestsrc")
        XCTAssertEqual(s.audio?.buffers, take.audioBuffers)
        XCTAssertEqual(s.swaps, [])
        XCTAssertEqual(s.markersPassed, [], "no script, no markers")
        XCTAssertEqual(s.frames, take.frames)
        XCTAssertEqual(s.droppedFrames, 0)
        XCTAssertEqual(try XCTUnwrap(s.startLatencyMs), latency, accuracy: 0.001)
        let started = try XCTUnwrap(TakeSidecar.date(s.started)), ended = try XCTUnwrap(TakeSidecar.date(try XCTUnwrap(s.ended)))
        XCTAssertEqual(ended.timeIntervalSince(started), 1, accuracy: 0.3)
        XCTAssertEqual(try MediaInspector.decode(take.file).width, 240)
    }

    /// With a script, the sidecar lists the headings the teleprompter reached during the take, and when.
    func testSidecarListsTheScriptMarkersPassed() throws {
        let dir = try scratchDirectory(self)
        let talk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets/scripts/talk.md").path
        let run = try duoCapture(base + ["--countdown", "0", "--duration", "2", "--record-dir", dir,
                                         "--script", talk, "--wpm", "1000"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let s = try TakeSidecar.read(TakeSidecar.path(forTake: try XCTUnwrap(report.takes.first).file))
        // 1000 wpm reaches the second heading after about 1.4 s; the [PAUSE] before the third holds there.
        XCTAssertEqual(s.markersPassed.map(\.title), ["Welcome", "Why two screens"])
        XCTAssertEqual(s.markersPassed.first?.atSeconds ?? -1, 0, accuracy: 0.05)
        XCTAssertEqual(s.markersPassed.last?.atSeconds ?? -1, 1.4, accuracy: 0.3)
    }

    /// remux: an MP4 with the same frames and audio, next to the take, never overwriting.
    func testRemuxMakesAnMP4NextToTheTakeAndNeverOverwrites() throws {
        let dir = try scratchDirectory(self)
        let rec = try duoCapture(base + ["--countdown", "0", "--duration", "1", "--record-dir", dir])
        XCTAssertEqual(rec.status, 0, rec.stderr)
        let take = try XCTUnwrap(try JSONDecoder().decode(RunReport.self, from: Data(rec.stdout.utf8)).takes.first)
        let first = try duoCapture(["remux", take.file])
        XCTAssertEqual(first.status, 0, first.stderr)
        let mp4 = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(mp4, take.file.replacingOccurrences(of: ".mkv", with: ".mp4"))
        let original = try MediaInspector.decode(take.file), copy = try MediaInspector.decode(mp4)
        XCTAssertEqual(copy.video.frames, original.video.frames)
        XCTAssertEqual(copy.encodedVideo.firstIsKeyframe, true)
        XCTAssertGreaterThan(copy.audio.frames, 0)
        // Packets copied, not re-encoded: the sizes agree to within the containers' overhead.
        XCTAssertEqual(Double(size(mp4)), Double(size(take.file)), accuracy: Double(size(take.file)) * 0.1)
        XCTAssertGreaterThan(size(mp4), 10_000)
        let before = try Data(contentsOf: URL(fileURLWithPath: mp4))
        let second = try duoCapture(["remux", take.file])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("-2.mp4"), second.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: mp4)), before, "the first MP4 is untouched")
    }

    /// A full disk through the real binary, on a tmpfs mounted in a private mount namespace (it vanishes
    /// with the process): the take ends with a clear error, the preview runs to the end without a dropped
    /// frame, the exit code says the recording failed, and the partial file plays.
    func testFullDiskThroughTheCommandLine() throws {
        let dir = try scratchDirectory(self)
        let full = "\(dir)/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        let keep = "\(dir)/kept"
        try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        let script = """
            mount -t tmpfs -o size=192k duo-capture-full "\(full)" || exit 99
            "$0" "$@"; rc=$?
            cp "\(full)"/* "\(keep)"/ 2>/dev/null
            exit $rc
            """
        let unshare = getuid() == 0 ? ["/usr/bin/unshare", "-m"] : ["/usr/bin/unshare", "-r", "-m"]
        let run = try BackgroundRun(base + ["--countdown", "0", "--duration", "4", "--record-dir", full], directory: dir,
                                    launcher: unshare + ["/bin/sh", "-c", script])
        let status = run.finish(timeout: 60)
        XCTAssertNotEqual(status, 99, "could not mount a size-limited tmpfs: \(run.stderr)")
        XCTAssertEqual(status, 70, run.stderr)
        XCTAssertTrue(run.stderr.contains("duo-capture: error: take 1 stopped: the disk holding \(full) is full"), run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "duration reached", "the run went on to its end")
        XCTAssertGreaterThan(report.operatorView.frames, 110, "the preview ran for the whole 4 s")
        XCTAssertEqual(report.operatorView.dropped, 0)
        let take = try XCTUnwrap(report.takes.first)
        XCTAssertNotNil(take.error)
        let file = try XCTUnwrap(files(in: keep, "mkv").first)
        let decoded = try MediaInspector.decode(file)
        XCTAssertGreaterThan(decoded.video.frames, 10)
        XCTAssertEqual(decoded.encodedVideo.firstIsKeyframe, true)
    }

    func testBadTakeOptionsSayWhatToDo() throws {
        for (args, code, word) in [
            (["--headless", "--countdown", "11"], Int32(64), "--countdown"),
            (["--headless", "--countdown", "soon"], 64, "0 to 10"),
            (["--headless", "--source", "videotestsrc", "--audio", "nosuchaudiosrc"], 64, "--audio"),
            (["remux"], 64, "remux needs exactly one file"),
            (["remux", "/nonexistent/take.mkv"], 65, "does not exist"),
            (["remux", "take.mp4"], 64, ".mkv"),
            (["--headless", "--replay", "0"], 64, "1 to 300"),
            (["--headless", "--replay", "301"], 64, "1 to 300"),
            (["--headless", "--replay", "abc"], 64, "--replay"),
        ] {
            let run = try duoCapture(args)
            XCTAssertEqual(run.status, code, "\(args): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(word), "\(args): \(run.stderr)")
        }
    }

    /// A record folder on a read-only filesystem is refused before anything starts (as root, permission
    /// bits would not stop the write, so a read-only mount it is, in a private mount namespace).
    func testReadOnlyRecordFolderIsRefusedBeforeTheTake() throws {
        let dir = try scratchDirectory(self)
        let readOnly = "\(dir)/ro"
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
        let script = """
            mount -t tmpfs -o ro,size=64k duo-capture-ro "\(readOnly)" || exit 99
            exec "$0" "$@"
            """
        let unshare = getuid() == 0 ? ["/usr/bin/unshare", "-m"] : ["/usr/bin/unshare", "-r", "-m"]
        let run = try BackgroundRun(base + ["--countdown", "0", "--duration", "1", "--record-dir", readOnly], directory: dir,
                                    launcher: unshare + ["/bin/sh", "-c", script])
        XCTAssertEqual(run.finish(), 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("not writable") && run.stderr.contains("--record-dir"), run.stderr)
        XCTAssertEqual(run.stdout, "", "nothing ran")
    }

    /// `duo-capture pipeline --audio test` prints a graph gst-launch-1.0 runs, and its file has sound.
    func testPipelineCommandWithAudioRunsUnderGstLaunch() throws {
        let dir = try scratchDirectory(self)
        let printed = try duoCapture(["pipeline", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "test", "--record-dir", dir])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.contains("at. ! queue name=record_audio_queue"), printed.stdout)
        let file = "\(dir)/launch.mkv"
        XCTAssertEqual(try runPrintedGraph(printed.stdout, writingTo: file,
                                           limits: ["samplesperbuffer=480": "samplesperbuffer=480 num-buffers=100"]), 0)
        let decoded = try MediaInspector.decode(file)
        // 30 camera frames; the camera chain's videorate keeps the file at a constant rate, so on a loaded
        // machine a late frame can be repeated once (seen: 31).
        XCTAssertTrue((30...31).contains(decoded.video.frames), "\(decoded.video.frames) frames")
        XCTAssertGreaterThan(decoded.audio.frames, 0)
    }

    /// --audio auto (the default): the default input when the machine has one; otherwise a one-line
    /// notice and a take without sound, never a failure.
    func testAutoAudioFallsBackToNoneWithANoticeWhenThereIsNoInput() throws {
        let dir = try scratchDirectory(self)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record", "--json",
                                  "--countdown", "0", "--duration", "0.5", "--record-dir", dir])
        XCTAssertEqual(run.status, 0, run.stderr)
        let take = try XCTUnwrap(try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8)).takes.first)
        let decoded = try MediaInspector.decode(take.file)
        if GStreamer.hasAudioInput() {
            XCTAssertGreaterThan(decoded.audio.frames, 0, "the default input is recorded")
        } else {
            XCTAssertTrue(run.stderr.contains("duo-capture: no audio input found; recording without sound"), run.stderr)
            XCTAssertEqual(run.stderr.components(separatedBy: "no audio input").count, 2, "said once")
            XCTAssertEqual(decoded.audio.frames, 0)
            XCTAssertNil(take.audioBuffers)
            XCTAssertGreaterThan(decoded.video.frames, 10)
        }
    }

    /// SIGINT during the countdown: no take, no file, no sidecar, exit 0.
    func testSIGINTDuringTheCountdownRecordsNothing() throws {
        let dir = try scratchDirectory(self)
        let run = try BackgroundRun(base + ["--countdown", "10", "--record-dir", dir], directory: dir)
        try run.wait(for: "the countdown") { run.stderr.contains("recording starts in 10 s") }
        kill(run.process.processIdentifier, SIGINT)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "SIGINT received")
        XCTAssertEqual(report.takes.count, 0)
        XCTAssertEqual(files(in: dir, "mkv") + files(in: dir, "json"), [])
    }
}
