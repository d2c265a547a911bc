import DuoCore
import DuoMedia
import Foundation
import XCTest

/// Two cameras of different classes, run as a user would: hard requirements refuse the start or show the
/// unmet wish; under the default policy (lock) a swap mid-take between cameras of different formats is
/// refused with its reason, and "stop, then switch" gives two takes with a countdown between.
final class CameraClassRunTests: XCTestCase {
    private func events(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A small camera with no depth, for individual mode next to the inner camera.
    func testRequiring4K120FromTheDuoPairExits65NamingTheirBest() throws {
        let run = try duoCapture(["--headless", "--camera", "inner", "--camera", "outer", "--require", "3840x2160@120", "--duration", "1"])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("1920x1080@60"), run.stderr)
    }

    func testRequiringDepthWithoutIt() throws {
        // The virtual camera (the Duo pair as one) carries no depth; nor does a test source.
        for cameras in [["--camera", "inner", "--camera", "outer"], ["--source", "videotestsrc"]] {
            let run = try duoCapture(["--headless"] + cameras + ["--require", "depth", "--duration", "1"])
            XCTAssertEqual(run.status, 65, run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("depth"), run.stderr)
        }
    }

    /// Individual mode: depth required, camera B has none: an unmet wish, at start and in the sidecar,
    /// which also says which camera has depth.
    func testAnUnmetWishIsShownAndRecorded() throws {
        let dir = try scratchDirectory(self)
        let small = try smallCameraProfile(in: dir)
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "inner", "--camera", "profile:\(small)", "--camera-mode", "individual",
                                  "--format", "640x360@30", "--require", "depth", "--countdown", "0", "--record", "--duration", "1",
                                  "--record-dir", dir, "--events", events, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let start = try XCTUnwrap(run.stderr.split(separator: "\n").first { $0.contains("capturing") })
        XCTAssertTrue(start.contains("640x360@30 (required depth; unmet: camera B (Small (simulated, small)): no depth)"), String(start))
        try assertEventsDocumented(events)
        let requirements = try XCTUnwrap(try self.events(events).first { $0["event"] as? String == "requirements" })
        XCTAssertEqual(requirements["required"] as? [String], ["depth"])
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: try XCTUnwrap(report.takes.first).file))
        XCTAssertEqual(sidecar.requirements, ["depth"])
        XCTAssertEqual(sidecar.unmetWishes, ["camera B (Small (simulated, small)): no depth"])
        XCTAssertEqual(sidecar.cameras.map(\.depth), [true, nil], "the inner camera has depth, the small one none")
    }

    private func individualRun(_ dir: String, timeline lines: String, extra: [String] = []) throws -> (RunReport, [[String: Any]]) {
        let small = try smallCameraProfile(in: dir)
        let timeline = "\(dir)/session.jsonl"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: timeline))
        let eventsPath = "\(dir)/events.jsonl"
        let r = try duoCapture(["--headless", "--camera", "inner", "--camera", "profile:\(small)", "--camera-mode", "individual",
                                "--format", "640x360@30", "--record-dir", dir, "--timeline", timeline, "--events", eventsPath,
                                "--json", "--quiet"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertEventsDocumented(eventsPath)
        return (try JSONDecoder().decode(RunReport.self, from: Data(r.stdout.utf8)), try events(eventsPath))
    }

    /// The documents' first choice by default: keep the current camera; the reason on the HUD (and its log
    /// line) and in a `swap-refused` event.
    func testTheDefaultPolicyRefusesASwapBetweenFormatsWhileRecording() throws {
        let (report, events) = try individualRun(try scratchDirectory(self), timeline: """
            {"at": 0.2, "cmd": "record"}
            {"at": 1.0, "cmd": "swap"}
            {"at": 1.8, "cmd": "stop"}
            {"at": 2.0, "cmd": "quit"}
            """, extra: ["--countdown", "0"])
        XCTAssertEqual(report.takes.count, 1)
        XCTAssertEqual(try MediaInspector.decode(report.takes[0].file).width, 640)
        let refused = try XCTUnwrap(events.first { $0["event"] as? String == "swap-refused" })
        XCTAssertTrue((refused["reason"] as? String ?? "").contains("different formats"), "\(refused)")
        XCTAssertFalse(events.contains { $0["event"] as? String == "swap" })
    }

    /// Stop, then switch: the take ends, the camera changes, a countdown runs, and a second take records
    /// at the new camera's own format.
    func testStopThenSwitchGivesTwoTakesWithACountdownBetween() throws {
        let (report, events) = try individualRun(try scratchDirectory(self), timeline: """
            {"at": 0.2, "cmd": "record"}
            {"at": 2.0, "cmd": "swap", "restart": true}
            {"at": 4.0, "cmd": "stop"}
            {"at": 4.2, "cmd": "quit"}
            """, extra: ["--countdown", "1"])
        XCTAssertEqual(report.takes.count, 2)
        let sizes = try report.takes.map { t -> [Int?] in let d = try MediaInspector.decode(t.file); return [d.width, d.height] }
        XCTAssertEqual(sizes, [[640, 360], [320, 180]])
        let story = events.compactMap { e -> String? in
            switch e["event"] as? String {
            case "countdown": "countdown \(e["take"] as? Int ?? 0)"
            case "take-started": "take \(e["take"] as? Int ?? 0)"
            case "take-ended": "ended \(e["take"] as? Int ?? 0)"
            case "swap": "swap"
            case "swap-refused": "refused"
            default: nil
            }
        }
        XCTAssertEqual(story, ["countdown 1", "take 1", "ended 1", "swap", "countdown 2", "take 2", "ended 2"])
        let times = events.filter { ["take-ended", "take-started"].contains($0["event"] as? String) }.compactMap { $0["t"] as? Double }
        XCTAssertGreaterThanOrEqual(times[2] - times[1], 0.8, "the second take waits for its countdown: \(times)")
    }
}

