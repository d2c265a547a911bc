import DuoCore
import XCTest

/// OSC 1.0 packets, the remote's command policy, the pairing token, the refusal throttle, the command
/// gate and the state fed back to OSC: pure, so checked here byte by byte with a manual clock.
final class RemoteControlPolicyTests: XCTestCase {
    /// Bytes as OSC 1.0's specification spells them: /duo/speed ,f 1.5 (0x3FC00000).
    func testParsesAndEncodesOSCMessagesByTheSpecification() throws {
        let bytes: [UInt8] = Array("/duo/speed".utf8) + [0, 0] + Array(",f".utf8) + [0, 0] + [0x3F, 0xC0, 0, 0]
        XCTAssertEqual(try OSCMessage.parse(bytes), [OSCMessage("/duo/speed", [.float(1.5)])])
        XCTAssertEqual(OSCMessage("/duo/speed", [.float(1.5)]).encoded(), bytes)
        let every = OSCMessage("/a", [.int(-7), .string("voice"), .blob([1, 2, 3]), .int64(1 << 40), .double(0.25), .bool(true),
                                      .bool(false), .null, .impulse])
        XCTAssertEqual(try OSCMessage.parse(every.encoded()), [every])
        XCTAssertEqual(every.encoded().count % 4, 0)
        // Old senders leave out the type tags; a bundle holds messages.
        XCTAssertEqual(try OSCMessage.parse(Array("/duo/stop".utf8) + [0, 0, 0]), [OSCMessage("/duo/stop")])
        let record = OSCMessage("/duo/record").encoded(), stop = OSCMessage("/duo/stop").encoded()
        let bundle: [UInt8] = Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1]
            + [0, 0, 0, UInt8(record.count)] + record + [0, 0, 0, UInt8(stop.count)] + stop
        XCTAssertEqual(try OSCMessage.parse(bundle).map(\.address), ["/duo/record", "/duo/stop"])
        // Counted without being read (issue 35: each message counts against the rate), nested bundles too.
        XCTAssertEqual(OSCMessage.count(record), 1)
        XCTAssertEqual(OSCMessage.count(bundle), 2)
        let nested = Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, UInt8(bundle.count)] + bundle
            + [0, 0, 0, UInt8(stop.count)] + stop
        XCTAssertEqual(OSCMessage.count(nested), 3)
        XCTAssertEqual(try OSCMessage.parse(nested).count, 3)
        XCTAssertEqual(OSCMessage.count(Array(bundle.dropLast(4))), 2, "cut short: counted as far as it goes")
    }

    func testMalformedPacketsAreRefusedWithOneLine() {
        let good = OSCMessage("/duo/speed", [.float(1.5)]).encoded()
        let cases: [([UInt8], String)] = [
            ([], "empty packet"), (Array(good.prefix(5)), "not terminated"), (Array(good.prefix(14)), "not terminated"), (Array(good.prefix(16)), "cut short"),
            (Array(good.dropLast(2)), "cut short"), (Array("duo".utf8) + [0], "must start with /"),
            (Array("/a".utf8) + [0, 0] + Array(",q".utf8) + [0, 0], "unknown type tag 'q'"),
            (Array("/a".utf8) + [0, 0] + Array("f".utf8) + [0, 0, 0], "must start with a comma"),
            (good + [0, 0, 0, 0], "left over"), (Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 3], "multiple of 4"),
            (Array("/a".utf8) + [0, 0] + [0xFF, 0xFE, 0] + [0], "UTF-8"),
        ]
        for (bytes, problem) in cases {
            XCTAssertThrowsError(try OSCMessage.parse(bytes), problem) { error in
                let message = (error as? DuoError)?.message ?? ""
                XCTAssertTrue(message.contains(problem), "\(message) should say \(problem)")
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    func testOSCAddressesBecomeTheControlSocketsCommands() throws {
        let cases: [(OSCMessage, WebRemoteCommands.OSCRequest)] = [
            (OSCMessage("/duo/record"), .command(.record)), (OSCMessage("/duo/stop", [.int(1)]), .command(.stop)),
            (OSCMessage("/duo/speed", [.float(1.5)]), .command(.speedFactor(1.5))),
            (OSCMessage("/duo/speed", [.int(2)]), .command(.speedFactor(2))),
            (OSCMessage("/duo/speed/up"), .command(.speedStep(1))), (OSCMessage("/duo/speed/preset", [.int(3)]), .command(.speedPreset(3))),
            (OSCMessage("/duo/marker/next"), .command(.jump(.next))), (OSCMessage("/duo/marker/previous"), .command(.jump(.previous))),
            (OSCMessage("/duo/follow", [.string("voice")]), .command(.follow(voice: true))), (OSCMessage("/duo/state"), .state),
            // Issue 37: marks and re-takes from Companion (a button press may carry a 1).
            (OSCMessage("/duo/mark/good"), .command(.mark(good: true, take: nil))),
            (OSCMessage("/duo/mark/nogood", [.int(1)]), .command(.mark(good: false, take: nil))),
            (OSCMessage("/duo/retake"), .command(.retake)),
        ]
        for (message, expected) in cases { XCTAssertEqual(try WebRemoteCommands.osc(message), expected, message.address) }
        let refused: [(OSCMessage, String)] = [
            (OSCMessage("/duo/dance"), "unknown address /duo/dance"), (OSCMessage("/duo/speed", [.string("fast")]), "one number"),
            (OSCMessage("/duo/speed", [.float(9)]), "0.25 to 4"), (OSCMessage("/duo/speed"), "one number"),
            (OSCMessage("/duo/speed/preset", [.float(2.5)]), "whole number"), (OSCMessage("/duo/record", [.string("now")]), "no arguments"),
            (OSCMessage("/duo/follow", [.int(1)]), "voice or time"),
            (OSCMessage("/duo/mark/good", [.string("yes")]), "/duo/mark/good takes no arguments"),
            (OSCMessage("/duo/retake", [.string("now")]), "/duo/retake takes no arguments"),
            (OSCMessage("/duo/x\ny\u{1B}[2J"), "unknown address /duo/x\\u{A}y\\u{1B}[2J;"),
        ]
        for (message, problem) in refused {
            XCTAssertThrowsError(try WebRemoteCommands.osc(message)) { error in
                XCTAssertTrue(((error as? DuoError)?.message ?? "").contains(problem), "\(error)")
            }
        }
    }

    /// A re-take from the phone or OSC goes ahead only between takes; the key's stops a running take and
    /// records again; during a countdown neither is taken (issue 37).
    func testARemoteRetakeIsTakenOnlyBetweenTakes() {
        XCTAssertEqual(RemoteRetake.decide(remote: true, countingDown: false, recording: nil), .record)
        XCTAssertEqual(RemoteRetake.decide(remote: false, countingDown: false, recording: nil), .record)
        XCTAssertEqual(RemoteRetake.decide(remote: false, countingDown: false, recording: 4), .stopThenRecord)
        guard case .refuse(let why) = RemoteRetake.decide(remote: true, countingDown: false, recording: 4) else {
            return XCTFail("a remote's retake stopped take 4")
        }
        XCTAssertTrue(why.contains("take 4 is recording") && why.contains("send stop first"), why)
        XCTAssertFalse(why.contains("\n"))
        for remote in [true, false] {
            guard case .refuse(let why) = RemoteRetake.decide(remote: remote, countingDown: true, recording: nil) else {
                return XCTFail("a retake during the countdown was taken (remote: \(remote))")
            }
            XCTAssertTrue(why.contains("countdown is running"), why)
        }
    }

    /// Nothing a remote sends ends the run, opens a file or stops a take but stop.
    func testARemoteMayNotQuitOpenFilesOrToggle() throws {
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"speed","factor":1.5}"#), .speedFactor(1.5))
        XCTAssertEqual(try WebRemoteCommands.parse(json: #"{"cmd":"stop"}"#), .stop)
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"speed","factor":0.25}"#), .speedFactor(0.25))
        for line in [#"{"cmd":"speed","factor":4.5}"#, #"{"cmd":"speed","factor":"1.5"}"#, #"{"cmd":"speed","factor":true}"#] {
            XCTAssertThrowsError(try ControlCommand.parse(line), line) { error in
                XCTAssertTrue(((error as? DuoError)?.message ?? "").contains("\"factor\": 0.25 to 4"), "\(error)")
            }
        }
        for line in [#"{"cmd":"quit"}"#, #"{"cmd":"toggle"}"#, #"{"cmd":"script","path":"/etc/passwd"}"#, #"{"cmd":"fullscreen","on":true}"#] {
            XCTAssertThrowsError(try WebRemoteCommands.parse(json: line), line) { error in
                XCTAssertTrue(((error as? DuoError)?.message ?? "").contains("is not taken from a remote"), "\(error)")
            }
        }
    }

    func testTheTokenIsRandomAndComparedWhole() throws {
        let a = WebRemoteToken.random(), b = WebRemoteToken.random()
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(a.value.count, 32)
        XCTAssertTrue(a.matches(a.value))
        XCTAssertFalse(a.matches(nil))
        XCTAssertFalse(a.matches(String(a.value.dropLast())))
        XCTAssertFalse(a.matches(a.value + "0"))
        XCTAssertFalse(a.matches(""))
        XCTAssertEqual(try WebRemoteToken.parse(fileText: "studio-remote-2026-token\nrest", path: "t").value, "studio-remote-2026-token")
        XCTAssertThrowsError(try WebRemoteToken.parse(fileText: "short\n", path: "t"))
        // Issue 35: a token that cannot hold 128 bits is refused (16 letters, or one letter repeated).
        XCTAssertThrowsError(try WebRemoteToken.parse(fileText: "abcdefghij012345\n", path: "t"))
        XCTAssertThrowsError(try WebRemoteToken.parse(fileText: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", path: "t"))
        XCTAssertEqual(WebRemoteToken.random().value.count, 32, "128 bits as hex")
        XCTAssertNotEqual(WebRemoteToken.random(), WebRemoteToken.random())
        XCTAssertThrowsError(try WebRemoteToken.parse(fileText: "has spaces in the middle of it\n", path: "t"))
    }

    func testRefusalsAreSaidOncePerWindowAndTheirMemoryIsBounded() {
        var throttle = Throttle(window: 10, capacity: 3)
        XCTAssertEqual(throttle.line("a", "refused a", at: 0), "refused a")
        XCTAssertNil(throttle.line("a", "refused a", at: 5))
        XCTAssertNil(throttle.line("a", "refused a", at: 9))
        XCTAssertEqual(throttle.line("a", "refused a", at: 10), "refused a (2 more like it since the last such line)")
        XCTAssertNotNil(throttle.line("b", "b", at: 10))
        XCTAssertNotNil(throttle.line("c", "c", at: 10))
        XCTAssertNil(throttle.line("d", "d", at: 11), "full of recent kinds: only counted")
        XCTAssertNotNil(throttle.line("d", "d", at: 25), "old kinds are forgotten to make room")
    }

    func testTheGateLetsABurstThenTheRateThrough() {
        var gate = CommandGate(rate: 100, burst: 5)
        XCTAssertEqual((0..<10).filter { _ in gate.admit(at: 0) }.count, 5)
        XCTAssertFalse(gate.admit(at: 5_000_000))
        XCTAssertTrue(gate.admit(at: 10_000_000), "one more every 10 ms")
        // A second later: the burst again, then 100 a second (10 in these 100 ms), whatever is sent.
        XCTAssertTrue((14...15).contains((0..<1000).filter { i in gate.admit(at: 1_000_000_000 + Int64(i) * 100_000) }.count))
    }

    func testTheStateFollowsTheEventsAndIsFedBack() {
        var state = WebRemoteRunState()
        XCTAssertEqual(state.oscFeedback.arguments.first, .string("idle"))
        state.observe(.init(.countdown(seconds: 3, take: 2), t: 1.0))
        XCTAssertEqual(state.stateName, "countdown")
        state.observe(.init(.takeStarted(take: 2, file: "take02.mkv"), t: 4.0))
        state.observe(.init(.status(.init(trigger: "periodic", position: 25, length: 100, paused: false, speed: "240 wpm", secondsLeft: 30,
                                          mirror: "", fontSize: 48, cameraFrames: 195, operatorFrames: 195, subjectFrames: 0,
                                          cameraDropped: 0, previewSkipped: 0, subjectSkipped: 0, recording: true, audioPeak: nil)), t: 6.5))
        XCTAssertEqual(state.oscFeedback, OSCMessage("/duo/state", [.string("recording"), .int(2), .float(2.5), .string("240 wpm"), .int(0), .float(0.25)]))
        state.observe(.init(.takeEnded(take: 2, file: "take02.mkv", frames: 90, dropped: 0, kept: true, empty: false, error: nil), t: 7.0))
        XCTAssertEqual(state.stateName, "idle")
        XCTAssertFalse(WebRemoteRunState.forwarded.contains(.monitors))
    }
}
