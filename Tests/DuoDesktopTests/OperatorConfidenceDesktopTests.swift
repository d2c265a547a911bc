import Foundation
import XCTest

/// Issue 37 on the virtual two-monitor X desktop (DUMMY0 the operator's at 0,0, DUMMY1 the subject's at
/// 1280,0): the operator's window shows the line the subject reads (OCR of both monitors, the same
/// words) with the script's private note inline and marked, the subject's monitor never shows the note,
/// ? shows the key list on the operator's screen, and a take's file is named on the HUD when it ends.
final class OperatorConfidenceDesktopTests: XCTestCase {
    /// The text tesseract reads in the root window's `crop` (`WxH+X+Y`).
    /// `gray`: read as grey, negated (the subject's reading line, light text on its tinted band, is then
    /// read as surely as the rest).
    private func ocr(_ desktop: VirtualDesktop, _ crop: String, file: String, gray: Bool = false) throws -> String {
        let shot = desktop.directory.appendingPathComponent(file).path
        let r = try desktop.run("import", ["-window", "root", "-crop", crop, "+repage", shot])
        guard r.status == 0 else { throw Failure("import failed: \(r.stderr)") }
        if gray {
            let c = try desktop.run("convert", [shot, "-colorspace", "Gray", "-negate", shot])
            guard c.status == 0 else { throw Failure("convert failed: \(c.stderr)") }
        }
        // To look at them: DUO_DESKTOP_PNG=DIR keeps the screenshots.
        if let keep = ProcessInfo.processInfo.environment["DUO_DESKTOP_PNG"] {
            _ = try? FileManager.default.removeItem(atPath: "\(keep)/\(file)")
            try? FileManager.default.copyItem(atPath: shot, toPath: "\(keep)/\(file)")
        }
        return try runTool("tesseract", [shot, "-"], environment: ProcessInfo.processInfo.environment).stdout
            .replacingOccurrences(of: "\n", with: " ")
    }

    func testTheOperatorSeesWhatTheSubjectReadsWithItsNoteAndTheKeys() throws {
        let desktop = try VirtualDesktop(test: self)
        // Words tesseract reads without doubt, a note with a word found nowhere else.
        let script = desktop.directory.appendingPathComponent("harbour.md")
        try """
            # Harbour Lanterns

            Morning boats leave the harbour early.

            [[note: ZEBRA cue the drone]]

            Fishermen mend their nets along the quay before noon.
            """.write(to: script, atomically: true, encoding: .utf8)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let p = try desktop.launch(DesktopEndToEndTests.binary.path, ["--source", "videotestsrc", "--format", "1280x720@30", "--countdown", "0", "--script", script.path,
                                                                      "--events", events.path, "--record-dir", desktop.directory.appendingPathComponent("takes").path],
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        let app = DesktopEndToEndTests.App(process: p, events: events)
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }

        // Both monitors, in standby: the reading line is the heading, the lines below it follow.
        var operatorText = "", subjectText = ""
        do {
            try waitFor("the subject's lines on both monitors", timeout: 30, interval: 0.5) {
                // The HUD's panel and strip are in the top third of the operator's monitor: OCR reads
                // just that (a third of the time), the subject's lines near the lens at the top.
                operatorText = try ocr(desktop, "1280x260+0+0", file: "operator.png")
                subjectText = try ocr(desktop, "1280x400+1280+0", file: "subject.png", gray: true)
                return ["Harbour Lanterns", "boats leave the harbour", "Fishermen mend"].allSatisfy { operatorText.contains($0) && subjectText.contains($0) }
                    && operatorText.contains("ZEBRA")
            }
        } catch { throw Failure("\(error); operator: \(operatorText) | subject: \(subjectText)") }
        XCTAssertTrue(operatorText.contains("SUBJECT READS"), "the strip says what it is: \(operatorText)")
        XCTAssertTrue(operatorText.contains("STANDBY"), "the state, large: \(operatorText)")
        XCTAssertFalse(subjectText.contains("ZEBRA"), "the subject never sees the note: \(subjectText)")
        // The note sits where it falls: after the first paragraph's line, before the next paragraph's.
        if let note = operatorText.range(of: "ZEBRA"), let before = operatorText.range(of: "boats leave"),
           let after = operatorText.range(of: "Fishermen") {
            XCTAssertTrue(before.lowerBound < note.lowerBound && note.lowerBound < after.lowerBound, "the note inline: \(operatorText)")
        }

        // ? shows the key list over the operator picture (drawn with the HUD, which the subject's window
        // never draws); ? again hides it.
        try desktop.key("question")
        var keys = ""
        do {
            try waitFor("the key list on the operator's screen", timeout: 20, interval: 0.3) {
                // The card's title and first rows (all of it would take tesseract seconds more).
                keys = try ocr(desktop, "1280x200+0+100", file: "keys.png")
                return keys.contains("KEYS") && keys.contains("record / stop") && keys.contains("teleprompter faster")
            }
        } catch { throw Failure("\(error); OCR read: \(keys)") }
        try desktop.key("question")
        try waitFor("the key list gone", timeout: 20, interval: 0.3) {
            !(try ocr(desktop, "1280x200+0+100", file: "keys-gone.png").contains("record / stop"))
        }

        // A short take: when it ends, the HUD names its file for a few seconds.
        try desktop.key("space")
        let started = try app.wait("the take", timeout: 30) { $0["event"] as? String == "take-started" }
        // The script scrolls with the take: a word read is a take with frames in it.
        try app.wait("the take under way", after: started.index) {
            $0["event"] as? String == "status" && $0["recording"] as? Bool == true && ($0["position"] as? Double ?? 0) > 1
        }
        try desktop.key("space")
        let ended = try app.wait("the take's end", after: started.index, timeout: 30) { $0["event"] as? String == "take-ended" }
        XCTAssertEqual(ended.event["kept"] as? Bool, true, "\(ended.event)")
        let name = try XCTUnwrap((ended.event["file"] as? String)?.split(separator: "/").last.map(String.init))
        var saved = ""
        do {
            try waitFor("the saved file on the HUD", timeout: 9.5, interval: 0.3) {
                saved = try ocr(desktop, "1280x260+0+0", file: "saved.png")
                return saved.contains("saved") && saved.contains(String(name.suffix(8)))
            }
        } catch { throw Failure("\(error); file \(name); OCR read: \(saved); log: \(desktop.tail("duo-capture.log"))") }

        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }
}
