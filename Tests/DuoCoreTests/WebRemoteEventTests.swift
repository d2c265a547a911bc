import DuoCore
import XCTest

/// OSC and the web remote read the run's typed events and build their commands directly: what they
/// make is what the control socket's JSON makes.
final class WebRemoteEventTests: XCTestCase {
    /// /duo/shot/next and /duo/shot/previous are the control socket's shot command, built without JSON.
    func testOSCShotAddressesAreTheControlSocketsShotCommand() throws {
        for (address, json) in [("/duo/shot/next", #"{"cmd":"shot","next":true}"#), ("/duo/shot/previous", #"{"cmd":"shot","next":false}"#)] {
            let expected = try ControlCommand.parse(json)
            XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage(address)), .command(expected), address)
            XCTAssertEqual(try WebRemoteCommands.osc(OSCMessage(address, [.int(1)])), .command(expected), "\(address) 1 (a button press)")
            XCTAssertThrowsError(try WebRemoteCommands.osc(OSCMessage(address, [.string("now")])), address)
        }
    }

    /// The state OSC feedback tells follows the typed events at their times: a countdown, a take and its
    /// elapsed time, the status's speed, pause and progress, the take's end and a status that says no
    /// take runs.
    func testTheFedBackStateFollowsTypedEvents() {
        var state = WebRemoteRunState()
        func status(_ position: Double, paused: Bool, recording: Bool) -> RunEvent {
            .status(.init(trigger: "periodic", position: position, length: 80, paused: paused, speed: "1.5×", secondsLeft: 12,
                          mirror: "h", fontSize: 40, cameraFrames: 10, operatorFrames: 10, subjectFrames: 10, cameraDropped: 0,
                          previewSkipped: 0, subjectSkipped: 0, recording: recording, audioPeak: -12))
        }
        state.observe(.init(.countdown(seconds: 2, take: 7), t: 10.25))
        XCTAssertEqual(state.oscFeedback.arguments.first, .string("countdown"))
        state.observe(.init(.countdownCancelled(take: 7), t: 11))
        XCTAssertEqual(state.stateName, "idle")
        state.observe(.init(.takeStarted(take: 7, file: "t7.mkv"), t: 12.5))
        state.observe(.init(status(20, paused: true, recording: true), t: 15.75))
        XCTAssertEqual(state.oscFeedback, OSCMessage("/duo/state", [.string("recording"), .int(7), .float(3.25), .string("1.5×"),
                                                                   .int(1), .float(0.25)]))
        // An event that is not the state's moves only its clock.
        state.observe(.init(.fullscreen(true), t: 16.5))
        XCTAssertEqual(state.elapsed, 4)
        XCTAssertEqual(state.take, 7)
        // A status saying nothing records ends the take as the state knows it (a take-ended missed).
        state.observe(.init(status(30, paused: false, recording: false), t: 18))
        XCTAssertEqual(state.oscFeedback, OSCMessage("/duo/state", [.string("idle"), .int(7), .float(0), .string("1.5×"),
                                                                   .int(0), .float(0.375)]))
    }
}
