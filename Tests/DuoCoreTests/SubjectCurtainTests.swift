import DuoCore
import XCTest

/// What the subject's monitor shows: the view when available, else the curtain on a subject monitor that
/// is not the operator's while the accessory is enabled, else the desktop; `--subject-curtain off` gives
/// the old behaviour.
final class SubjectCurtainTests: XCTestCase {
    private func state(enabled: Bool = true, fullscreen: Bool = true, frames: Bool = true,
                       subject: String? = "DUMMY1", operator op: String? = "DUMMY0") -> AccessoryState {
        AccessoryState(enabled: enabled, inputs: AvailabilityInputs(operatorFullscreen: fullscreen, framesFlowing: frames,
                                                                    subjectMonitor: subject, operatorMonitor: op))
    }

    func testTheMonitorShowsTheViewOrTheCurtainNeverTheDesktopWhileEnabled() {
        XCTAssertEqual(SubjectCurtain.shows(state(), curtain: true), .view)
        XCTAssertEqual(SubjectCurtain.shows(state(fullscreen: false), curtain: true), .curtain, "Esc outside a take")
        XCTAssertEqual(SubjectCurtain.shows(state(frames: false), curtain: true), .curtain, "a camera stall")
        XCTAssertEqual(SubjectCurtain.shows(state(enabled: false), curtain: true), .desktop, "T turns the accessory off")
        XCTAssertEqual(SubjectCurtain.shows(state(subject: nil), curtain: true), .desktop, "no subject monitor")
        XCTAssertEqual(SubjectCurtain.shows(state(subject: "DUMMY0"), curtain: true), .desktop, "never over the operator's window")
    }

    func testCurtainOffGivesTheMonitorBackWheneverTheViewIsHidden() {
        XCTAssertEqual(SubjectCurtain.shows(state(), curtain: false), .view)
        XCTAssertEqual(SubjectCurtain.shows(state(fullscreen: false), curtain: false), .desktop)
    }

    func testChangesAreReportedOnceAndHoldingFollowsThem() {
        var curtain = SubjectCurtain(enabled: true)
        XCTAssertFalse(curtain.holdsMonitor)
        var s = state(fullscreen: false)
        XCTAssertEqual(curtain.update(s), .curtain)
        XCTAssertTrue(curtain.holdsMonitor)
        XCTAssertNil(curtain.update(s), "unchanged")
        _ = s.update { $0.operatorFullscreen = true }
        XCTAssertEqual(curtain.update(s), .view)
        _ = s.update { $0.subjectMonitor = nil }
        XCTAssertEqual(curtain.update(s), .desktop, "unplugged")
        _ = s.update { $0.subjectMonitor = "HDMI-2" }
        XCTAssertEqual(curtain.update(s), .view, "plugged back, another connector")
    }

    func testParse() throws {
        XCTAssertTrue(try SubjectCurtain.parse("on"))
        XCTAssertFalse(try SubjectCurtain.parse("off"))
        XCTAssertThrowsError(try SubjectCurtain.parse("maybe")) { XCTAssertTrue("\($0)".contains("on") && "\($0)".contains("off")) }
    }

    /// The curtain says only what the whitelisted model holds: the standby line and the accessory.
    func testTheCurtainsTextComesFromTheWhitelistedModel() {
        var session = PrompterSessionState(accessory: .countdown)
        session.scriptPath = "/home/secret/talk.md"
        session.userName = "secret"
        let curtain = CurtainModel.whitelisted(from: .whitelisted(from: session))
        XCTAssertEqual(curtain.text, "standing by · countdown")
    }
}
