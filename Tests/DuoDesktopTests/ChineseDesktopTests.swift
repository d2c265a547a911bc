import Foundation
import XCTest

/// Issue 41 on the virtual two-monitor desktop: the installed duo-capture, run by name with
/// `LANGUAGE=zh_CN` in a fresh account, with a face clip as the camera (framing hints on by default).
/// The HUD and the subject's framing hint are read back in Chinese by `tesseract -l chi_sim`; with
/// `--subject-language en` the subject's hint is English while the HUD stays Chinese. Events stay English.
final class ChineseDesktopTests: XCTestCase {
    func testTheHudAndTheSubjectsHintInChineseAndTheSubjectInEnglishWhenAsked() throws {
        let clip = try FramingDesktopTests.faceOnTheLeftClip()
        let desktop = try VirtualDesktop(test: self)
        let prefix = desktop.directory.appendingPathComponent("prefix").path
        let install = try runTool("/bin/bash", ["Scripts/install.sh", "--prefix", prefix, "--binary", DesktopEndToEndTests.product.path],
                                  environment: ProcessInfo.processInfo.environment, directory: VirtualDesktop.repositoryRoot)
        XCTAssertEqual(install.status, 0, install.stderr)
        let home = desktop.directory.appendingPathComponent("fresh-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let unset = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "DUO_CAPTURE_DATA", "DUO_CAPTURE_LOCALEDIR",
                     "LC_ALL", "LC_MESSAGES"].flatMap { ["-u", $0] }

        /// `tesseract` on a crop of the root window, in `language`, with the spaces it puts between
        /// Chinese characters taken out. `sparse`: text in scattered places (the hint in its corner beside
        /// the self-view, away from the script's block, which chi_sim otherwise reads alone).
        func read(_ geometry: String, _ name: String, _ language: String, sparse: Bool = false) throws -> String {
            let shot = desktop.directory.appendingPathComponent("\(name).png").path
            let crop = try desktop.run("import", ["-window", "root", "-crop", geometry, "+repage", shot])
            XCTAssertEqual(crop.status, 0, crop.stderr)
            let text = try runTool("tesseract", [shot, "-", "-l", language] + (sparse ? ["--psm", "11"] : []), environment: ProcessInfo.processInfo.environment).stdout
            return language == "eng" ? text.lowercased() : text.filter { !$0.isWhitespace }
        }

        for subjectLanguage in [nil, "en"] as [String?] {
            let events = desktop.directory.appendingPathComponent("events-\(subjectLanguage ?? "zh").jsonl")
            let log = "zh-\(subjectLanguage ?? "zh").log"
            let p = try desktop.launch("/usr/bin/env", unset + ["HOME=\(home.path)", "PATH=\(prefix)/bin:/usr/bin:/bin",
                                                                "LANGUAGE=zh_CN", "LANG=C.UTF-8",
                                                                "duo-capture", "--camera", "file:\(clip)", "--script", script,
                                                                "--events", events.path]
                                                               + (subjectLanguage.map { ["--subject-language", $0] } ?? []),
                                       log: log, directory: home)
            let app = DesktopEndToEndTests.App(process: p, events: events)
            try app.wait("the subject view to be shown", timeout: 60) { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
            let hint = try app.wait("a framing hint", timeout: 30) { $0["event"] as? String == "framing" && $0["hint"] is String }
            XCTAssertEqual(hint.event["hint"] as? String, "move left", "events stay English")
            var subject = "", hud = ""
            do {
                // The subject's monitor, each half on its own (tesseract can pass over the hint in a corner).
                let want = subjectLanguage == nil ? "向左移" : "move left"
                let ocr = subjectLanguage == nil ? "chi_sim" : "eng"
                try waitFor("the subject monitor to read \(want)", timeout: 30, interval: 1) {
                    let run = subjectLanguage ?? "zh"
                    subject = try read("1280x360+1280+0", "subject-upper-\(run)", ocr, sparse: true) + "\n"
                        + read("1280x360+1280+360", "subject-lower-\(run)", ocr, sparse: true)
                    return subject.contains(want)
                }
                // The HUD: Chinese in both runs: the framing line with its hint in the operator's language,
                // and the accessory's line (the large headline is misread more often than these).
                try waitFor("the HUD in Chinese", timeout: 30, interval: 1) {
                    hud = try read("1280x720+0+0", "operator-\(subjectLanguage ?? "zh")", "chi_sim")
                    return hud.contains("取景") && hud.contains("向左移") && hud.contains("配件")
                }
            } catch {
                XCTFail("\(error); subject read: \(subject); HUD read: \(hud); \(desktop.tail(log))")
            }
            kill(p.processIdentifier, SIGTERM)
            try waitFor("duo-capture to exit", timeout: 20) { !p.isRunning }
            XCTAssertEqual(p.terminationStatus, 0, desktop.tail(log))
        }
    }
}
