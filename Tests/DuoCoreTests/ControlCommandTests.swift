import DuoCore
import XCTest

final class ControlCommandTests: XCTestCase {
    func testParsesEveryCommand() throws {
        let cases: [(String, ControlCommand)] = [
            (#"{"cmd":"record"}"#, .record), (#"{"cmd":"stop"}"#, .stop), (#"{"cmd":"quit"}"#, .quit),
            (#"{"cmd":"accessory","on":false}"#, .accessory(on: false)), (#"{"cmd":"fullscreen","on":true}"#, .fullscreen(on: true)),
            (#"{"cmd":"speed","step":-1}"#, .speedStep(-1)), (#"{"cmd":"speed","preset":4}"#, .speedPreset(4)),
            (#"{"cmd":"pause"}"#, .pause), (#"{"cmd":"jump","to":"next"}"#, .jump(.next)), (#"{"cmd":"mirror"}"#, .mirror),
            (#"{"cmd":"swap"}"#, .swap), (#"{"cmd":"fold"}"#, .fold), (#"{"cmd":"unfold"}"#, .unfold),
            (#"{"cmd":"toggle"}"#, .toggleRecord), (#"{"cmd":"cancel"}"#, .cancelCountdown),
            (#"{"cmd":"script","path":"/home/me/talk.md"}"#, .script(path: "/home/me/talk.md")),
            (#"{"cmd":"font","step":1}"#, .fontStep(1)), (#"{"cmd":"font","step":-1}"#, .fontStep(-1)),
            (#"{"cmd":"follow"}"#, .follow(voice: nil)), (#"{"cmd":"follow","mode":"voice"}"#, .follow(voice: true)),
            (#"{"cmd":"follow","mode":"time"}"#, .follow(voice: false)),
        ]
        for (line, expected) in cases { XCTAssertEqual(try ControlCommand.parse(line), expected, line) }
    }

    func testBadLinesSayWhatAGoodOneLooksLike() {
        let cases: [(String, String)] = [
            ("record", "not a JSON object"), ("[1]", "not a JSON object"), (#"{"command":"record"}"#, "missing \"cmd\""),
            (#"{"cmd":"dance"}"#, "unknown command \"dance\""), (#"{"cmd":"accessory"}"#, "true or false"),
            (#"{"cmd":"follow","mode":"ears"}"#, "\"voice\" or \"time\""),
            (#"{"cmd":"speed","step":5}"#, "step"), (#"{"cmd":"jump","to":"end"}"#, "next"),
            // Types are strict: a boolean is no number, a number no boolean, a fraction no step.
            (#"{"cmd":"speed","step":true}"#, "step"), (#"{"cmd":"speed","step":1.5}"#, "step"),
            (#"{"cmd":"speed","preset":"3"}"#, "preset"), (#"{"cmd":"accessory","on":1}"#, "true or false"),
            (#"{"cmd":"fullscreen","on":"yes"}"#, "true or false"),
            (#"{"cmd":"font","step":2}"#, "step"), (#"{"cmd":"font"}"#, "step"), (#"{"cmd":"script"}"#, "path"), (#"{"cmd":"script","path":""}"#, "path"), (#"{"cmd":"script","path":7}"#, "path"),
        ]
        for (line, words) in cases {
            XCTAssertThrowsError(try ControlCommand.parse(line), line) { error in
                let e = error as! DuoError
                XCTAssertEqual(e.kind, .usage)
                XCTAssertTrue(e.message.contains(words), "\(e.message) should mention \(words)")
                XCTAssertFalse(e.message.contains("\n"))
            }
        }
    }

    /// A command another entry point registered parses through its own parser; an unregistered one is
    /// unknown. (The product registers none: TestHubTests runs the installed binary to prove it.)
    func testRegisteredExtensionCommandsParseThroughTheirParser() throws {
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"wave"}"#))
        CommandExtensions.register("wave") { object throws(DuoError) in
            guard let hand = object["hand"] as? String else { throw .usage("control: wave needs \"hand\"") }
            return ExtensionCommand(name: "wave", fields: ["hand": hand])
        }
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"wave","hand":"left"}"#), .extended(.init(name: "wave", fields: ["hand": "left"])))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"wave","hand":"left"}"#).name, "wave")
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"wave"}"#)) { error in
            XCTAssertTrue((error as! DuoError).message.contains("hand"))
        }
    }

    func testTimelineTimesAreNumbersNotBooleans() {
        XCTAssertThrowsError(try Timeline.parse(#"{"at": true, "cmd": "record"}"#, name: "t"))
        XCTAssertThrowsError(try Timeline.parse(#"{"at": "1", "cmd": "record"}"#, name: "t"))
        XCTAssertEqual(try Timeline.parse(#"{"at": 1, "cmd": "record"}"#, name: "t").entries.first?.at, 1)
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"speed","step":1.0}"#), .speedStep(1), "1.0 is a whole number")
    }
}

/// The cue command's forms and refusals, on the socket and OSC alike.
final class CueCommandTests: XCTestCase {
    func testCueForms() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"cue","preset":"30s"}"#), .cue(.preset(.thirtySeconds), seconds: nil))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"cue","text":" smile ","seconds":2.5}"#), .cue(try .text("smile"), seconds: 2.5))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"cue","clear":true}"#), .cue(nil, seconds: nil))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"cue","text":"\#(String(repeating: "é", count: 40))"}"#).name, "cue")
        XCTAssertEqual(CuePreset.allCases.map { SubjectCue.preset($0).text }, ["wrap up", "30 seconds", "slower", "faster", "look at the lens"])
        XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage("/duo/cue", [.string("lens")])), .command(.cue(.preset(.lens), seconds: nil)))
        XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage("/duo/cue", [.string("chin up")])), .command(.cue(try .text("chin up"), seconds: nil)))
        XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage("/duo/cue/clear")), .command(.cue(nil, seconds: nil)))
    }

    func testBadCuesAreOneLineUsageErrors() {
        let cases: [(String, String)] = [
            (#"{"cmd":"cue","text":"\#(String(repeating: "a", count: 41))"}"#, "at most 40"),
            (#"{"cmd":"cue","text":"   "}"#, "empty"),
            (#"{"cmd":"cue","text":"two\nlines"}"#, "line break"),
            (#"{"cmd":"cue","preset":"louder"}"#, "unknown cue preset \"louder\""),
            (#"{"cmd":"cue"}"#, "needs \"text\""),
            (#"{"cmd":"cue","text":"hi","seconds":0}"#, "0.5 to 3600"),
            (#"{"cmd":"cue","clear":false}"#, "\"clear\" is true"),
        ]
        for (line, expected) in cases {
            do { _ = try ControlCommand.parse(line); XCTFail("\(line) was accepted") } catch {
                XCTAssertEqual(error.kind, .usage, line)
                XCTAssertTrue(error.message.contains(expected), "\(line): \(error.message)")
                XCTAssertFalse(error.message.contains("\n"), line)
            }
        }
        XCTAssertThrowsError(try WebRemoteCommands.osc(OSCMessage("/duo/cue", [.string(String(repeating: "a", count: 41))])))
    }
}
