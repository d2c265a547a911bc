import DuoCore
import DuoMedia
import Foundation
import XCTest

/// Microphones by name, end to end: a private PipeWire daemon (`PipeWireDaemon`) with a virtual
/// microphone, the real duo-capture binary, and the take's sound decoded and measured with GStreamer's
/// `level` (TakeAnalysis).
final class MicrophoneTests: XCTestCase {
    /// A virtual microphone removed and published again mid-take: the take's sound has a gap (silence)
    /// exactly where the microphone was gone and sound again after it returned, the take decodes whole
    /// with its sound as long as its picture, and the events say microphone-lost then
    /// microphone-restored; the sidecar lists the gap.
    func testAMicrophoneRemovedAndReturnedMidTakeLeavesAGapAndComesBack() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishMicrophone("duo-test-mic", frequency: 440)
        let dir = try scratchDirectory(self)
        let events = "\(dir)/events.jsonl"
        let run = try RunningCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "duo-test-mic",
                                      "--record", "--record-dir", dir, "--countdown", "0", "--duration", "60", "--events", events, "--json", "--quiet"],
                                     environment: daemon.environment.merging(["XDG_STATE_HOME": "\(dir)/state"]) { $1 }, in: dir, test: self)
        let log = EventFile(path: events)
        let take = try log.waitFor("the take to start", in: run) { $0.event == "take-started" }
        // The microphone's sound reaches the live graph, steadily (a first stream may need a retry).
        _ = try log.waitForSteadySound(after: take, in: run)
        let lostBefore = log.all().filter { $0.event == "microphone-lost" }.count

        try daemon.unpublish("duo-test-mic")
        let lost = try log.waitFor("microphone-lost", in: run) { $0.event == "microphone-lost" && log.count("microphone-lost", upTo: $0) > lostBefore }
        // Gone for at least 1.5 s of the run's time.
        try log.waitFor("1.5 s without the microphone", in: run) { $0.event == "status" && $0.t >= lost.t + 1.5 }
        try daemon.publishMicrophone("duo-test-mic", frequency: 440)
        let firstBack = try log.waitFor("microphone-restored", in: run) { $0.event == "microphone-restored" && $0.t > lost.t }
        // PipeWire's first stream after a node is published may deliver a buffer and stall: then the
        // microphone is lost again and tried again, until sound flows. The last restoration before the
        // sound is the return.
        let sound = try log.waitForSteadySound(after: firstBack, in: run)
        let restored = try XCTUnwrap(log.all().last { $0.event == "microphone-restored" && $0.index < sound.index })
        let result = try run.interrupt()
        XCTAssertEqual(result.status, 0, result.stderr)

        // The events: lost (the microphone unplugged) then restored (maybe lost and restored again while
        // the new stream started), and nothing after the return.
        let story = log.all().filter { $0.event.hasPrefix("microphone-") && $0.index >= lost.index }
        XCTAssertEqual(Array(story.map(\.event).prefix(2)), ["microphone-lost", "microphone-restored"])
        XCTAssertEqual(story.last?.index, restored.index, "\(story.map(\.event))")
        XCTAssertEqual(lost["id"] as? String, "duo-test-mic")

        // The file: whole, its sound as long as its picture.
        let file = try XCTUnwrap(take["file"] as? String)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(result.stdout.utf8))
        let frames = try XCTUnwrap(report.takes.first?.frames)
        let decoded = try MediaInspector.decode(file)
        XCTAssertEqual(Double(decoded.video.frames), Double(frames), accuracy: 1, "every frame decodes")
        let analysis = TakeAnalysis.analyse(file, thumbnails: 0)
        XCTAssertNil(analysis.damage)
        let videoSeconds = Double(frames) / 30
        XCTAssertEqual(Double(analysis.levels.count) * 0.1, videoSeconds, accuracy: 0.4, "the sound never stopped: as long as the picture")

        // The sidecar's gap for the unplugging, and the decoded level inside and around it.
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        let lostAt = lost.t - take.t, restoredAt = restored.t - take.t
        // The gaps from the unplugging to the return, one after the other (a retry's gap starts where the
        // one before ended), as one.
        let gaps = sidecar.audio?.gaps ?? []
        var gap = try XCTUnwrap(gaps.first { abs($0.fromSeconds - lostAt) < 1.0 }, "\(gaps)")
        for next in gaps where next.fromSeconds > gap.fromSeconds && next.fromSeconds <= gap.toSeconds + 0.3 { gap.toSeconds = max(gap.toSeconds, next.toSeconds) }
        XCTAssertEqual(gap.toSeconds, restoredAt, accuracy: 0.3, "\(gaps)")
        XCTAssertGreaterThanOrEqual(gap.toSeconds - gap.fromSeconds, 1.4)
        func level(_ from: Double, _ to: Double) -> [Double] {
            analysis.levels.filter { $0.seconds > from && $0.seconds <= to }.map(\.rmsDB)
        }
        let before = level(gap.fromSeconds - 1.0, gap.fromSeconds - 0.2)
        let during = level(gap.fromSeconds + 0.5, gap.toSeconds - 0.3)
        let after = level(gap.toSeconds + 0.4, min(gap.toSeconds + 1.4, videoSeconds - 0.2))
        let profile = stride(from: 0, to: analysis.levels.count, by: 5).map { String(format: "%.0f", analysis.levels[$0].rmsDB) }.joined(separator: " ")
        let context = "gap \(gap), events lost \(lostAt) restored \(restoredAt), level every 0.5 s: \(profile)"
        XCTAssertFalse(before.isEmpty || during.isEmpty || after.isEmpty, context)
        XCTAssertGreaterThan(before.min() ?? -999, -30, "sound before the microphone went: \(context)")
        XCTAssertLessThan(during.max() ?? 0, -60, "silence while it was gone: \(context)")
        XCTAssertGreaterThan(after.min() ?? -999, -30, "sound after it returned: \(context)")
        XCTAssertEqual(sidecar.interruptions?.filter { $0.device == "microphone" && $0.atSeconds >= lostAt - 0.1 }.map(\.what).prefix(2),
                       ["lost", "restored"])
    }

    /// `--audio NAME` for a microphone that does not exist: one line naming the ones that do; a name
    /// that does exist is remembered and `--audio auto` takes it next time.
    func testAMicrophoneThatDoesNotExistIsOneLineListingWhatDoes() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishMicrophone("duo-test-mic")
        let dir = try scratchDirectory(self)
        let env = daemon.environment.merging(["XDG_STATE_HOME": "\(dir)/state"]) { $1 }
        let base = ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--duration", "0.5", "--quiet"]
        let missing = try duoCapture(base + ["--audio", "Studio Mic"], environment: env)
        XCTAssertEqual(missing.status, 64, missing.stderr)
        let lines = missing.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, missing.stderr)
        XCTAssertTrue(lines.first?.contains("--audio \"Studio Mic\": no such microphone") ?? false, missing.stderr)
        XCTAssertTrue(lines.first?.contains("\"duo-test-mic\" (id:duo-test-mic)") ?? false, missing.stderr)
        let byId = try duoCapture(base + ["--audio", "id:nothing-here"], environment: env)
        XCTAssertEqual(byId.status, 64, byId.stderr)
        XCTAssertEqual(byId.stderr.split(separator: "\n").count, 1, byId.stderr)

        // Chosen by name: remembered, marked in the listing, and taken by --audio auto.
        let named = try duoCapture(base + ["--audio", "duo-test-mic"], environment: env)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try String(contentsOfFile: "\(dir)/state/duo-capture/last-microphone", encoding: .utf8), "duo-test-mic\n")
        let listed = try duoCapture(["microphones"], environment: env)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("duo-test-mic\tid:duo-test-mic\t"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("(auto, last used)"), listed.stdout)
        let auto = try duoCapture(["pipeline", "--source", "videotestsrc", "--format", "320x240@30"], environment: env)
        XCTAssertEqual(auto.status, 0, auto.stderr)
        XCTAssertTrue(auto.stdout.contains("target-object=") && auto.stdout.contains("duo-test-mic"), auto.stdout)
    }

    /// No PipeWire daemon: `microphones` is one line saying so, `--audio NAME` too, and a run with the
    /// simulated camera (sound: auto) still records a take that plays.
    func testWithoutAPipeWireDaemonMicrophonesIsOneLineAndARunStillRecords() throws {
        let dir = try scratchDirectory(self)
        try FileManager.default.createDirectory(atPath: "\(dir)/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // A microphone remembered from an earlier run: not there now, so auto goes on without it.
        try FileManager.default.createDirectory(atPath: "\(dir)/state/duo-capture", withIntermediateDirectories: true)
        try Data("duo-test-mic\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/state/duo-capture/last-microphone"))
        let env = ["XDG_RUNTIME_DIR": "\(dir)/run", "XDG_STATE_HOME": "\(dir)/state", "PIPEWIRE_REMOTE": "", "PIPEWIRE_RUNTIME_DIR": ""]
        let listed = try duoCapture(["microphones"], environment: env)
        XCTAssertEqual(listed.status, 69, listed.stderr)
        XCTAssertEqual(listed.stdout, "")
        let lines = listed.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, listed.stderr)
        XCTAssertTrue(lines.first?.contains("no PipeWire daemon is running (nothing listens at \(dir)/run/pipewire-0)") ?? false, listed.stderr)
        let named = try duoCapture(["--headless", "--camera", "inner", "--audio", "duo-test-mic", "--duration", "0.5"], environment: env)
        XCTAssertEqual(named.status, 64, named.stderr)
        XCTAssertTrue(named.stderr.contains("no PipeWire daemon is running"), named.stderr)
        XCTAssertEqual(named.stderr.split(separator: "\n").count, 1, named.stderr)

        let run = try duoCapture(["--headless", "--camera", "inner", "--format", "320x240@30", "--record", "--record-dir", dir,
                                  "--countdown", "0", "--duration", "2", "--json", "--quiet"], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let take = try XCTUnwrap(report.takes.first)
        XCTAssertGreaterThanOrEqual(take.frames, 45)
        XCTAssertEqual(Double(try MediaInspector.decode(take.file).video.frames), Double(take.frames), accuracy: 1)
    }
}

