import DuoCore
import Foundation
import XCTest

/// A test session driven unattended by a timeline through a three-shot list (`--shots`): re-takes and
/// marks land in the take files' names, their sidecars and the events; `duo-capture report` groups the
/// takes by shot, the good take first, marks the shot with no good take and lists the shot never
/// recorded, read from its JSON and from a headless Chromium screenshot of the page (OCR).
final class ShotSessionTests: XCTestCase {
    func testATimelineWalksThreeShotsAndTheReportGroupsThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-shots-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let takes = "\(dir)/takes"
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        try """
            # Login test session

            ## 01 — Greeting
            Say hello to the camera.
            note: PRIVATE the tester wears the badge
            length: 10s

            ## 02 — Login
            Type the password and read the error aloud.

            ## 03 — Logout
            Press logout and wait.
            """.write(toFile: "\(dir)/shots.md", atomically: true, encoding: .utf8)
        try """
            {"at": 0.3, "cmd": "record"}
            {"at": 1.3, "cmd": "stop"}
            {"at": 1.5, "cmd": "retake"}
            {"at": 2.5, "cmd": "stop"}
            {"at": 2.6, "cmd": "mark", "good": true}
            {"at": 2.7, "cmd": "shot", "next": true}
            {"at": 2.9, "cmd": "record"}
            {"at": 3.9, "cmd": "stop"}
            {"at": 4.0, "cmd": "mark", "good": false}
            {"at": 4.1, "cmd": "retake"}
            {"at": 5.1, "cmd": "stop"}
            {"at": 5.3, "cmd": "quit"}
            """.write(toFile: "\(dir)/session.jsonl", atomically: true, encoding: .utf8)
        let env = ProcessInfo.processInfo.environment.filter { $0.key != "DISPLAY" && $0.key != "WAYLAND_DISPLAY" }
        let binary = DesktopEndToEndTests.binary.path
        let events = "\(dir)/events.jsonl"
        let run = try runTool(binary, ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none",
                                       "--shots", "\(dir)/shots.md", "--timeline", "\(dir)/session.jsonl", "--countdown", "0",
                                       "--record-dir", takes, "--events", events, "--quiet"], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)

        // File names: the shot and the take within it.
        let files = try FileManager.default.contentsOfDirectory(atPath: takes).filter { $0.hasSuffix(".mkv") }.sorted()
        XCTAssertEqual(files.map { String($0.suffix(18)) }, ["-shot01-take01.mkv", "-shot01-take02.mkv", "-shot02-take01.mkv", "-shot02-take02.mkv"])
        // Sidecars: shot, take within it, mark.
        let sidecars = try files.map { try TakeSidecar.read(TakeSidecar.path(forTake: "\(takes)/\($0)")) }
        XCTAssertEqual(sidecars.map(\.shot), ["01", "01", "02", "02"])
        XCTAssertEqual(sidecars.map(\.shotTake), [1, 2, 1, 2])
        XCTAssertEqual(sidecars.map(\.mark), ["no-good", "good", "no-good", nil])
        XCTAssertTrue(sidecars.allSatisfy(\.complete))
        // Events: documented, and carrying the shots and marks.
        let text = try String(contentsOfFile: events, encoding: .utf8)
        let schema = EventSchema.parse(markdown: try String(contentsOfFile: repositoryRoot + "/docs/events.md", encoding: .utf8))
        for line in text.split(separator: "\n") { XCTAssertNil(schema.violation(String(line))) }
        let objects = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        func named(_ n: String) -> [[String: Any]] { objects.filter { $0["event"] as? String == n } }
        XCTAssertEqual(named("shot").map { $0["id"] as? String }, ["01", "02"])
        XCTAssertEqual(named("shot-take").map { "\($0["shot"]!)/\($0["shotTake"]!)" }, ["01/1", "01/2", "02/1", "02/2"])
        XCTAssertEqual(named("mark").map { "\($0["shot"]!)/\($0["shotTake"]!) \($0["mark"]!) \($0["by"]!)" },
                       ["01/1 no-good retake", "01/2 good operator", "02/1 no-good operator"])
        XCTAssertFalse(text.contains("PRIVATE"), "the operator's note is in no event")

        // The report's JSON: by shot, good take first, shot 02 without a good take, shot 03 never recorded.
        let json = try runTool(binary, ["report", takes, "--json"], environment: env)
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        let shots = try XCTUnwrap(report["shots"] as? [[String: Any]])
        XCTAssertEqual(shots.map { $0["id"] as? String }, ["01", "02", "03"])
        XCTAssertEqual(shots.map { $0["goodTake"] as? Bool }, [true, false, false])
        XCTAssertEqual(shots.map { $0["recorded"] as? Bool }, [true, true, false])
        let first = try XCTUnwrap(shots[0]["takes"] as? [[String: Any]])
        XCTAssertEqual(first.map { $0["shotTake"] as? Int }, [2, 1], "the good take first")
        XCTAssertEqual(first.first?["mark"] as? String, "good")
        XCTAssertEqual(report["neverRecorded"] as? [String], ["03"])
        XCTAssertEqual(report["withoutGoodTake"] as? [String], ["02"])
        XCTAssertEqual(shots[2]["title"] as? String, "Logout", "the list the sidecars name gives the unrecorded shot's title")

        // The page, in headless Chromium, read back by OCR.
        let html = try runTool(binary, ["report", takes], environment: env)
        XCTAssertEqual(html.status, 0, html.stderr)
        let png = "\(dir)/page.png"
        let shot = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1100,2600",
                                            "--screenshot=\(png)", "file://\(takes)/report.html"], environment: env)
        XCTAssertEqual(shot.status, 0, shot.stderr)
        let ocr = try runTool("tesseract", [png, "-"], environment: env).stdout
        // Each shot's heading line says how it went.
        let lines = ocr.split(separator: "\n").map(String.init)
        func line(_ words: String...) -> String? { lines.first { l in words.allSatisfy { l.localizedCaseInsensitiveContains($0) } } }
        let greeting = line("Shot 01", "Greeting"), login = line("Shot 02", "Login"), logout = line("Shot 03", "Logout")
        XCTAssertTrue(greeting.map { $0.contains("good take") && !$0.contains("no good") } ?? false, "shot 01 has its good take; OCR read: \(ocr)")
        XCTAssertTrue(login?.contains("no good take") ?? false, "shot 02 is marked as having no good take; OCR read: \(ocr)")
        XCTAssertTrue(logout?.contains("never recorded") ?? false, "shot 03 is listed as never recorded; OCR read: \(ocr)")
        // Good take first within the shot, and the shots in the list's order.
        let flat = lines.joined(separator: " ")
        func at(_ s: String) -> Int? { flat.range(of: s, options: .caseInsensitive).map { flat.distance(from: flat.startIndex, to: $0.lowerBound) } }
        let order = ["Shot 01 take 2 GOOD", "Shot 01 take 1 NO GOOD", "Shot 02 take 1 NO GOOD", "Shot 02 take 2", "never recorded"].map(at)
        XCTAssertFalse(order.contains(nil), "every take on the page; OCR read: \(ocr)")
        XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), "good take first, shots in order; OCR read: \(ocr)")
    }

    private var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
