import DuoCore
import XCTest

/// What the operator window hides when it may face the subject, and when it shows it again.
final class OperatorPrivacyTests: XCTestCase {
    private func placed(_ privacy: inout OperatorPrivacy, on window: String = "DP-1") {
        _ = privacy.update { $0.operatorMonitorPresent = true; $0.windowMonitor = window; $0.subjectMonitor = "HDMI-1" }
    }

    func testTheOperatorMonitorGoneHidesAndItsReturnShowsAndMovesTheWindowBack() {
        var privacy = OperatorPrivacy()
        placed(&privacy)
        XCTAssertFalse(privacy.hidden)
        // Unplugged: the window manager moves the window to the monitor left, which is the subject's.
        var change = privacy.update { $0.operatorMonitorPresent = false; $0.windowMonitor = nil; $0.subjectMonitor = nil }
        XCTAssertEqual(change, .init(hidden: true, returnToOperatorMonitor: false))
        XCTAssertEqual(privacy.exposure, .operatorMonitorGone)
        change = privacy.update { $0.windowMonitor = "HDMI-1" }
        XCTAssertEqual(change, .init(hidden: nil, returnToOperatorMonitor: false))
        // Back: the window goes back; the items show once it is there (still on the subject's monitor until then).
        change = privacy.update { $0.operatorMonitorPresent = true; $0.subjectMonitor = "HDMI-1" }
        XCTAssertEqual(change, .init(hidden: nil, returnToOperatorMonitor: true))
        XCTAssertEqual(privacy.exposure, .onSubjectMonitor)
        change = privacy.update { $0.windowMonitor = "DP-1" }
        XCTAssertEqual(change, .init(hidden: false, returnToOperatorMonitor: false))
    }

    func testNShowsThemForThisExposureOnly() {
        var privacy = OperatorPrivacy()
        placed(&privacy)
        XCTAssertFalse(privacy.reveal(), "nothing to show when nothing is hidden")
        _ = privacy.update { $0.windowMonitor = "HDMI-1" }
        XCTAssertTrue(privacy.hidden)
        XCTAssertEqual(privacy.exposure, .onSubjectMonitor)
        XCTAssertTrue(privacy.reveal())
        XCTAssertFalse(privacy.hidden)
        // Still exposed (the operator monitor goes too): N holds.
        XCTAssertEqual(privacy.update { $0.operatorMonitorPresent = false }.hidden, nil)
        XCTAssertFalse(privacy.hidden)
        _ = privacy.update { $0.operatorMonitorPresent = true; $0.windowMonitor = "DP-1" }
        // The next exposure hides them again.
        XCTAssertEqual(privacy.update { $0.windowMonitor = "HDMI-1" }.hidden, true)
    }

    func testAWindowOnAThirdMonitorOrWithoutASubjectMonitorHidesNothing() {
        var privacy = OperatorPrivacy()
        placed(&privacy, on: "DP-2")
        XCTAssertNil(privacy.exposure)
        _ = privacy.update { $0.subjectMonitor = nil; $0.windowMonitor = "DP-1" }
        XCTAssertNil(privacy.exposure)
        XCTAssertFalse(OperatorPrivacy().hidden, "before the window is placed")
    }

    func testTheHiddenHudKeepsNoPrivateItem() {
        var hud = HudModel()
        hud.cameraLabel = "v4l2:/dev/video0 SECRETCAM"
        hud.format = "1280x720@30"
        hud.recording = true
        hud.takeNumber = 3
        hud.notes = ["SECRETNOTE"]
        hud.shotNotes = ["SECRETSHOTNOTE"]
        hud.shot = "shot 02 SECRETSHOT"
        hud.nextShot = "next SECRETNEXT"
        hud.soundNote = "microphone SECRETMIC lost"
        hud.follow = "following 'SECRETWORD'"
        hud.scriptProgress = 0.5
        hud.message = "take 2 saved to /home/me/SECRETPATH.mkv"
        hud.subjectMonitor = "HDMI-1"
        hud.available = true
        let lines = hud.privateItemsHidden.lines.joined(separator: "\n")
        XCTAssertFalse(lines.contains("SECRET"), lines)
        XCTAssertTrue(lines.contains(OperatorPrivacy.notice), lines)
        XCTAssertTrue(lines.contains("REC  take 3"), "what is not private stays: \(lines)")
        XCTAssertTrue(lines.contains("1280x720@30"), lines)
        XCTAssertTrue(lines.contains("script 50%"), lines)
        // The check can fail: every secret is on the full HUD.
        let full = hud.lines.joined(separator: "\n")
        for word in ["SECRETCAM", "SECRETNOTE", "SECRETSHOTNOTE", "SECRETSHOT", "SECRETNEXT", "SECRETMIC", "SECRETWORD", "SECRETPATH"] {
            XCTAssertTrue(full.contains(word), "\(word) in \(full)")
        }
    }
}