/// duo-capture running in the background (its output in files), ended with SIGINT as a user's Ctrl-C.
///
/// Thread: the test's thread.
final class RunningCapture {
    let process = Process()
    private let out: String, err: String

    init(_ arguments: [String], environment: [String: String], in dir: String, test: XCTestCase) throws {
        out = "\(dir)/stdout.txt"; err = "\(dir)/stderr.txt"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.executableURL = duoCaptureBinary()
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        test.addTeardownBlock { [process] in if process.isRunning { process.terminate(); process.waitUntilExit() } }
    }

    var stderr: String { (try? String(contentsOfFile: err, encoding: .utf8)) ?? "" }

    /// Ends the run as Ctrl-C does and waits (at most 30 s) for its end.
    func interrupt() throws -> Run {
        kill(process.processIdentifier, SIGINT)
        try PipeWireDaemon.waitFor("duo-capture to end", timeout: 30) { !self.process.isRunning }
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "", stderr: stderr)
    }
}

/// The `--events` file of a running duo-capture, read as it grows.
///
/// Thread: the test's thread.
struct EventFile {
    let path: String

    struct Event {
        let fields: [String: Any]
        let index: Int
        var event: String { fields["event"] as? String ?? "" }
        var t: Double { fields["t"] as? Double ?? 0 }
        subscript(key: String) -> Any? { fields[key] }
    }

