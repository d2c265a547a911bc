import DuoCore
import Foundation
import XCTest

/// The replay buffer through the real program (issue 39): a headless run with `--replay 10` and sound,
/// no take, saved over the control socket 14 s in. The replay is 10 s (±1 GOP) from a keyframe, decodes
/// completely, has its sound, its sidecar is marked replay with the span, the note made in the span is a
/// chapter at its time, the event was emitted, a second save while the first is written is refused, and
/// the buffer's memory stays within its cap while the process's memory stays level once it is full.
final class ReplayRunTests: XCTestCase {
    private func ffprobe(_ arguments: [String]) throws -> [String: Any] {
        let r = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-of", "json"] + arguments, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func testTenSecondsSavedFourteenSecondsInWithoutATake() throws {
        let remote = try RemoteRun(self, extra: ["--replay", "10", "--audio", "test"], osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)
        func events(_ name: String) -> [[String: Any]] {
            remote.eventLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["event"] as? String == name }
        }
        /// Waits for the run's own clock (the periodic status, once a second) to pass `seconds` after its start.
        func waitUntil(_ seconds: Double) throws {
            try remote.run.wait(upTo: seconds + 30, for: "\(seconds) s into the run") {
                guard let started = events("started").first?["t"] as? Double else { return false }
                return events("status").contains { ($0["t"] as? Double ?? 0) >= started + seconds }
            }
        }
        try waitUntil(5)
        control.send(#"{"cmd":"note","code":"BUG","text":"the replay keeps this"}"#)
        try remote.run.wait(for: "the note") { !events("note").isEmpty }
        try waitUntil(11.5)
        let rssFull = remote.rssKilobytes
        try waitUntil(14)
        let rssLater = remote.rssKilobytes
        // Two saves at once: the second is refused while the first is written (not queued).
        control.send(#"{"cmd":"save-replay"}"# + "\n" + #"{"cmd":"save-replay"}"#)
        try remote.run.wait(for: "the replay-saved event") { !events("replay-saved").isEmpty }
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        try assertEventsDocumented(remote.events)

        let saved = try XCTUnwrap(events("replay-saved").first)
        XCTAssertEqual(events("replay-saved").count, 1)
        XCTAssertTrue(events("error").contains { ($0["message"] as? String ?? "").contains("a replay is being saved") },
                      "the second save is refused: \(events("error"))")
        let file = try XCTUnwrap(saved["file"] as? String)
        XCTAssertTrue((file as NSString).lastPathComponent.hasPrefix("duo-"), file)
        XCTAssertTrue(file.hasSuffix("-replay01.mkv"), file)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: remote.dir).contains { $0.contains("-take") }, "no take was recorded")

        // 10 s, never less, at most one GOP (a keyframe a second at 30 fps) more.
        let seconds = try XCTUnwrap(saved["seconds"] as? Double)
        XCTAssertGreaterThanOrEqual(seconds, 10 - 1.0 / 30)
        XCTAssertLessThanOrEqual(seconds, 11)
        let format = try XCTUnwrap(try ffprobe(["-show_format", file])["format"] as? [String: Any])
        XCTAssertEqual(Double(format["duration"] as? String ?? "") ?? 0, seconds, accuracy: 0.1)

