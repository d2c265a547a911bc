@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// The microphone's part: a microphone that is not named (the default device) lost mid-take is said once
/// and marked in the take's sidecar; the run and the take go on.
final class MicrophonePartTests: XCTestCase {
    func testAnUnnamedMicrophoneLostMidTakeIsSaidAndInTheSidecar() async throws {
        let run = try PartRun(self)
        await run.director.process(.started)
        await run.send(.record)
        await run.advance(1.5)
        await run.director.process(.session(.microphoneLost("the device went away")))
        XCTAssertEqual(try run.events("error").last?["message"] as? String,
                       "the microphone was lost (the device went away); the run and any take go on without sound")
        XCTAssertTrue(try run.events("microphone-lost").isEmpty, "no named microphone: nothing is taken back")
        await run.advance(0.5)
        await run.send(.stop)
        let file = try XCTUnwrap(try run.events("take-ended").first?["file"] as? String)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        XCTAssertEqual(sidecar.interruptions?.map { "\($0.what) \($0.device)" }, ["lost microphone"])
        XCTAssertEqual(sidecar.interruptions?.first?.atSeconds ?? 0, 1.5, accuracy: 0.01)
        XCTAssertTrue(try run.events("stopped").isEmpty, "the run goes on")
    }
}

/// The remote displays' part: a listening display is rendered for at 1920x1080 without being asked, and a
/// display that cannot be reached is said once and asked again while the run goes on.
final class RemoteDisplaysPartTests: XCTestCase {
    func testAListeningDisplayIsAttachedWithoutAskingAndACallerIsAskedAgain() async throws {
        let display = ScriptedDisplay([.unreachable("connection refused"), .accepted(.init(width: 1280, height: 800, refresh: 60))])
        let run = try PartRun(self, configure: {
            $0.parts.remotes.displays = [try SRTAddress.parse("srt://:7001", option: "--subject-remote"),
                                         try SRTAddress.parse("srt://prompter:7002", option: "--subject-remote")]
        }, handshake: display)
        let d = run.director
        await d.process(.started)
        var attached = await run.capture.remotesAttached
        XCTAssertEqual(attached, ["0 1920x1080"], "the listener at once, at 1920x1080")
        try await run.carryInputs { try run.events("remote").count >= 2 }
        XCTAssertEqual(try run.events("remote").map { $0["state"] as? String }, ["connected", "waiting"])
        XCTAssertEqual(display.asks, 1, "only the caller is asked")
        await run.advance(1.1)
        await run.advance(1.1)
        try await run.carryInputs { try run.events("remote").count >= 3 }
        attached = await run.capture.remotesAttached
        XCTAssertEqual(attached, ["0 1920x1080", "1 1280x800"], "asked again, rendered at the size it answered")
        XCTAssertEqual(try run.events("remote").last?["display"] as? String, "srt://prompter:7002")
    }
}
