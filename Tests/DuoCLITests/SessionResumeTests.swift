import DuoCore
import Foundation
import XCTest

/// A session that survives a restart (issue 37): a headless shot-list run killed with SIGKILL mid-take;
/// a normal start only offers `--resume` (the journal untouched); `--resume` goes on at the right shot
/// and take numbers with the teleprompter's place restored; a new session in the folder numbers on; the
/// report lists each take once; a damaged journal is one line saying what to do, and nothing is lost.
final class SessionResumeTests: XCTestCase {
    let script = """
        # Welcome

        Hello and welcome to this short film about the studio and the way we work every single day.
        We begin with the team and the room, then the tools, and then what comes next for all of us here.

        ## The team

        Our team is small and every person here does many things at once, from the lights to the sound.
        They care about each take and every frame, and they never stop asking how it could be even better.
        """

    let shots = "## 01 — Opening\nSay hello.\n\n## 02 — The team\nTalk about them.\n\n## 03 — Closing\nSay goodbye.\n"

    private func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }

    private func timeline(_ lines: [String], _ path: String) throws -> String {
        try write(lines.joined(separator: "\n") + "\n", path)
        return path
    }

    func testAKilledShotListSessionGoesOnWithResumeAndItsReportListsEachTakeOnce() throws {
        let dir = try scratchDirectory(self)
        let takes = "\(dir)/takes"
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        try write(script, "\(dir)/script.md")
        try write(shots, "\(dir)/shots.md")
        let common = ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", takes,
                      "--script", "\(dir)/script.md", "--wpm", "300", "--countdown", "0"]
        // Shot 01: take 1, a re-take (take 2); shot 02: take 1, killed while it records.
        let first = try timeline([#"{"at": 0.2, "cmd": "record"}"#, #"{"at": 1.2, "cmd": "stop"}"#,
                                  #"{"at": 1.4, "cmd": "retake"}"#, #"{"at": 2.4, "cmd": "stop"}"#,
                                  #"{"at": 2.6, "cmd": "shot", "next": true}"#, #"{"at": 2.8, "cmd": "record"}"#,
                                  #"{"at": 60, "cmd": "quit"}"#], "\(dir)/first.jsonl")
        let events = EventFile(path: "\(dir)/first-events.jsonl")
        let run = try RunningCapture(common + ["--shots", "\(dir)/shots.md", "--timeline", first, "--events", events.path],
                                     environment: [:], in: dir, test: self)
        // Killed 1.5 s into shot 02's take 1 (the journal's place is written once a second as it scrolls).
        try PipeWireDaemon.waitFor("shot 02's take to record for 1.5 s (stderr: \(run.stderr.suffix(600)))", timeout: 30) {
            guard let began = events.all().first(where: { $0.event == "shot-take" && $0["shot"] as? String == "02" }) else {
                if !run.process.isRunning { throw PipeWireDaemon.Failure("duo-capture ended: \(run.stderr.suffix(800))") }
                return false
            }
            return events.all().contains { $0.event == "status" && $0.t >= began.t + 1.5 }
        }
        kill(run.process.processIdentifier, SIGKILL)
        run.process.waitUntilExit()
        let journalPath = SessionJournal.path(inFolder: takes)
        let journalBytes = try Data(contentsOf: URL(fileURLWithPath: journalPath))
        let journal = try XCTUnwrap(try SessionJournal.read(journalPath))
        XCTAssertEqual(journal.shot, "02")
        XCTAssertEqual(journal.takes.map { "\($0.shot)/\($0.shotTake)" }, ["01/1", "01/2", "02/1"])
        let killedStart = try XCTUnwrap(journal.takes.last?.scriptStart)
        let place = try XCTUnwrap(journal.position)
        XCTAssertGreaterThan(place, killedStart + 4, "the place moved on during the killed take (300 wpm)")

        // A normal start offers the session in one line and leaves the journal as it was.
        let quit = try timeline([#"{"at": 0.2, "cmd": "quit"}"#], "\(dir)/quit.jsonl")
        let plain = try duoCapture(common + ["--timeline", quit])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let offers = plain.stderr.split(separator: "\n").filter { $0.contains("--resume") }
        XCTAssertEqual(offers.count, 1, plain.stderr)
        XCTAssertTrue(offers.first?.contains("stopped at shot 02, take 2 next, 3 takes so far") ?? false, plain.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: journalPath)), journalBytes)

        // --resume (the journal names the shot list): shot 02, its take 2, run take 4, the teleprompter
        // back at its place, and the re-take starting where shot 02's take 1 did.
        let second = try timeline([#"{"at": 1.0, "cmd": "record"}"#, #"{"at": 1.8, "cmd": "stop"}"#, #"{"at": 2.0, "cmd": "quit"}"#],
                                  "\(dir)/second.jsonl")
        let resumed = try duoCapture(common + ["--resume", "--timeline", second, "--events", "\(dir)/second-events.jsonl"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let after = EventFile(path: "\(dir)/second-events.jsonl").all()
        let takeEvent = try XCTUnwrap(after.first { $0.event == "shot-take" })
        XCTAssertEqual(takeEvent["shot"] as? String, "02")
        XCTAssertEqual(takeEvent["shotTake"] as? Int, 2)
        XCTAssertEqual(takeEvent["take"] as? Int, 4)
        let file = try XCTUnwrap(takeEvent["file"] as? String)
        XCTAssertTrue(file.hasSuffix("-shot02-take02.mkv"), file)
        let restored = try XCTUnwrap(after.first { $0.event == "status" && $0["trigger"] as? String == "resume" }, resumed.stderr)
        XCTAssertEqual(try XCTUnwrap(restored["position"] as? Double), place, accuracy: 0.01)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        XCTAssertEqual(try XCTUnwrap(sidecar.scriptRange?.startPosition), killedStart, accuracy: 0.01)

        // A new session in the same folder (no --resume) starts at shot 01 again but numbers its take on
        // after the folder's: take 3, never a second take 1. Its first take starts a new journal.
        let fresh = try timeline([#"{"at": 0.3, "cmd": "record"}"#, #"{"at": 0.8, "cmd": "stop"}"#, #"{"at": 1.0, "cmd": "quit"}"#],
                                 "\(dir)/fresh.jsonl")
        let again = try duoCapture(common + ["--shots", "\(dir)/shots.md", "--timeline", fresh, "--json", "--quiet"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let freshFile = try XCTUnwrap(try JSONDecoder().decode(RunReport.self, from: Data(again.stdout.utf8)).takes.first?.file)
        XCTAssertTrue(freshFile.hasSuffix("-shot01-take03.mkv"), freshFile)
        XCTAssertEqual(try SessionJournal.read(journalPath)?.takes.map { "\($0.shot)/\($0.shotTake)" }, ["01/3"])

        // The report: each take once, numbered within its shot.
        let report = try duoCapture(["report", takes, "--json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let byShot = (object["shots"] as? [[String: Any]] ?? []).map { shot in
            "\(shot["id"] ?? ""):" + ((shot["takes"] as? [[String: Any]]) ?? []).map { "\($0["shotTake"] ?? "")" }.sorted().joined(separator: ",")
        }
        XCTAssertEqual(byShot, ["01:1,2,3", "02:1,2", "03:"], report.stdout)

        // A damaged journal: one line saying what to do, before any camera; the journal and takes stay.
        try write("{\"version\": 1, \"shot\": ", journalPath)
        let before = try FileManager.default.contentsOfDirectory(atPath: takes).sorted()
        let refused = try duoCapture(common + ["--resume", "--timeline", quit])
        XCTAssertNotEqual(refused.status, 0)
        let lines = refused.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, refused.stderr)
        XCTAssertTrue(lines.first?.contains("session journal \(journalPath) is damaged") ?? false, refused.stderr)
        XCTAssertTrue(lines.first?.contains("start without --resume") ?? false, refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: journalPath, encoding: .utf8), "{\"version\": 1, \"shot\": ")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: takes).sorted(), before)
    }
}