        // It decodes completely from its first frame, a keyframe, and has its sound.
        let inspect = try duoCapture(["inspect", file, "--json"])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(decoded["firstFrameIsKeyframe"] as? Bool, true)
        XCTAssertEqual(decoded["videoFrames"] as? Int, saved["frames"] as? Int)
        XCTAssertEqual(Double(decoded["videoFrames"] as? Int ?? 0), seconds * 30, accuracy: 1)
        XCTAssertGreaterThan(decoded["audioBuffers"] as? Int ?? 0, Int(seconds * 40), "about 50 Opus packets a second")
        let frames = try ffprobe(["-select_streams", "v", "-show_frames", "-read_intervals", "%+#1", "-show_entries", "frame=key_frame,pts_time", file])
        let first = try XCTUnwrap((frames["frames"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["key_frame"] as? Int, 1)
        XCTAssertEqual(Double(first["pts_time"] as? String ?? "") ?? -1, 0, accuracy: 0.001)

        // Its sidecar: a replay, its wall-clock span as the event says, 10 s apart, the note inside it.
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        let replay = try XCTUnwrap(sidecar.replay)
        XCTAssertEqual(replay.bufferSeconds, 10)
        XCTAssertEqual(replay.spanStart, saved["start"] as? String)
        XCTAssertEqual(replay.spanEnd, saved["end"] as? String)
        let start = try XCTUnwrap(TakeSidecar.date(replay.spanStart)), end = try XCTUnwrap(TakeSidecar.date(replay.spanEnd))
        XCTAssertEqual(end.timeIntervalSince(start), seconds, accuracy: 0.01)
        XCTAssertNil(sidecar.notes, "the replay's notes are its own (replay.notes): a report counts each note once")
        let note = try XCTUnwrap(replay.notes?.first)
        let noteWall = try XCTUnwrap(TakeSidecar.date(note.wall))
        XCTAssertEqual(try XCTUnwrap(note.atSeconds), noteWall.timeIntervalSince(start), accuracy: 0.002)

        // The report lists it as a replay with its span, and counts the note once (the session's).
        let report = try duoCapture(["report", remote.dir, "--json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let listed = try XCTUnwrap((object["takeList"] as? [[String: Any]])?.first)
        XCTAssertEqual((listed["replay"] as? [String: Any])?["start"] as? String, replay.spanStart)
        XCTAssertEqual(((object["notes"] as? [String: Any])?["list"] as? [Any])?.count, 1)
        // The page's session sheet lists it among the replays with its span, and its timeline marks the note.
        let html = try String(contentsOfFile: "\(remote.dir)/report.html", encoding: .utf8)
        let replays = try XCTUnwrap(html.range(of: "id=\"replays\"").map { String(html[$0.lowerBound...].prefix(2000)) })
        XCTAssertTrue(replays.contains("\(replay.spanStart) to \(replay.spanEnd)") && replays.contains("1 note or flag in its span"), replays)
        XCTAssertTrue(html.contains("<title>BUG: the replay keeps this at "), "the replay's timeline marks its note")

        // The note is a chapter at its time in the replay (ffprobe reads them back).
        let chapters = try XCTUnwrap(try ffprobe(["-show_chapters", file])["chapters"] as? [[String: Any]])
        let titles = chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String ?? "" }
        XCTAssertEqual(titles, ["Replay 1", "BUG: the replay keeps this"])
        XCTAssertEqual(Double(chapters[1]["start_time"] as? String ?? "") ?? -1, try XCTUnwrap(note.atSeconds), accuracy: 1.0 / 30)
        XCTAssertEqual(saved["chapters"] as? Int, 2)

        // Memory: the buffer never held more than its cap (the sidecar's figures: 1.5 × the bitrates'
        // 10 s, plus 2 s), and once it was full (10 s and a GOP) the process grew by less than that cap:
        // the ring drops as much as it adds.
        let held = try XCTUnwrap(replay.bufferBytes), peak = try XCTUnwrap(replay.bufferPeakBytes), cap = try XCTUnwrap(replay.bufferCapBytes)
        XCTAssertGreaterThan(held, 0)
        XCTAssertLessThanOrEqual(peak, cap)
        XCTAssertEqual(cap, ReplayRing<Void>.byteCap(seconds: 10, videoKbps: 1000, audioKbps: 96), "320x240@30's bitrate is x264's least, 1000 kbps")
        XCTAssertGreaterThan(rssFull, 0)
        XCTAssertLessThan(rssLater - rssFull, cap / 1024, "RSS \(rssFull) kB at 11.5 s, \(rssLater) kB at 14 s; the cap is \(cap / 1024) kB")
    }

    /// Without --replay, save-replay is refused in one line saying how to start; on a full disk (a tiny
    /// tmpfs in a private mount namespace) the save is one clear error, its partial file is removed,
    /// and the preview runs on to the end.
    func testNoBufferIsRefusedAndAFullDiskRemovesThePartialReplay() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/save.timeline", events = "\(dir)/events.jsonl"
        try #"{"at": 0.3, "cmd": "save-replay"}"# .appending("\n" + #"{"at": 0.5, "cmd": "quit"}"#)
            .write(toFile: timeline, atomically: true, encoding: .utf8)
        let refused = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", dir,
                                      "--timeline", timeline, "--events", events, "--quiet"])
        XCTAssertEqual(refused.status, 0, refused.stderr)
        let errors = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { $0.contains(#""event":"error""#) }
        XCTAssertEqual(errors.count, 1, "\(errors)")
        XCTAssertTrue(errors.first?.contains("start duo-capture with --replay SECONDS") == true, "\(errors)")

        let full = "\(dir)/full"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        try #"{"at": 2.5, "cmd": "save-replay"}"# .appending("\n" + #"{"at": 3.5, "cmd": "quit"}"#)
            .write(toFile: timeline, atomically: true, encoding: .utf8)
        let fullEvents = "\(dir)/full-events.jsonl"
        // 2.5 s at 1000 kbps is about 310 kB; the disk holds 128 kB.
        let script = """
            mount -t tmpfs -o size=128k duo-capture-full "\(full)" || exit 99
            "$0" "$@"; rc=$?
            ls -A "\(full)" > "\(dir)/left.txt"
            exit $rc
            """
        let unshare = getuid() == 0 ? ["/usr/bin/unshare", "-m"] : ["/usr/bin/unshare", "-r", "-m"]
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--json", "--replay", "2",
                                     "--record-dir", full, "--timeline", timeline, "--events", fullEvents], directory: dir,
                                    launcher: unshare + ["/bin/sh", "-c", script])
        let status = run.finish(timeout: 60)
        XCTAssertNotEqual(status, 99, "could not mount a size-limited tmpfs: \(run.stderr)")
        XCTAssertEqual(status, 0, run.stderr)
        let lines = try String(contentsOfFile: fullEvents, encoding: .utf8).split(separator: "\n").map(String.init)
        let failures = lines.filter { $0.contains(#""event":"error""#) }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(failures.first?.contains("the replay was not saved: the disk holding \(full) is full") == true, "\(failures)")
        XCTAssertFalse(lines.contains { $0.contains("replay-saved") })
        let left = try String(contentsOfFile: "\(dir)/left.txt", encoding: .utf8)
        XCTAssertFalse(left.contains(".mkv"), "the partial replay was removed: \(left)")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.endReason, "quit command", "the run went on to its end")
        XCTAssertGreaterThan(report.operatorView.frames, 90, "the preview ran the whole 3.5 s")
        // Two cores encode twice here (the preview's graph and the buffer); a frame's hiccup is not a stop.
        XCTAssertLessThanOrEqual(report.operatorView.dropped, 2)
    }
}
