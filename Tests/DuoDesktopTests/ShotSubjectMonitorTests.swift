import Foundation
import XCTest

/// The subject monitor with a shot list (`--shots`), on the virtual two-monitor desktop, read back with
/// OCR: the current shot's title and instruction during standby and the countdown, gone once the take
/// records, and never the shot's operator notes (a `note:` field, a `[[note: …]]`, malformed note markup).
final class ShotSubjectMonitorTests: XCTestCase {
    typealias App = DesktopEndToEndTests.App

    /// The subject's monitor (the second, 1280x720 at x 1280) read with tesseract.
    private func readSubject(_ desktop: VirtualDesktop, _ name: String) throws -> String {
        let shot = desktop.directory.appendingPathComponent("\(name).png").path
        let crop = try desktop.run("import", ["-window", "root", "-crop", "1280x720+1280+0", "+repage", shot])
        XCTAssertEqual(crop.status, 0, crop.stderr)
        let ocr = try runTool("tesseract", [shot, "-"], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(ocr.status, 0, ocr.stderr)
        return ocr.stdout.replacingOccurrences(of: "\n", with: " ")
    }

    func testTheSubjectReadsTheShotsInstructionDuringTheCountdownAndNeverItsNotes() throws {
        let desktop = try VirtualDesktop(test: self)
        let shots = desktop.directory.appendingPathComponent("shots.md").path
        try """
            ## 07 — Greeting
            Wave slowly at the camera and count to three.
            note: PINEAPPLE is the operator's field note
            Smile [[note: WALRUS hidden note]] please. [[nto: SUBMARINE malformed]]

            ## 08 — Goodbye
            Say goodbye.
            """.write(toFile: shots, atomically: true, encoding: .utf8)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--source", "videotestsrc", "--format", "1280x720@30", "--shots", shots, "--countdown", "10",
                                    "--events", events.path, "--record-dir", desktop.directory.appendingPathComponent("takes").path],
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        let app = App(process: p, events: events)
        try app.wait("the accessory to become available") { $0["event"] as? String == "availability" && $0["available"] as? Bool == true }
        func noSecrets(_ text: String) {
            for secret in ["PINEAPPLE", "WALRUS", "SUBMARINE", "malformed", "field note"] {
                XCTAssertFalse(text.localizedCaseInsensitiveContains(secret), "the operator's note reached the subject: \(text)")
            }
        }
        // Standby: the shot's card.
        var text = ""
        try waitFor("the shot's instruction on the subject monitor in standby", timeout: 20, interval: 0.5) {
            text = try readSubject(desktop, "standby")
            return text.contains("Wave slowly at the camera")
        }
        XCTAssertTrue(text.contains("Greeting"), text)
        noSecrets(text)
        // The countdown: still the card, with the number.
        try desktop.key("space")
        let countdown = try app.wait("the countdown") { $0["event"] as? String == "countdown" }
        try waitFor("the shot's instruction during the countdown", timeout: 8, interval: 0.5) {
            text = try readSubject(desktop, "countdown")
            return text.contains("Wave slowly at the camera") && text.contains("Smile")
        }
        XCTAssertFalse(app.all().dropFirst(countdown.index).contains { $0["event"] as? String == "take-started" },
                       "read during the countdown, before the take")
        noSecrets(text)
        // Recording: the card gives way (to the script, or here the recording light alone).
        try app.wait("take 1 to start", timeout: 20) { $0["event"] as? String == "take-started" }
        try waitFor("the card to go once the take records", timeout: 10, interval: 0.5) {
            text = try readSubject(desktop, "recording")
            return !text.contains("Wave slowly")
        }
        noSecrets(text)
        try desktop.key("q")
        try app.wait("the run to stop") { $0["event"] as? String == "stopped" }
    }
}
