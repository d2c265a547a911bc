import Foundation
import XCTest

/// The subject's monitor belongs to the run: with another program's window (xmessage with a secret word)
/// on the subject's monitor before the run, the subject never reads it while the view is hidden (the
/// curtain covers the monitor), F11 brings the view back, and `--subject-curtain off` gives the monitor
/// back to the desktop as before (the control: there the word is read).
final class SubjectCurtainDesktopTests: XCTestCase {
    typealias App = DesktopEndToEndTests.App

    private func startApp(_ desktop: VirtualDesktop, _ extra: [String]) throws -> App {
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--source", "videotestsrc", "--format", "640x360@30", "--script", script, "--events", events.path,
                                    "--record-dir", desktop.directory.appendingPathComponent("takes").path] + extra,
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        return App(process: p, events: events)
    }
    private static let secret = "PELICAN LAGOON"

    /// The subject's monitor (the second, 1280x720 at x 1280) read with tesseract (sparse text: a small
    /// window on a dark monitor is not a page).
    private func readSubject(_ desktop: VirtualDesktop, _ name: String) throws -> String {
        let shot = desktop.directory.appendingPathComponent("\(name).png").path
        let crop = try desktop.run("import", ["-window", "root", "-crop", "1280x720+1280+0", "+repage", shot])
        XCTAssertEqual(crop.status, 0, crop.stderr)
        let ocr = try runTool("tesseract", [shot, "-", "--psm", "11"], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(ocr.status, 0, ocr.stderr)
        return ocr.stdout.replacingOccurrences(of: "\n", with: " ")
    }

    /// Whether the subject view's window is on the screen (xwininfo's map state), not what it draws.
    private func subjectWindowViewable(_ desktop: VirtualDesktop) throws -> Bool {
        let found = try desktop.run("xdotool", ["search", "--name", "^duo-capture subject$"])
        for id in found.stdout.split(separator: "\n") where try desktop.run("xwininfo", ["-id", String(id)]).stdout.contains("IsViewable") {
            return true
        }
        return false
    }

    private func readsSecret(_ text: String) -> Bool { text.contains("PELICAN") || text.contains("LAGOON") }

    /// Another program's window on the subject's monitor, in a font large enough to read; waits until
    /// OCR of that monitor reads it (so the test can see what it must never see later).
    private func placeSecretWindow(_ desktop: VirtualDesktop) throws {
        _ = try desktop.launch("/usr/bin/xmessage", ["-geometry", "+1400+150", "-fn", "-urw-nimbus mono l-bold-r-normal--64-0-0-0-p-0-iso8859-1",
                                                     Self.secret], log: "xmessage.log")
        var last = ""
        do {
            try waitFor("OCR to read the secret window before the run", timeout: 20, interval: 0.3) {
                last = try readSubject(desktop, "before")
                return readsSecret(last)
            }
        } catch { throw Failure("\(error): read \"\(last)\"; \(desktop.tail("xmessage.log"))") }
    }

    /// Esc outside a take leaves fullscreen, so the view hides: screenshots over about 2 s never read the
    /// secret word (the curtain, dark, says only the standby line and the accessory); F11 brings the view back.
    func testEscOutsideATakeShowsTheCurtainNeverTheWindowBehind() throws {
        let desktop = try VirtualDesktop(test: self)
        try placeSecretWindow(desktop)
        let app = try startApp(desktop, [])
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        _ = try waitForScreen(desktop, "the teleprompter") { self.isTeleprompter(self.subjectStats($0)) }
        XCTAssertTrue(try subjectWindowViewable(desktop), "the subject window is found while shown")

        let mark = app.count
        try desktop.key("Escape")
        try app.wait("the view to hide", after: mark) { $0["event"] as? String == "availability" && $0["shown"] as? Bool == false }
        let curtain = try app.wait("the curtain", after: mark) { $0["event"] as? String == "subject-monitor" }
        XCTAssertEqual(curtain.event["shows"] as? String, "curtain")
        try waitFor("the subject window to be unmapped", timeout: 20) { try !self.subjectWindowViewable(desktop) }
        var readings: [String] = []
        let start = Date()
        while Date().timeIntervalSince(start) < 2.2 || readings.count < 4 {
            let text = try readSubject(desktop, "hidden-\(readings.count)")
            readings.append(text)
            XCTAssertFalse(readsSecret(text), "the subject read the window behind: \(text)")
            let stats = subjectStats(try desktop.screenshot())
            XCTAssertGreaterThan(stats.dark, 0.95, "the curtain is a dark surface: \(stats)")
        }
        XCTAssertGreaterThanOrEqual(readings.count, 3, "several screenshots over 2 s")
        XCTAssertTrue(readings.contains { $0.contains("standing") }, "the curtain's standby line: \(readings)")

        // The curtain follows the subject's monitor through hotplug, as the view does.
        var mark2 = app.count
        try desktop.unplugSubjectMonitor()
        let gone = try app.wait("the monitor gone", after: mark2) { $0["event"] as? String == "subject-monitor" }
        XCTAssertEqual(gone.event["shows"] as? String, "desktop")
        mark2 = app.count
        try desktop.plugSubjectMonitor()
        let back = try app.wait("the curtain back", after: mark2) { $0["event"] as? String == "subject-monitor" }
        XCTAssertEqual(back.event["shows"] as? String, "curtain")
        var again = ""
        try waitFor("the curtain on the monitor plugged back", timeout: 20, interval: 0.3) {
            again = try readSubject(desktop, "replugged")
            let dark = subjectStats(try desktop.screenshot()).dark
            return again.contains("standing") && dark > 0.95
        }
        XCTAssertFalse(readsSecret(again))

        try desktop.key("F11")
        try app.wait("the view back", after: back.index + 1) { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        _ = try waitForScreen(desktop, "the teleprompter back") { self.isTeleprompter(self.subjectStats($0)) }
        XCTAssertFalse(readsSecret(try readSubject(desktop, "back")))

        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }

    /// `--subject-curtain off`: the old behaviour. The subject window hides and the desktop behind shows
    /// (the secret is read), and the events say so.
    func testCurtainOffGivesTheMonitorBackToTheDesktop() throws {
        let desktop = try VirtualDesktop(test: self)
        try placeSecretWindow(desktop)
        let app = try startApp(desktop, ["--subject-curtain", "off"])
        try app.wait("the subject view") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        _ = try waitForScreen(desktop, "the teleprompter") { self.isTeleprompter(self.subjectStats($0)) }
        let mark = app.count
        try desktop.key("Escape")
        let hidden = try app.wait("the desktop", after: mark) { $0["event"] as? String == "subject-monitor" }
        XCTAssertEqual(hidden.event["shows"] as? String, "desktop")
        try waitFor("the subject window to hide", timeout: 20) { try !self.subjectWindowViewable(desktop) }
        var last = ""
        try waitFor("the window behind to show", timeout: 20, interval: 0.3) {
            last = try readSubject(desktop, "off")
            return readsSecret(last)
        }
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
    }
}
