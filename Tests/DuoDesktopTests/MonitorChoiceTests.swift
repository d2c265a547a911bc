import CGtk
import DuoCore
import DuoDesktop
import XCTest

/// Which monitor is the operator's and which the subject's, from the monitor list and the options, and
/// what availability makes of it. Pure: no display needed.
final class MonitorChoiceTests: XCTestCase {
    func monitor(_ i: Int, _ name: String, primary: Bool = false, x: Int = 0) -> MonitorInfo {
        MonitorInfo(index: i, connector: name, x: x, y: 0, width: 1280, height: 720, primary: primary)
    }

    func testDefaultsArePrimaryForTheOperatorAndAnotherForTheSubject() throws {
        let two = [monitor(0, "HDMI-1", x: 0), monitor(1, "DP-1", primary: true, x: 1280)]
        let choice = try MonitorChoice.resolve(two, operator: nil, subject: nil)
        XCTAssertEqual(choice.operatorMonitor(in: two)?.connector, "DP-1")
        XCTAssertEqual(choice.subjectMonitor(in: two)?.connector, "HDMI-1")
        // No primary: the first monitor is the operator's.
        let plain = [monitor(0, "A"), monitor(1, "B")]
        let c2 = try MonitorChoice.resolve(plain, operator: nil, subject: nil)
        XCTAssertEqual(c2.operatorMonitor(in: plain)?.connector, "A")
        XCTAssertEqual(c2.subjectMonitor(in: plain)?.connector, "B")
    }

    func testExplicitIndicesAndTheSameMonitorForBoth() throws {
        let two = [monitor(0, "A", primary: true), monitor(1, "B")]
        let swapped = try MonitorChoice.resolve(two, operator: .index(1), subject: .index(0))
        XCTAssertEqual(swapped.operatorMonitor(in: two)?.connector, "B")
        XCTAssertEqual(swapped.subjectMonitor(in: two)?.connector, "A")
        let same = try MonitorChoice.resolve(two, operator: .index(0), subject: .index(0))
        let inputs = AvailabilityInputs(operatorFullscreen: true, framesFlowing: true,
                                        subjectMonitor: same.subjectMonitor(in: two)?.connector,
                                        operatorMonitor: same.operatorMonitor(in: two)?.connector)
        XCTAssertEqual(inputs.reasons, [.subjectMonitorIsOperators])
    }

    func testAMonitorThatDoesNotExistIsAUsageErrorPointingAtTheMonitorsCommand() {
        let one = [monitor(0, "A", primary: true)]
        XCTAssertThrowsError(try MonitorChoice.resolve(one, operator: nil, subject: .index(1))) { error in
            let e = error as! DuoError
            XCTAssertEqual(e.kind, .usage)
            XCTAssertTrue(e.message.contains("--subject-monitor 1") && e.message.contains("duo-capture monitors"), e.message)
        }
        XCTAssertThrowsError(try MonitorChoice.resolve(one, operator: .index(3), subject: nil))
    }

    /// By connector name (a Wayland output's, such as HEADLESS-2): the subject's may be plugged in later;
    /// the operator's must be there.
    func testMonitorsByConnectorName() throws {
        let two = [monitor(0, "HEADLESS-1", primary: true), monitor(1, "HEADLESS-2", x: 1280)]
        XCTAssertEqual(try MonitorRef.parse("HEADLESS-2", option: "--subject-monitor"), .connector("HEADLESS-2"))
        XCTAssertEqual(try MonitorRef.parse("1", option: "--subject-monitor"), .index(1))
        XCTAssertThrowsError(try MonitorRef.parse("DP 2", option: "--subject-monitor"))
        let named = try MonitorChoice.resolve(two, operator: .connector("HEADLESS-2"), subject: .connector("HEADLESS-1"))
        XCTAssertEqual(named.operatorMonitor(in: two)?.index, 1)
        XCTAssertEqual(named.subjectMonitor(in: two)?.index, 0)
        let later = try MonitorChoice.resolve(two, operator: nil, subject: .connector("DP-2"))
        XCTAssertNil(later.subjectMonitor(in: two), "DP-2 is not plugged in yet")
        XCTAssertEqual(later.subjectMonitor(in: two + [monitor(2, "DP-2", x: 2560)])?.connector, "DP-2")
        XCTAssertThrowsError(try MonitorChoice.resolve(two, operator: .connector("DP-9"), subject: nil)) { error in
            XCTAssertEqual((error as! DuoError).message, "--operator-monitor DP-9: no monitor has that connector (there are HEADLESS-1, HEADLESS-2); run duo-capture monitors to list them")
        }
    }

