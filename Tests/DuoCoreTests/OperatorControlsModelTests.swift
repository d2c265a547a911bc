import DuoCore
import XCTest

/// The on-screen controls' bindings and their show/hide timing (pure; a manual clock).
final class OperatorControlsModelTests: XCTestCase {
    func testEachButtonSendsItsKeysCommandAndNamesTheKey() throws {
        let pairs: [(OperatorControl, ControlCommand?)] = [
            (.record, .toggleRecord), (.pause, .pause), (.slower, .speedStep(-1)), (.faster, .speedStep(1)), (.reverse, .reverse),
            (.previous, .jump(.previous)), (.next, .jump(.next)), (.accessory, .accessory(on: nil)), (.swap, .swap),
            (.fullscreen, .fullscreen(on: nil)), (.replay, .saveReplay), (.script, nil), (.cue, nil), (.speed, nil)]
        for (control, command) in pairs {
            XCTAssertEqual(control.command, command, "\(control)")
            XCTAssertTrue(control.tooltip.hasSuffix("(\(control.key))"), control.tooltip)
        }
        XCTAssertFalse(OperatorControl.bar(twoCameras: false).contains(.swap))
        XCTAssertTrue(OperatorControl.bar(twoCameras: true).contains(.swap))
        XCTAssertGreaterThanOrEqual(OperatorControl.minimumSize, 44)
    }

    /// The cue chooser (C, the cue button; issue 37): each answer is the control socket's `cue` command;
    /// text that is no cue is one line shown in the dialog; closing it sends nothing.
    func testTheCueChoosersAnswersAreCueCommands() throws {
        XCTAssertTrue(OperatorControl.bar(twoCameras: false).contains(.cue))
        XCTAssertEqual(OperatorControl.cue.key, "C")
        XCTAssertEqual(CueChooser.presets.map(\.preset), CuePreset.allCases, "every preset has its button, in order")
        for (i, preset) in CuePreset.allCases.enumerated() {
            XCTAssertEqual(try CueChooser.command(response: i + 1, text: "ignored"), .cue(.preset(preset), seconds: nil))
        }
        XCTAssertEqual(try CueChooser.command(response: CueChooser.send, text: "  smile  "), .cue(try SubjectCue.text("smile"), seconds: nil))
        XCTAssertEqual(try CueChooser.command(response: CueChooser.clear, text: "smile"), .cue(nil, seconds: nil))
        XCTAssertNil(try CueChooser.command(response: -4, text: "smile"), "closed: nothing sent")
        for text in ["", String(repeating: "y", count: 41)] {
            XCTAssertThrowsError(try CueChooser.command(response: CueChooser.send, text: text)) { error in
                let message = (error as? DuoError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix("cue: ") && !message.contains("\n"), message)
            }
        }
    }

    func testReverseAndNinePresetsOnTheControlSocket() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"reverse"}"#), .reverse)
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"speed","preset":9}"#), .speedPreset(9))
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"speed","preset":10}"#))
        XCTAssertEqual(ScrollSpeed.preset(9, separatesWords: true), .wordsPerMinute(340))
        XCTAssertEqual(ScrollSpeed.preset(5, separatesWords: true), .wordsPerMinute(220), "presets 1–5 keep their speeds")
    }

    func testBarShowsOnInputAndHidesThreeSecondsAfterTheLast() {
        let s: Int64 = 1_000_000_000
        var v = ControlBarVisibility()
        XCTAssertFalse(v.shown(at: 0), "hidden until the first input")
        v.input(at: 10 * s)
        XCTAssertTrue(v.shown(at: 12 * s))
        v.input(at: 12 * s)
        XCTAssertTrue(v.shown(at: 14 * s + s / 2), "each input restarts the 3 s")
        XCTAssertEqual(v.hidesAt(14 * s), 15 * s)
        XCTAssertFalse(v.shown(at: 15 * s))
        XCTAssertNil(v.hidesAt(15 * s))
    }
}