/// Posture by direction: fold picks the camera facing the subject and unfold the one facing the
/// operator, whatever their order on the command line; a camera turned round live flips the mirroring of
/// the displays whose picture changes, each told in a `mirror` event.
final class PostureByDirectionRunTests: XCTestCase {
    private func run(_ cameras: [String], _ timeline: String, in dir: String) throws -> [[String: Any]] {
        let path = "\(dir)/t.jsonl"
        try Data(timeline.utf8).write(to: URL(fileURLWithPath: path))
        let events = "\(dir)/events.jsonl"
        let r = try duoCapture(["--headless"] + cameras + ["--format", "640x360@30", "--timeline", path, "--events", events, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertEventsDocumented(events)
        return try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func testFoldAndUnfoldFollowFacesWhateverTheOrder() throws {
        let timeline = """
            {"at": 0.2, "cmd": "unfold"}
            {"at": 0.4, "cmd": "fold"}
            {"at": 0.6, "cmd": "quit"}
            """
        for order in [["inner", "outer"], ["outer", "inner"]] {
            let events = try run(order.flatMap { ["--camera", $0] }, timeline, in: try scratchDirectory(self))
            let swappedTo = events.filter { $0["event"] as? String == "swap" }.map { ($0["to"] as? String ?? "").contains("(simulated, inner)") ? "inner" : "outer" }
            // Unfold: the inner camera (facing the operator); fold: the outer one (facing the subject).
            // Starting on A, the first command swaps only when A is not already that camera.
            XCTAssertEqual(swappedTo, order[0] == "inner" ? ["outer"] : ["inner", "outer"], "cameras \(order)")
        }
    }

    func testAFacesCommandFlipsTheDisplaysOfTheCameraOnTheAir() throws {
        // A (inner) faces the operator: the preview is mirrored. Turned to the subject, both displays flip;
        // B turned (off the air): nothing flips.
        let events = try run(["--camera", "inner", "--camera", "outer"], """
            {"at": 0.2, "cmd": "faces", "camera": "A", "faces": "subject"}
            {"at": 0.4, "cmd": "faces", "camera": "B", "faces": "operator"}
            {"at": 0.6, "cmd": "unfold"}
            {"at": 0.8, "cmd": "quit"}
            """, in: try scratchDirectory(self))
        let mirrors = events.filter { $0["event"] as? String == "mirror" }.map {
            "\($0["cause"] as? String ?? "") \($0["camera"] as? String ?? "") \($0["display"] as? String ?? "") \($0["mirrored"] as? Bool ?? false)"
        }
        XCTAssertEqual(mirrors, ["faces A operator false", "faces A subject true",
                                 // unfold now picks B (turned to the operator): both flip back.
                                 "swap B operator true", "swap B subject false"])
    }
}
