import DuoCore
import Foundation
import XCTest

/// The design card's command, as a new user types it after `Scripts/install.sh`: `duo-capture
/// --accessory teleprompter`, found on PATH, from another folder, in a fresh account (HOME set, no XDG
/// variables, no camera): the welcome script is on the subject monitor, read back with OCR, and the
/// subject's self-view with its safe frame in the corner far from the (top) lens.
final class InstalledDesktopTests: XCTestCase {
    func testTheTypedCommandShowsTheWelcomeScriptOnTheSubjectMonitor() throws {
        let desktop = try VirtualDesktop(test: self)
        let prefix = desktop.directory.appendingPathComponent("prefix").path
        let install = try runTool("/bin/bash", ["Scripts/install.sh", "--prefix", prefix, "--binary", DesktopEndToEndTests.product.path],
                                  environment: ProcessInfo.processInfo.environment, directory: VirtualDesktop.repositoryRoot)
        XCTAssertEqual(install.status, 0, install.stderr)
        let home = desktop.directory.appendingPathComponent("fresh-home")
        let elsewhere = desktop.directory.appendingPathComponent("somewhere-else")
        for folder in [home, elsewhere] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let unset = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_VIDEOS_DIR", "DUO_CAPTURE_DATA",
                     "DUO_TEST_CAMERAS"].flatMap { ["-u", $0] }
        let p = try desktop.launch("/usr/bin/env", unset + ["HOME=\(home.path)", "PATH=\(prefix)/bin:/usr/bin:/bin",
                                                            "duo-capture", "--accessory", "teleprompter", "--events", events.path],
                                   log: "typed.log", directory: elsewhere)
        let app = DesktopEndToEndTests.App(process: p, events: events)
        let shown = try app.wait("the subject view to be shown", timeout: 60) {
            $0["event"] as? String == "availability" && $0["shown"] as? Bool == true
        }
        XCTAssertEqual(shown.event["subjectMonitor"] as? String, "DUMMY1")
        XCTAssertTrue(desktop.tail("typed.log").contains("1280x720@30"), "the no-camera stand-in runs light: \(desktop.tail("typed.log"))")
        var text = ""
        try waitFor("the welcome script on the subject monitor", timeout: 30, interval: 0.5) {
            let shot = desktop.directory.appendingPathComponent("subject.png").path
            let crop = try desktop.run("import", ["-window", "root", "-crop", "1280x720+1280+0", "+repage", shot])
            guard crop.status == 0 else { throw Failure("import failed: \(crop.stderr)") }
            text = try runTool("tesseract", [shot, "-"], environment: ProcessInfo.processInfo.environment).stdout
            // The heading on the reading band (light on amber) is not always read by tesseract; the body is.
            return text.contains("This is the welcome script")
        }
        XCTAssertFalse(text.contains("operator only"), "the welcome script's note never reaches the subject: \(text)")
        // The self-view: the stand-in camera's picture (a ball on black) flows to the subject window, and
        // the safe frame's lines are drawn on it in the corner far from the lens.
        try app.wait("subject frames for the self-view") { $0["event"] as? String == "status" && ($0["subjectFrames"] as? Int ?? 0) > 10 }
        let view = SelfViewDesktopTests.expectedSelfView(.top, width: 1280, height: 720)
        let safe = SafeFrame(aspect: AspectRatio(16, 9), frameWidth: Int(view.width), frameHeight: Int(view.height))
        var seen = ""
        do {
            try waitFor("the self-view's safe frame", timeout: 20, interval: 0.3) {
                let check = SelfViewDesktopTests.selfViewCheck(try desktop.screenshot(), view: view, safe: safe, monitor: (1280, 720))
                seen = check.description
                return check.composition > 0.9 && check.actionSafe > 0.8 && check.graphicsSafe > 0.8 && check.nearPicture < 0.02
            }
        } catch { XCTFail("\(error): \(seen)") }
        // The operator monitor is the other one: the script there only in the HUD's strip of what the
        // subject reads (issue 37), not as the subject view.
        let operatorShot = desktop.directory.appendingPathComponent("operator.png").path
        _ = try desktop.run("import", ["-window", "root", "-crop", "1280x720+0+0", "+repage", operatorShot])
        let operatorText = try runTool("tesseract", [operatorShot, "-"], environment: ProcessInfo.processInfo.environment).stdout
        XCTAssertTrue(operatorText.contains("SUBJECT READS"), "the operator sees the script in the HUD's strip only: \(operatorText)")
        // A speed change is remembered for the script: under the fresh HOME, not the password file's.
        try desktop.key("Up")
        let speeds = home.appendingPathComponent(".local/state/duo-capture/speeds.json").path
        try waitFor("the speed to be remembered under $HOME", timeout: 20) { FileManager.default.fileExists(atPath: speeds) }
        try desktop.key("q")
        try waitFor("duo-capture to quit", timeout: 30) { !p.isRunning }
        XCTAssertEqual(p.terminationStatus, 0, desktop.tail("typed.log"))
    }
}
