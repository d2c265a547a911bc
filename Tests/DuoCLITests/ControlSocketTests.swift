import DuoCore
import DuoMedia
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A client of the control socket: sends JSON lines, reads event lines (each read waits at most 30 s).
final class ControlClient {
    let fd: Int32
    private var pending = [UInt8]()

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // The socket file appears at bind, a moment before listen: a refused connection is retried briefly.
        var ok: Int32 = -1
        for _ in 0..<50 {
            ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if ok == 0 || errno != ECONNREFUSED { break }
            usleep(20_000)
        }
        guard ok == 0 else { throw DuoError.runtime("cannot connect to \(path)") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next event that answers something (the run's own starting, started, frames and periodic status
    /// skipped).
    func nextAny() throws -> [String: Any] {
        while true {
            while let newline = pending.firstIndex(of: 10) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                if let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
                   !(object["event"] as? String == "status" && object["trigger"] as? String == "periodic"),
                   !["frames", "starting", "started"].contains(object["event"] as? String ?? "") {
                    return object
                }
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw DuoError.runtime("no event: the socket closed or timed out") }
            pending.append(contentsOf: buffer[0..<n])
        }
    }

    /// Reads events until one named `name` arrives; returns it. Throws on timeout or a closed socket.
    func next(_ name: String) throws -> [String: Any] {
        while true {
            while let newline = pending.firstIndex(of: 10) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                if let object = try JSONSerialization.jsonObject(with: line) as? [String: Any], object["event"] as? String == name {
                    return object
                }
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw DuoError.runtime("no \(name) event: the socket closed or timed out") }
            pending.append(contentsOf: buffer[0..<n])
        }
    }
}

final class ControlSocketTests: XCTestCase {
    /// A QA script drives a headless run over the socket: a bad line is answered with an error, record
    /// and stop make a take that plays, a desktop-only command is refused, quit ends the run cleanly.
    func testHeadlessRunDrivenOverTheControlSocket() throws {
        let dir = try scratchDirectory(self)
        let socketPath = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0",
                                     "--record-dir", dir, "--control", socketPath, "--json", "--quiet"], directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        var info = stat()
        XCTAssertEqual(stat(socketPath, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "only the owner may drive the session")

        let client = try ControlClient(path: socketPath)
        client.send(#"{"cmd":"dance"}"#)
        XCTAssertTrue((try client.next("error")["message"] as? String ?? "").contains("unknown command \"dance\""))
        client.send("not json")
        XCTAssertTrue((try client.next("error")["message"] as? String ?? "").contains("not a JSON object"))

        client.send(#"{"cmd":"record"}"#)
        let started = try client.next("take-started")
        let file = try XCTUnwrap(started["file"] as? String)
        XCTAssertTrue(file.hasPrefix(dir))
        client.send(#"{"cmd":"record"}"#)
        XCTAssertTrue((try client.next("error")["message"] as? String ?? "").contains("already recording"))
        client.send(#"{"cmd":"fullscreen","on":true}"#)
        XCTAssertTrue((try client.next("error")["message"] as? String ?? "").contains("--headless"))

        // Let the take gather frames (a real file that grows), then stop it over the socket.
        try run.wait(for: "the take to grow") { ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 20_000 }
        client.send(#"{"cmd":"stop"}"#)
        let ended = try client.next("take-ended")
        XCTAssertEqual(ended["file"] as? String, file)
        XCTAssertEqual(ended["kept"] as? Bool, true)
        let frames = try XCTUnwrap(ended["frames"] as? Int)
        XCTAssertGreaterThan(frames, 0)

        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "quit command")
        XCTAssertEqual(report.takes.map(\.file), [file])
        XCTAssertEqual(Double(try MediaInspector.decode(file).video.frames), Double(frames), accuracy: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath), "the socket is removed at the end")
    }

    /// A socket another run is serving is not taken over.
    func testASocketInUseIsRefused() throws {
        let dir = try scratchDirectory(self)
        let socketPath = "\(dir)/control.sock"
        let first = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "160x120@15", "--control", socketPath,
                                       "--quiet"], directory: dir)
        defer { if first.process.isRunning { first.process.terminate() } }
        try first.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        let second = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "160x120@15", "--control", socketPath, "--duration", "1"])
        XCTAssertEqual(second.status, 70, second.stderr)
        XCTAssertTrue(second.stderr.contains("in use by another duo-capture"), second.stderr)
        first.process.interrupt()
        XCTAssertEqual(first.finish(), 0)
    }
}