    func testUnplugAndReplugAreFollowedByConnectorNotIndex() throws {
        let two = [monitor(0, "A", primary: true), monitor(1, "B", x: 1280)]
        let choice = try MonitorChoice.resolve(two, operator: nil, subject: .index(1))
        let unplugged = [monitor(0, "A", primary: true)]
        XCTAssertNil(choice.subjectMonitor(in: unplugged), "the requested subject monitor is gone: no subject monitor")
        XCTAssertEqual(AvailabilityInputs(operatorFullscreen: true, framesFlowing: true,
                                          subjectMonitor: choice.subjectMonitor(in: unplugged)?.connector,
                                          operatorMonitor: "A").reasons, [.noSubjectMonitor])
        // Back, at another index (a third monitor came first): still found by its connector.
        let replugged = [monitor(0, "A", primary: true), monitor(1, "C", x: 1280), monitor(2, "B", x: 2560)]
        XCTAssertEqual(choice.subjectMonitor(in: replugged)?.index, 2)
        XCTAssertEqual(choice.operatorMonitor(in: replugged)?.connector, "A")
        // One monitor only, no request: nothing for the subject.
        let auto = try MonitorChoice.resolve(unplugged, operator: nil, subject: nil)
        XCTAssertNil(auto.subjectMonitor(in: unplugged))
    }

    func testHudSaysWhyTheAccessoryIsUnavailableAndFitsThePreview() {
        var hud = HudModel()
        hud.enabled = true
        hud.available = false
        hud.reasons = [.operatorNotFullscreen, .noSubjectMonitor]
        hud.videoWidth = 1920
        hud.videoHeight = 1080
        let text = hud.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("unavailable: operator window is not fullscreen (F11); no second monitor for the subject"), text)
        hud.scriptProgress = 0.5
        hud.secondsLeft = 75
        hud.notes = ["smile"]
        hud.previewSkipped = 312
        let more = hud.lines.joined(separator: "\n")
        XCTAssertTrue(more.contains("script 50%  1:15 left"), more)
        XCTAssertTrue(more.contains("note: smile"), more)
        // The preview's skipped frames are a figure apart from the camera's (and take's) dropped ones.
        XCTAssertTrue(more.contains("camera 0 dropped  ·  preview skipped 312, subject 0 (screen only)"), more)
        XCTAssertFalse(more.contains("audio"), "no audio line without an audio branch")
        hud.audioPeakDB = -12
        XCTAssertTrue(hud.lines.contains("audio peak -12 dB"), "\(hud.lines)")
        // Following the voice, the script line says so and how to go back to time.
        hud.scrollPaused = true
        hud.follow = "following 'camera'"
        let following = hud.lines.joined(separator: "\n")
        XCTAssertTrue(following.contains("voice: following 'camera' (V: by time)"), following)
        XCTAssertFalse(following.contains("paused (P)"), "the voice holds the line, not a pause")
        // A 16:9 picture in a 4:3 window: letterboxed, centred.
        let fit = hud.previewRect(width: 1024, height: 768)
        XCTAssertEqual(fit.width, 1024, accuracy: 0.01)
        XCTAssertEqual(fit.height, 576, accuracy: 0.01)
        XCTAssertEqual(fit.y, 96, accuracy: 0.01)
    }
}

/// The operator window's keys are bindings to run commands: the two cameras' included.
final class DesktopKeyTests: XCTestCase {
    func testKeysAreCommands() {
        func command(_ key: Int32, countingDown: Bool = false, fullscreen: Bool = true) -> ControlCommand? {
            DesktopKeys.command(forKey: key, countingDown: countingDown, fullscreen: fullscreen)
        }
        XCTAssertEqual(command(GDK_KEY_s), .swap)
        XCTAssertEqual(command(GDK_KEY_F), .fold)
        XCTAssertEqual(command(GDK_KEY_u), .unfold)
        XCTAssertEqual(command(GDK_KEY_v), .follow(voice: nil))
        XCTAssertEqual(command(GDK_KEY_space), .toggleRecord)
        XCTAssertEqual(command(GDK_KEY_Escape, countingDown: true), .cancelCountdown)
        XCTAssertEqual(command(GDK_KEY_Escape), .fullscreen(on: false))
        XCTAssertNil(command(GDK_KEY_Escape, fullscreen: false))
        XCTAssertTrue(DesktopKeys.help.contains { $0.key == "S / F / U" })
        // Issue 39: K drops a flag (as the bar's flag button); Return opens the note field (DesktopUI+Notes), no command.
        XCTAssertEqual(command(GDK_KEY_k), .flag)
        XCTAssertEqual(OperatorControl.flag.command, .flag)
        XCTAssertNil(OperatorControl.note.command)
        XCTAssertNil(command(GDK_KEY_Return))
        XCTAssertTrue(DesktopKeys.help.contains { $0.key == "Return" } && DesktopKeys.help.contains { $0.key == "K" })
        var hud = HudModel()
        hud.cameraKeys = true
        XCTAssertTrue(hud.lines[1].hasSuffix("(S swap, F fold, U unfold)"), hud.lines[1])
    }
}
