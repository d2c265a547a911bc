import DuoCore
import DuoMedia
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Careless and hostile inputs: nothing the user owns is replaced or deleted, no client or full disk
/// stalls or kills a run.
final class HardeningTests: XCTestCase {
    private let base = ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none"]

    /// `--control PATH` naming a regular file: refused, and the file is left as it was.
    func testControlPathThatIsNotASocketIsNeverDeleted() throws {
        let dir = try scratchDirectory(self)
        let path = "\(dir)/notes.txt"
        try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
        let run = try duoCapture(base + ["--duration", "1", "--control", path])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("exists and is not a socket"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "keep me")
    }

    /// A bare socket name lives in a folder that must be ours and private: one anybody can read is refused.
    func testASocketFolderOthersCanEnterIsRefused() throws {
        let runtime = try scratchDirectory(self)
        let folder = "\(runtime)/duo-capture"
        XCTAssertEqual(mkdir(folder, 0o755), 0)
        chmod(folder, 0o755)
        let run = try duoCapture(base + ["--duration", "1", "--control", "studio"], environment: ["XDG_RUNTIME_DIR": runtime])
        XCTAssertEqual(run.status, 70, run.stderr)
        XCTAssertTrue(run.stderr.contains("must belong to you with mode 0700"), run.stderr)
        chmod(folder, 0o700)
        let ok = try duoCapture(base + ["--duration", "1", "--control", "studio"], environment: ["XDG_RUNTIME_DIR": runtime])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    /// `--events` never replaces what is at the path: a FIFO or a symbolic link is refused and left alone;
    /// a regular file is appended to.
    func testEventsAreAppendedAndNeverReplaceAFIFOOrLink() throws {
        let dir = try scratchDirectory(self)
        let fifo = "\(dir)/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        var run = try duoCapture(base + ["--duration", "1", "--events", fifo])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("is not a regular file"), run.stderr)
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still there")

        let target = "\(dir)/target.txt", link = "\(dir)/link.jsonl"
        try "precious".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        run = try duoCapture(base + ["--duration", "1", "--events", link])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "precious")

        let events = "\(dir)/events.jsonl"
        for _ in 0..<2 { XCTAssertEqual(try duoCapture(base + ["--duration", "0.5", "--events", events]).status, 0) }
        let started = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { $0.contains(#""event":"started""#) }
        XCTAssertEqual(started.count, 2, "the second run appended")
    }

    /// `--events FILE`, given on the command line or in the settings file, writes only to a new (or
    /// empty) file or one that already holds duo-capture events: any other file is refused and left as it was.
    func testEventsGoOnlyToANewFileOrAnEventsFile() throws {
        let dir = try scratchDirectory(self)
        let notes = "\(dir)/notes.txt"
        try "my notes, not events\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let config = "\(dir)/config"
        try FileManager.default.createDirectory(atPath: "\(config)/duo-capture", withIntermediateDirectories: true)
        try "[duo-capture]\nevents=\(notes)\n".write(toFile: "\(config)/duo-capture/duo-capture.conf", atomically: true, encoding: .utf8)
        for (args, env) in [(base + ["--duration", "0.3", "--events", notes], [String: String]()),
                            (base + ["--duration", "0.3"], ["XDG_CONFIG_HOME": config])] {
            let run = try duoCapture(args, environment: env)
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.stderr.hasSuffix("duo-capture: error: --events \(notes) holds something other than duo-capture events (its first line is no JSON event); give a new file or an events file to append to\n"), run.stderr)
            XCTAssertEqual(run.stderr.components(separatedBy: "error:").count - 1, 1, run.stderr)
            XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes, not events\n")
        }
        let empty = "\(dir)/empty.jsonl"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: nil))
        for _ in 0..<2 { XCTAssertEqual(try duoCapture(base + ["--duration", "0.3", "--events", empty]).status, 0) }
        let lines = try String(contentsOfFile: empty, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains(#""event":"started""#) }.count, 2, "an empty file, then an events file: both appended to")
    }

    /// The events file's disk fills: one warning, the run and its take go on, exit 0.
    func testAFullDiskForTheEventsFileNeverEndsTheRun() throws {
        let dir = try scratchDirectory(self)
        let full = "\(dir)/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        let timeline = "\(dir)/mirrors.timeline"
        try (1...60).map { #"{"at": \#(Double($0) * 0.02), "cmd": "mirror"}"# }.joined(separator: "\n")
            .write(toFile: timeline, atomically: true, encoding: .utf8)
        let script = """
            mount -t tmpfs -o size=4k duo-capture-full "\(full)" || exit 99
            "$0" "$@"
            status=$?
            cp "\(full)/events.jsonl" "\(dir)/events-on-the-full-disk.jsonl"
            exit $status
            """
        let unshare = getuid() == 0 ? ["/usr/bin/unshare", "-m"] : ["/usr/bin/unshare", "-r", "-m"]
        let run = try BackgroundRun(base + ["--record", "--countdown", "0", "--duration", "3", "--record-dir", dir,
                                            "--events", "\(full)/events.jsonl", "--timeline", timeline, "--json"],
                                    directory: dir, launcher: unshare + ["/bin/sh", "-c", script])
        let status = run.finish(timeout: 60)
        XCTAssertNotEqual(status, 99, "could not mount a size-limited tmpfs: \(run.stderr)")
        XCTAssertEqual(status, 0, run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: "writing failed").count - 1, 1, run.stderr)
        // Whole lines or nothing: a line the disk had room for only part of is not left half written.
        let written = try String(contentsOfFile: "\(dir)/events-on-the-full-disk.jsonl", encoding: .utf8)
        XCTAssertGreaterThan(written.count, 3_000, "the file filled the disk")
        XCTAssertTrue(written.hasSuffix("\n"), "ends with a whole line: …\(written.suffix(80))")
        for line in written.split(separator: "\n") {
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), "a whole event: \(line)")
        }
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "duration reached")
        let take = try XCTUnwrap(report.takes.first)
        XCTAssertGreaterThan(try MediaInspector.decode(take.file).video.frames, 60)
    }

    /// A control client that never reads: once its queue is full it is dropped, and another client's quit
    /// is carried out at once.
    func testAClientThatNeverReadsCannotStallTheRun() throws {
        let dir = try scratchDirectory(self)
        let socketPath = "\(dir)/control.sock"
        let events = "\(dir)/events.jsonl"
        let run = try BackgroundRun(base + ["--control", socketPath, "--events", events, "--json"], directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        let stuck = try ControlClient(path: socketPath)
        // Each mirror is answered by two events (about 400 bytes) to every client; this one never reads
        // them, so 3000 of them are several times what its socket can hold. How many the run reads before
        // it drops the client depends on the machine's pace; that it drops it does not.
        let flood = String(repeating: #"{"cmd":"mirror"}"# + "\n", count: 300)
        for _ in 0..<10 { stuck.send(String(flood.dropLast())) }
        // The run closing its end shows on this one as a hang-up, with its unread events still queued.
        try run.wait(upTo: 120, for: "the client that never reads to be dropped") {
            let rdhup: Int16 = 0x2000   // POLLRDHUP, which Glibc's Swift module leaves out (_GNU_SOURCE)
            var watch = pollfd(fd: stuck.fd, events: rdhup, revents: 0)
            return poll(&watch, 1, 0) == 1 && watch.revents & (rdhup | Int16(POLLHUP)) != 0
        }
        let mirrors = { (try? String(contentsOfFile: events, encoding: .utf8))?.components(separatedBy: #""cmd":"mirror""#).count ?? 0 }
        XCTAssertGreaterThan(mirrors(), 100, "the flood was not carried out")
        // The run still answers a client that reads.
        let reader = try ControlClient(path: socketPath)
        reader.send(#"{"cmd":"no-such-command"}"#)
        XCTAssertNotNil(try reader.next("error")["message"])
        let other = try ControlClient(path: socketPath)
        other.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(timeout: 30), 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "quit command")
    }

    /// Files that are not regular files: a FIFO as a script or timeline would block the run forever, and
    /// /dev/zero as a take to inspect never ends. Each is a one-line input error, at once.
    func testFIFOsAndDevicesAreRefusedAsInputFiles() throws {
        let dir = try scratchDirectory(self)
        let fifo = "\(dir)/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (args, what) in [(base + ["--script", fifo, "--duration", "1"], "script"),
                             (base + ["--timeline", fifo, "--duration", "1"], "timeline"),
                             (base + ["--camera", "profile:\(fifo)", "--duration", "1"], "camera profile"),
                             (["inspect", "/dev/zero"], "take"), (["remux", "/dev/zero.mkv"], "take")] {
            let run = try duoCapture(args)
            XCTAssertEqual(run.status, 65, "\(args): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(what), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)")
        }
        let run = try duoCapture(["inspect", "/dev/zero"])
        XCTAssertTrue(run.stderr.contains("is not a regular file"), run.stderr)
    }

    /// A symbolic link loop given as a file is said to be one (ELOOP), not "does not exist".
    func testASymlinkLoopIsCalledOne() throws {
        let dir = try scratchDirectory(self)
        let config = "\(dir)/config"
        try FileManager.default.createDirectory(atPath: "\(config)/duo-capture", withIntermediateDirectories: true)
        for (a, b) in [("\(dir)/a", "\(dir)/b"), ("\(config)/duo-capture/duo-capture.conf", "\(config)/duo-capture/other.conf")] {
            XCTAssertEqual(symlink(b, a), 0)
            XCTAssertEqual(symlink(a, b), 0)
        }
        let loop = "\(dir)/a"
        for (args, what) in [(base + ["--script", loop, "--duration", "1"], "script"),
                             (base + ["--timeline", loop, "--duration", "1"], "timeline"),
                             (base + ["--camera", "profile:\(loop)", "--duration", "1"], "camera profile"),
                             (["formats", "caps:\(loop)"], "caps file"), (["check-script", loop], "script"),
                             (["inspect", loop], "take")] {
            let run = try duoCapture(args)
            XCTAssertEqual(run.status, 65, "\(args): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("\(what) \(loop) is a symbolic link loop"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)")
        }
        let settings = try duoCapture(base + ["--duration", "0.2"], environment: ["XDG_CONFIG_HOME": config])
        XCTAssertEqual(settings.status, 65, settings.stderr)
        XCTAssertTrue(settings.stderr.contains("settings file \(config)/duo-capture/duo-capture.conf is a symbolic link loop"), settings.stderr)
    }

    /// A camera that claims formats beyond what duo-capture records (through the test camera provider,
    /// the path real cameras take): with only those, one line naming the camera and format and exit 65,
    /// never a trap; with a recordable one besides, that one is picked.
    func testCameraFormatsBeyondWhatIsRecordedAreRefusedOrSkipped() throws {
        let dir = try scratchDirectory(self)
        let cameras = "\(dir)/cameras"
        try FileManager.default.createDirectory(atPath: cameras, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let env = ["DUO_TEST_CAMERAS": cameras, "XDG_STATE_HOME": "\(dir)/state", "XDG_RUNTIME_DIR": "\(dir)/run"]
        func camera(_ serial: String, _ sizes: [String]) throws {
            let caps = sizes.map { s -> String in
                let wh = s.split(separator: "x")
                return "video/x-raw,format=YUY2,width=\(wh[0]),height=\(wh[1]),framerate=30/1"
            }.joined(separator: "; ")
            try "name=Cam \(serial)\nserial=\(serial)\ncaps=\(caps)\n".write(toFile: "\(cameras)/\(serial).camera", atomically: true, encoding: .utf8)
        }
        try camera("HUGE", ["2147483647x2147483647"])
        try camera("WIDE", ["65534x65534"])
        try camera("MIXED", ["65534x65534", "320x240"])
        for (serial, size) in [("HUGE", "2147483647x2147483647@30"), ("WIDE", "65534x65534@30")] {
            let run = try duoCapture(["--headless", "--camera", "id:\(serial)", "--duration", "0.3", "--audio", "none"], environment: env)
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("duo-capture: error: camera Cam \(serial) (simulated, \(serial)) offers only formats duo-capture cannot record (\(size))"), run.stderr)
            XCTAssertFalse(run.stderr.contains("Pipelines/"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
        let run = try duoCapture(["--headless", "--camera", "id:MIXED", "--duration", "0.3", "--audio", "none"], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("at 320x240@30 (camera mode 320x240@30 YUY2)"), run.stderr)
        // A rate of two huge terms is reduced exactly (to 1 fps) and never traps.
        let printed = try duoCapture(["pipeline", "--source", "videotestsrc", "--format", "320x240@10000000000/10000000000"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.contains("framerate=1/1"), printed.stdout)
    }

    /// A frame rate that rounds to nothing is refused up front, from the command line or a profile.
    func testFrameRatesBelowOneAreRefused() throws {
        let dir = try scratchDirectory(self)
        var run = try duoCapture(base + ["--format", "320x240@0.0004", "--duration", "1"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("1 to 1000 fps"), run.stderr)
        let profile = "\(dir)/slow.json"
        try #"{"id": "slow", "name": "slow", "formats": [{"width": 320, "height": 240, "frameRates": [0.0001]}]}"#
            .write(toFile: profile, atomically: true, encoding: .utf8)
        run = try duoCapture(["--headless", "--camera", "profile:\(profile)", "--duration", "1", "--audio", "none"])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("slow.json"), run.stderr)
        run = try duoCapture(base + ["--duration", "0x10"])
        XCTAssertEqual(run.status, 64, "hex is no duration: \(run.stderr)")
    }

    /// `--accessory off` starts headless (the shut subject branch never waits to preroll) and records.
    func testAccessoryOffRunsHeadless() throws {
        let dir = try scratchDirectory(self)
        let run = try BackgroundRun(base + ["--accessory", "off", "--record", "--countdown", "0", "--duration", "1",
                                            "--record-dir", dir, "--json"], directory: dir)
        XCTAssertEqual(run.finish(timeout: 30), 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertGreaterThan(report.operatorView.frames, 20)
        XCTAssertEqual(report.subjectView.frames, 0, "the shut subject branch did no work")
        XCTAssertGreaterThan(try XCTUnwrap(report.takes.first).frames, 20)
    }

    /// A script with malformed notes: the run warns at load (one line each, with the line number) and the
    /// subject's frames never show them; check-script lists them and exits 65, and passes a clean script.
    func testMalformedNotesAreReportedAndCheckScriptFails() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/talk.md"
        try "# Hello\n\nWelcome [[nto: PRIVATE typo]] everyone.\n\n[[ Note: fine ]] Go.\n".write(toFile: script, atomically: true, encoding: .utf8)
        let check = try duoCapture(["check-script", script])
        XCTAssertEqual(check.status, 65, check.stderr)
        XCTAssertTrue(check.stdout.contains("\(script):3: [[nto: PRIVATE typo]] is not a note"), check.stdout)
        XCTAssertTrue(check.stdout.contains("1 private notes"), check.stdout)
        XCTAssertEqual(check.stderr.split(separator: "\n").count, 1, check.stderr)
        let run = try duoCapture(base + ["--script", script, "--duration", "0.5"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("warning: script \(script) line 3: [[nto:"), run.stderr)
        try "# Hello\n\nWelcome everyone. [[note: fine]]\n".write(toFile: script, atomically: true, encoding: .utf8)
        let clean = try duoCapture(["check-script", script])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertTrue(clean.stdout.hasSuffix("no problems\n"), clean.stdout)
    }

    /// check-script fails on the look-alikes of a note and a stray ]], naming each line (exit 65).
    func testCheckScriptReportsNoteLookAlikes() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/talk.md"
        try "# Hello\n\nWelcome [[note: a ]] PRIVATE ]] all.\n((note: PRIVATE))\nnote: PRIVATE\n<!-- PRIVATE -->\nGo.\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let check = try duoCapture(["check-script", script])
        XCTAssertEqual(check.status, 65, check.stderr)
        XCTAssertTrue(check.stdout.contains("\(script):3: a ]] after a note's end"), check.stdout)
        XCTAssertTrue(check.stdout.contains("\(script):4: ((note … )) is not a note"), check.stdout)
        XCTAssertTrue(check.stdout.contains("\(script):5: a line starting note:"), check.stdout)
        XCTAssertTrue(check.stdout.contains("2 private notes"), "the note and the HTML comment: \(check.stdout)")
        XCTAssertTrue(check.stderr.contains("has 3 problems"), check.stderr)
    }

    /// Each CJK look-alike of a note, with its own secret word, is flagged by check-script on its line and
    /// never drawn by render-subject (read back with tesseract). The control: the same script with "nota"
    /// for "note" shows the words, so OCR does read words between these brackets.
    func testCJKNoteLookAlikesAreFlaggedAndNeverDrawn() throws {
        let dir = try scratchDirectory(self)
        let forms: [(String, String, String)] = [
            ("【", "】", "PELICAN"), ("【【", "】】", "WALRUS"), ("「", "」", "BADGER"), ("「「", "」」", "FALCON"),
            ("『", "』", "BEAVER"), ("『『", "』』", "MARMOT"), ("〔", "〕", "JACKAL"), ("〔〔", "〕〕", "TOUCAN"),
            ("［", "］", "GIRAFFE"), ("［［", "］］", "LOBSTER"),
        ]
        // One paragraph, a form a line, so that all of it is on the first frame.
        func script(_ word: String) -> String {
            "# Take one\n\n" + forms.map { "Read \($0.0)\(word): \($0.2)\($0.1) on." }.joined(separator: "\n") + "\n"
        }
        let hidden = "\(dir)/hidden.md", shown = "\(dir)/shown.md"
        try script("note").write(toFile: hidden, atomically: true, encoding: .utf8)
        try script("nota").write(toFile: shown, atomically: true, encoding: .utf8)

        let check = try duoCapture(["check-script", hidden])
        XCTAssertEqual(check.status, 65, check.stderr)
        for (i, form) in forms.enumerated() {
            XCTAssertTrue(check.stdout.contains("\(hidden):\(3 + i): \(form.0)note … \(form.1) is not a note"),
                          "\(form.0): \(check.stdout)")
        }
        XCTAssertEqual(try duoCapture(["check-script", shown]).status, 0)

        func read(_ file: String) throws -> String {
            let png = file + ".png"
            let render = try duoCapture(["render-subject", "--script", file, "--at", "0", "--size", "1920x1080", "--out", png])
            XCTAssertEqual(render.status, 0, render.stderr)
            // One OpenMP thread: tesseract's spinning threads double its time on a loaded machine; same text.
            let ocr = try runToEnd(URL(fileURLWithPath: "/usr/bin/tesseract"), [png, "-"], environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60)
            XCTAssertEqual(ocr.status, 0, ocr.stderr)
            return ocr.stdout.uppercased()
        }
        let drawn = try read(hidden)
        XCTAssertTrue(drawn.contains("TAKE ONE") && drawn.contains("READ"), "OCR reads the script's own words: \(drawn)")
        for form in forms { XCTAssertFalse(drawn.contains(form.2), "\(form.0) reached the subject: \(drawn)") }
        let control = try read(shown)
        let seen = forms.filter { control.contains($0.2) }.count
        XCTAssertGreaterThanOrEqual(seen, 3, "the control shows the words in the brackets: \(control)")
    }

    /// A camera whose first frame never comes: start-up gives up after --start-timeout naming the camera,
    /// its mode and what it waited for (exit 69: the camera is not usable as it is), and a signal while
    /// it waits ends the run at once.
    func testStartUpNeverWaitsWithoutABound() throws {
        let dir = try scratchDirectory(self)
        let pipelines = "\(dir)/Pipelines"
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: repo.appendingPathComponent("Pipelines").path, toPath: pipelines)
        // A live source that never pushes a buffer.
        try """
            appsrc name={{name}} is-live=true format=time
            ! video/x-raw,format={{camera_format}},width={{camera_width}},height={{camera_height}},framerate={{camera_rate}}
            """.write(toFile: "\(pipelines)/camera-test.gst", atomically: true, encoding: .utf8)
        let run = try duoCapture(base + ["--pipelines", pipelines, "--start-timeout", "1.5", "--record"])
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("camera videotestsrc gave no first frame within 1.5 s: waiting for its first frame at 320x240@30 in I420"), run.stderr)

        // The control socket opens after the signal handlers are in place, while the graph is starting.
        let socket = "\(dir)/control.sock"
        let waiting = try BackgroundRun(base + ["--pipelines", pipelines, "--start-timeout", "600", "--control", socket], directory: dir)
        try waiting.wait(for: "start-up to begin") { FileManager.default.fileExists(atPath: socket) }
        kill(waiting.process.processIdentifier, SIGTERM)
        XCTAssertEqual(waiting.finish(timeout: 30), 0, "SIGTERM during start-up ends the run: \(waiting.stderr)")
        XCTAssertTrue(waiting.stderr.contains("stopped before the capture graph started (SIGTERM received)"), waiting.stderr)
    }

    /// Headless, the subject view keeps drawing through two self-view toggles and a script saved mid-run
    /// (it used to stop for good at the first: 31 subject frames of 127), and "skipped" stays honest.
    func testTheHeadlessSubjectViewKeepsDrawingThroughSelfViewAndScriptChanges() throws {
        let dir = try scratchDirectory(self)
        let script = "\(dir)/talk.md", events = "\(dir)/events.jsonl", socket = "\(dir)/control.sock"
        try "# Talk\n\nWords for the subject to read, one after another.\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try BackgroundRun(base + ["--script", script, "--events", events, "--control", socket, "--json"], directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        func seen(_ name: String, trigger: String? = nil) -> Int {
            ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").filter { line in
                guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return false }
                return e["event"] as? String == name && (trigger == nil || e["trigger"] as? String == trigger)
            }.count
        }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socket) }
        let client = try ControlClient(path: socket)
        try run.wait(for: "a first status") { seen("status") > 0 }
        client.send(#"{"cmd":"self-view"}"#)
        try run.wait(for: "the first toggle") { seen("self-view") == 1 }
        client.send(#"{"cmd":"self-view"}"#)
        try run.wait(for: "the second toggle") { seen("self-view") == 2 }
        try "# Talk\n\nOther words, saved while the run goes on.\n".write(toFile: script, atomically: true, encoding: .utf8)
        try run.wait(for: "the reload") { seen("status", trigger: "script") > 0 }
        let statuses = seen("status")
        try run.wait(for: "two more seconds of the run") { seen("status") >= statuses + 2 }
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertGreaterThan(report.camera.frames, 60)
        XCTAssertGreaterThanOrEqual(Double(report.subjectView.frames), 0.9 * Double(report.camera.frames),
                                    "the subject view went dark: \(run.stdout)")
        XCTAssertLessThanOrEqual(report.subjectView.dropped, report.camera.frames - report.subjectView.frames + 2)
    }

    /// Frames the subject branch skips while the view is hidden are not "dropped": hidden for a second,
    /// the subject branch still reports no drops.
    func testHiddenSubjectFramesAreNotCountedAsDropped() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/hide.timeline"
        try """
            {"at": 0.5, "cmd": "accessory", "on": false}
            {"at": 1.5, "cmd": "accessory", "on": true}
            {"at": 2.5, "cmd": "quit"}
            """.write(toFile: timeline, atomically: true, encoding: .utf8)
        let run = try duoCapture(base + ["--timeline", timeline, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertLessThan(report.subjectView.frames, report.camera.frames - 20, "the view was hidden for about 30 frames")
        XCTAssertLessThanOrEqual(report.subjectView.dropped, 2, "hidden frames are not drops: \(run.stdout)")
    }

    /// The subject view fails (its sink errors after a few frames): it goes off with its own reason, and
    /// the preview and the take go on to the end of the run.
    func testASubjectViewFailureNeverTouchesTheCapture() throws {
        let dir = try scratchDirectory(self)
        let pipelines = "\(dir)/Pipelines"
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: repo.appendingPathComponent("Pipelines").path, toPath: pipelines)
        let subject = try String(contentsOfFile: "\(pipelines)/subject-headless.gst", encoding: .utf8)
            .replacingOccurrences(of: "! fakesink name=subject_sink sync=false async=false",
                                  with: "! identity name=subject_sink error-after=15 ! fakesink name=subject_end sync=false async=false")
        XCTAssertTrue(subject.contains("error-after"))
        try subject.write(toFile: "\(pipelines)/subject-headless.gst", atomically: true, encoding: .utf8)
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(base + ["--pipelines", pipelines, "--record", "--countdown", "0", "--duration", "2",
                                         "--record-dir", dir, "--events", events, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the subject view failed"), run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "duration reached")
        XCTAssertGreaterThan(report.operatorView.frames, 50, "the preview ran on")
        XCTAssertLessThan(report.subjectView.frames, 20, "the subject view stopped")
        let take = try XCTUnwrap(report.takes.first)
        XCTAssertGreaterThan(try MediaInspector.decode(take.file).video.frames, 50, "the take ran on")
        let lines = try String(contentsOfFile: events, encoding: .utf8)
        XCTAssertTrue(lines.contains(#""reasons":["subject-view-failed"]"#), lines)
    }

    /// A control line longer than 64 KiB gets one error, however long it is, and the next line works.
    func testAnOversizedControlLineGetsOneError() throws {
        let dir = try scratchDirectory(self)
        let socketPath = "\(dir)/control.sock"
        let run = try BackgroundRun(base + ["--control", socketPath, "--json"], directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        let client = try ControlClient(path: socketPath)
        client.send(String(repeating: "x", count: 300_000) + "\n" + #"{"cmd":"mirror"}"#)
        let error = try client.next("error")
        XCTAssertTrue((error["message"] as? String ?? "").contains("longer than 64 KiB"))
        // The very next event is the mirror command's, not a second error for the rest of the long line.
        let next = try client.nextAny()
        XCTAssertEqual(next["event"] as? String, "command", "\(next)")
        XCTAssertEqual(next["cmd"] as? String, "mirror")
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
    }

    /// Records one take of `seconds` into `dir` and returns its file.
    private func recordTake(into dir: String, seconds: String = "1") throws -> String {
        let run = try duoCapture(base + ["--record", "--countdown", "0", "--duration", seconds, "--record-dir", dir, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".mkv") })
        return "\(dir)/\(name)"
    }

    /// Sidecars are files a user can edit or a disk can damage: a marker at 1e300 s, a swap at -1e300 s
    /// and dropped frames that overflow when added up give a report (each such sidecar left out, and
    /// said why), never a crash.
    func testDamagedSidecarsNeverCrashTheReport() throws {
        let dir = try scratchDirectory(self)
        let take = try recordTake(into: dir)
        let sidecar = TakeSidecar.path(forTake: take)
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecar))) as? [String: Any])
        let edits: [(String, [String: Any])] = [
            ("marker", ["markersPassed": [["title": "Intro", "atSeconds": 1e300]]]),
            ("swap", ["swaps": [["atSeconds": -1e300, "from": "A", "to": "B", "format": "320x240@30"]]]),
            ("dropped-1", ["droppedFrames": Int64.max]),
            ("dropped-2", ["droppedFrames": Int64.max]),
        ]
        for (name, edit) in edits {
            try FileManager.default.copyItem(atPath: take, toPath: "\(dir)/\(name).mkv")
            var edited = json
            edited.merge(edit) { _, new in new }
            try JSONSerialization.data(withJSONObject: edited).write(to: URL(fileURLWithPath: "\(dir)/\(name).json"))
        }
        // A count beyond Int64 does not decode at all: said too.
        try FileManager.default.copyItem(atPath: take, toPath: "\(dir)/beyond.mkv")
        try #"{"take": 1e300}"#.write(toFile: "\(dir)/beyond.json", atomically: true, encoding: .utf8)
        json["droppedFrames"] = 3
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: sidecar))
        let run = try duoCapture(["report", dir])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
        XCTAssertTrue(run.stdout.hasSuffix(": 6 takes, 5 damaged sidecars left out\n"), run.stdout)
        XCTAssertTrue(html.contains("sidecar damaged: it does not read (sidecar \(dir)/beyond.json is not a duo-capture take sidecar"), html)
        XCTAssertTrue(html.contains("sidecar damaged: its marker &quot;Intro&quot; is at 1e+300 s, outside any take"), html)
        XCTAssertTrue(html.contains("sidecar damaged: its swap to B is at -1e+300 s, outside any take"), html)
        XCTAssertEqual(html.components(separatedBy: "is more than any take holds").count - 1, 2)
        XCTAssertTrue(html.contains("<b>3</b>dropped frames"), "the good take's count is the total")
        XCTAssertEqual(html.components(separatedBy: "<div class=\"strip\"><img").count - 1, 6, "every take keeps its thumbnails")
    }

    /// `report` ended by a signal half-way leaves no scratch folder behind (and no half report).
    func testAnInterruptedReportLeavesNoScratchFolder() throws {
        let dir = try scratchDirectory(self)
        let takes = "\(dir)/takes", tmp = "\(dir)/tmp"
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let take = try recordTake(into: takes, seconds: "2")
        // Enough takes that the report is still at work when the signal comes: a report reads 13 short
        // takes in about half a second, 200 (hard links, so nothing is copied) in several seconds.
        for i in 1...200 { XCTAssertEqual(link(take, "\(takes)/copy-\(i).mkv"), 0) }
        for signal in [SIGTERM, SIGINT] {
            let run = try BackgroundRun(["report", takes], directory: dir, environment: ["TMPDIR": tmp])
            defer { if run.process.isRunning { run.process.terminate() } }
            func scratch() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("duo-report-") }
            }
            try run.wait(for: "the report's scratch folder in TMPDIR") { !scratch().isEmpty }
            kill(run.process.processIdentifier, signal)
            XCTAssertEqual(run.finish(timeout: 30), 128 + signal, run.stderr)
            XCTAssertEqual(scratch(), [], "the scratch folder is gone after \(signal)")
            XCTAssertTrue(run.stderr.contains("report interrupted"), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(takes)/report.html"))
        }
    }
}