    func all() -> [Event] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").enumerated().compactMap { i, line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map { Event(fields: $0, index: i) }
        }
    }

    /// How many `event`s there are up to and including `last`.
    func count(_ event: String, upTo last: Event) -> Int { all().filter { $0.event == event && $0.index <= last.index }.count }

    /// The first `status` event after `start` that opens 1.5 s of steady sound (every status from it on
    /// with a peak over -30 dB, no microphone lost), polled until there is one (at most 30 s).
    func waitForSteadySound(after start: Event, in run: RunningCapture) throws -> Event {
        var found: Event?
        try PipeWireDaemon.waitFor("1.5 s of steady sound after \(start.event) (stderr: \(run.stderr.suffix(600)))", timeout: 30) {
            let later = all().filter { $0.index > start.index && ($0.event == "status" || $0.event == "microphone-lost") }
            var opening: Event?
            for e in later {
                let loud = e.event == "status" && (e["audioPeak"] as? Double ?? -999) > -30
                if !loud { opening = nil; continue }
                if opening == nil { opening = e }
                if let o = opening, e.t - o.t >= 1.5 { found = o; return true }
            }
            if !run.process.isRunning { throw PipeWireDaemon.Failure("duo-capture ended: \(run.stderr.suffix(800))") }
            return false
        }
        return found!
    }

    /// The first event that satisfies `condition`, polled until it comes (at most 30 s) or the run ends.
    @discardableResult
    func waitFor(_ what: String, in run: RunningCapture, timeout: Double = 30, _ condition: (Event) -> Bool) throws -> Event {
        var found: Event?
        try PipeWireDaemon.waitFor("\(what) (stderr: \(run.stderr.suffix(600)))", timeout: timeout) {
            found = all().first(where: condition)
            if found == nil, !run.process.isRunning { throw PipeWireDaemon.Failure("duo-capture ended before \(what): \(run.stderr.suffix(800))") }
            return found != nil
        }
        return found!
    }
}