final class TimelineRunTests: XCTestCase {
    /// A timeline replays a QA session: two takes of about a second each, then quit. Both files play,
    /// and each take's length follows the timeline.
    func testTimelineReplaysTwoTakesAndQuits() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/session.jsonl"
        try Data("""
            # two one-second takes
            {"at": 0.2, "cmd": "record"}
            {"at": 1.2, "cmd": "stop"}
            {"at": 1.5, "cmd": "record"}
            {"at": 2.5, "cmd": "stop"}
            {"at": 2.7, "cmd": "quit"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0",
                                  "--record-dir", dir, "--timeline", timeline, "--events", events, "--json", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "quit command")
        XCTAssertEqual(report.takes.count, 2)
        for take in report.takes {
            let frames = try MediaInspector.decode(take.file).video.frames
            XCTAssertTrue((20...40).contains(frames), "\(take.file): \(frames) frames for a one-second take")
        }
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("\"event\":\"timeline\"") }.count, 5, "every timeline line was replayed")
        XCTAssertEqual(lines.filter { $0.contains("\"event\":\"take-ended\"") }.count, 2)
    }

    func testABadTimelineIsRefusedBeforeAnythingStarts() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/bad.jsonl"
        try Data("{\"at\": 1, \"cmd\": \"record\"}\n{\"at\": 2, \"cmd\": \"jump\"}\n".utf8).write(to: URL(fileURLWithPath: timeline))
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--timeline", timeline])
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.stderr.contains("bad.jsonl line 2") && run.stderr.contains("jump needs"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
    }
}

final class TwoCameraRunTests: XCTestCase {
    /// The Duo's two front cameras as one virtual camera: the run picks their common format, posture
    /// commands swap mid-take, and the sidecar lists both cameras and every swap with its time.
    func testPostureSwapsTheVirtualCameraMidTake() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/session.jsonl"
        try Data("""
            {"at": 0.2, "cmd": "record"}
            {"at": 0.8, "cmd": "fold"}
            {"at": 1.4, "cmd": "unfold"}
            {"at": 1.4, "cmd": "unfold"}
            {"at": 2.0, "cmd": "stop"}
            {"at": 2.2, "cmd": "quit"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "inner", "--camera", "outer", "--format", "640x360@30",
                                  "--countdown", "0", "--record-dir", dir, "--timeline", timeline, "--events", events,
                                  "--json", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let take = try XCTUnwrap(report.takes.first)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take.file))
        XCTAssertEqual(sidecar.cameras.map(\.role), ["A", "B"])
        XCTAssertEqual(sidecar.cameras.map(\.mode), ["640x360@30 NV12", "640x360@30 NV12"], "both at the common format")
        // fold → B, unfold → A; the second unfold changes nothing and is not a swap.
        XCTAssertEqual(sidecar.swaps.map(\.to), ["Outer front camera (beside the outer display) (simulated, outer)",
                                                 "Inner front camera (under the inner display) (simulated, inner)"])
        XCTAssertEqual(sidecar.swaps.map(\.format), ["640x360@30", "640x360@30"])
        XCTAssertEqual(sidecar.swaps[0].atSeconds, 0.6, accuracy: 0.3)
        XCTAssertEqual(take.dropped, 0, "no frame lost across the swaps")
        XCTAssertEqual(take.swaps, 2)
        XCTAssertEqual(take.capsChanges, 0, "no renegotiation reached the recording")
        XCTAssertLessThanOrEqual(try XCTUnwrap(take.maxGapMs), 1000.0 / 30 * 1.5, "no gap over a frame interval")
        let decoded = try MediaInspector.decode(take.file)
        XCTAssertEqual(decoded.width, 640)
        XCTAssertEqual(Double(decoded.video.frames), Double(take.frames), accuracy: 1)
        let swaps = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"event\":\"swap\"") }
        XCTAssertEqual(swaps.count, 2)
    }

    /// The documents' interruption: camera B (not on the air) unplugged mid-take and plugged back, then
    /// camera A (on the air) unplugged: the take goes on in one file, on A and then on B, the run ends
    /// normally, and the events say what happened.
    func testALostCameraNeverEndsTheTake() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/faults.jsonl"
        try Data("""
            {"at": 0.2, "cmd": "record"}
            {"at": 0.8, "cmd": "unplug", "camera": "B"}
            {"at": 1.8, "cmd": "replug", "camera": "B"}
            {"at": 2.8, "cmd": "unplug", "camera": "A"}
            {"at": 4.0, "cmd": "stop"}
            {"at": 4.2, "cmd": "quit"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "inner", "--camera", "outer", "--format", "320x180@30",
                                  "--countdown", "0", "--record-dir", dir, "--timeline", timeline, "--events", events,
                                  "--json", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let story = try eventStory(events)
        XCTAssertEqual(story, ["take", "lost B", "restored B", "lost A", "swap", "ended", "stopped quit command"], "\(story)")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1, "one file")
        let take = try XCTUnwrap(report.takes.first)
        let decoded = try MediaInspector.decode(take.file)
        XCTAssertEqual(Double(decoded.video.frames), Double(take.frames), accuracy: 1)
        // B's loss costs nothing; A's costs the frames until it is noticed (four intervals, at least 0.3 s).
        XCTAssertGreaterThan(take.frames, 90, "the take went on to the stop")
        let span = Double((decoded.video.lastPTS ?? 0) - (decoded.video.firstPTS ?? 0)) / 1e9
        XCTAssertGreaterThan(span, 3.4, "camera B's frames after its re-plug reached the file, to the stop")
        XCTAssertLessThanOrEqual(try XCTUnwrap(take.maxGapMs), 700, "the gap while camera A was on the air and silent")
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take.file))
        XCTAssertEqual(sidecar.interruptions?.map { "\($0.what) \($0.device)" }, ["lost B", "restored B", "lost A"])
        XCTAssertEqual(sidecar.swaps.count, 1, "the switch to B after A was lost")
    }

    func testCamerasWithoutACommonFormatAreRefused() throws {
        let dir = try scratchDirectory(self)
        let odd = "\(dir)/odd.json"
        try Data(#"{"id": "odd", "name": "Odd", "formats": [{"width": 800, "height": 600, "frameRates": [25]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: odd))
        let run = try duoCapture(["--headless", "--camera", "inner", "--camera", "profile:\(odd)", "--duration", "1"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("share no format"), run.stderr)
    }
}

/// Individual cameras: each at its own best format, so a swap mid-take follows --swap-policy and the
/// recording never changes format inside a file.
final class IndividualCameraTests: XCTestCase {
    private func run(policy: String, in dir: String) throws -> (RunReport, [Substring]) {
        let small = "\(dir)/small.json"
        try Data(#"{"id": "small", "name": "Small", "testPattern": "ball", "formats": [{"width": 320, "height": 180, "frameRates": [30]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: small))
        let timeline = "\(dir)/session.jsonl"
        try Data("""
            {"at": 0.2, "cmd": "record"}
            {"at": 1.0, "cmd": "swap"}
            {"at": 1.8, "cmd": "stop"}
            {"at": 2.0, "cmd": "quit"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let events = "\(dir)/events.jsonl"
        let r = try duoCapture(["--headless", "--camera", "inner", "--camera", "profile:\(small)", "--camera-mode", "individual",
                                "--swap-policy", policy, "--keep-segments", "--format", "640x360@30", "--countdown", "0", "--record-dir", dir,
                                "--timeline", timeline, "--events", events, "--json", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(r.stdout.utf8))
        return (report, try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n"))
    }

    func testSegmentStartsANewFileAtTheNewFormat() throws {
        let (report, events) = try run(policy: "segment", in: try scratchDirectory(self))
        // One take, joined; its segments kept (--keep-segments), one file per camera.
        XCTAssertEqual(report.takes.count, 1, "the summary lists the joined take")
        let segments = try XCTUnwrap(report.takes.first?.segments, "the joined take lists its segments")
        XCTAssertEqual(segments.count, 2, "one file per camera")
        guard segments.count == 2 else { return }
        let sizes = try segments.map { t -> String in
            let d = try MediaInspector.decode(t.file)
            return "\(d.width ?? 0)x\(d.height ?? 0)"
        }
        XCTAssertEqual(sizes, ["640x360", "320x180"])
        XCTAssertEqual(events.filter { $0.contains("\"event\":\"swap\"") }.count, 1)
        // Each segment's sidecar says which camera recorded it at which format; both share the take's id,
        // and the last lists the segments.
        let sidecars = try segments.map { try TakeSidecar.read(TakeSidecar.path(forTake: $0.file)) }
        XCTAssertEqual(sidecars.map(\.recordedBy), ["A", "B"])
        XCTAssertEqual(sidecars.map(\.format), ["640x360@30", "320x180@30"])
        XCTAssertEqual(sidecars.map(\.segment), [1, 2])
        XCTAssertEqual(Set(sidecars.map(\.takeId)).count, 1)
        XCTAssertNotNil(sidecars[0].takeId)
        XCTAssertNil(sidecars[0].segments)
        XCTAssertEqual(sidecars[1].segments, segments.map { ($0.file as NSString).lastPathComponent })
        XCTAssertEqual(Double(sidecars[1].durationSeconds ?? 0), Double(segments[1].frames) / 30, accuracy: 0.01,
                       "camera B's own frame interval")
    }

    func testLockRefusesTheSwapWhileRecording() throws {
        let (report, events) = try run(policy: "lock", in: try scratchDirectory(self))
        XCTAssertEqual(report.takes.count, 1)
        XCTAssertEqual(try MediaInspector.decode(report.takes[0].file).width, 640)
        XCTAssertTrue(events.contains { $0.contains("\"event\":\"error\"") && $0.contains("swap-policy is lock") })
        XCTAssertFalse(events.contains { $0.contains("\"event\":\"swap\"") })
    }

    func testStopEndsTheTakeAndSwaps() throws {
        let (report, events) = try run(policy: "stop", in: try scratchDirectory(self))
        XCTAssertEqual(report.takes.count, 1)
        XCTAssertEqual(try MediaInspector.decode(report.takes[0].file).width, 640)
        XCTAssertEqual(events.filter { $0.contains("\"event\":\"swap\"") }.count, 1)
        // The later stop finds nothing recording.
        XCTAssertTrue(events.contains { $0.contains("nothing is recording") })
    }
}

/// A signal that arrives while a take is being stopped: the stop finishes, the take gets its final
/// sidecar and its summary line, and the run ends cleanly.
final class StopReentrancyTests: XCTestCase {
    func testSIGINTWhileATakeStopsStillFinalisesIt() throws {
        let dir = try scratchDirectory(self)
        let socketPath = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0",
                                     "--audio", "none", "--record-dir", dir, "--control", socketPath, "--json", "--quiet"], directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        let client = try ControlClient(path: socketPath)
        client.send(#"{"cmd":"record"}"#)
        let file = try XCTUnwrap(try client.next("take-started")["file"] as? String)
        try run.wait(for: "the take to grow") { ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 5_000 }
        client.send(#"{"cmd":"stop"}"#)
        _ = try client.next("command")
        kill(run.process.processIdentifier, SIGINT)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1, "the take has its summary line")
        XCTAssertGreaterThan(report.takes.first?.frames ?? 0, 0)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        XCTAssertEqual(sidecar.complete, true, "the final sidecar, not the preliminary one")
        XCTAssertNotNil(sidecar.ended)
        XCTAssertGreaterThan(try MediaInspector.decode(file).video.frames, 0)
    }
}
