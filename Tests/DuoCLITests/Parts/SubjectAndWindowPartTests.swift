@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// The subject view's part: the screen kept on exactly while a take records or the teleprompter is shown,
/// and the self-view telling the subject branch what it now shows.
final class SubjectViewPartTests: XCTestCase {
    func testTheScreenIsKeptOnWhileATakeRecordsAndLetRestAfter() async throws {
        let face = RecordingFace()
        let run = try PartRun(self, face: face)
        await run.director.process(.started)
        XCTAssertEqual(face.screen, [], "the countdown kind and no take: the screen may rest")
        await run.send(.record)
        XCTAssertEqual(face.screen, ["on: a take is recording"])
        await run.advance(1)
        await run.send(.stop)
        XCTAssertEqual(face.screen.map { $0.hasPrefix("on") }, [true, false], "let rest when the take ended: \(face.screen)")
        _ = await run.director.finish()
        XCTAssertEqual(face.screen.count, 2, "nothing left on to release at the end")
    }

    func testTheTeleprompterShownKeepsTheScreenOnUntilTheRunEnds() async throws {
        let talk = try scriptFile(self)
        let face = RecordingFace()
        let run = try PartRun(self, subject: { $0.accessory = .teleprompter; $0.scriptPath = talk }, face: face)
        await run.director.process(.started)
        await run.director.process(.accessory(AccessoryChange(cause: .availability, enabled: true, available: true, reasons: [], shown: true),
                                              subjectMonitor: "DUMMY1"))
        XCTAssertEqual(face.screen, ["on: the teleprompter is shown"])
        await run.send(.record)
        await run.send(.stop)
        XCTAssertEqual(face.screen, ["on: the teleprompter is shown"], "still shown: no flicker around the take")
        _ = await run.director.finish()
        XCTAssertEqual(face.screen.last, "off: the run ended")
    }

    func testASelfViewOpensTheSubjectBranchAndSaysItsSize() async throws {
        let talk = try scriptFile(self)
        let run = try PartRun(self, subject: { $0.accessory = .teleprompter; $0.scriptPath = talk })
        await run.director.process(.started)
        await run.send(.selfView(.large))
        XCTAssertEqual(try run.events("self-view").last?["size"] as? String, "large")
        let uses = await run.capture.subjectPictureUses
        XCTAssertEqual(uses.count, 1, "the subject branch is told what of its picture the view now uses")
        let open = await run.capture.subjectOpen
        XCTAssertEqual(open, [true], "headless and shown: the branch is open")
    }
}

/// The operator window's part: the face's fullscreen facts said as events, a leave during a take held for
/// a second press, with its notice on the HUD.
final class OperatorWindowPartTests: XCTestCase {
    func testFullscreenFactsAreEventsAndALeaveDuringATakeIsHeld() async throws {
        let face = RecordingFace()
        let run = try PartRun(self, face: face)
        await run.director.process(.started)
        await run.director.process(.fullscreen(true))
        XCTAssertEqual(try run.events("fullscreen").map { $0["fullscreen"] as? Bool }, [true])
        await run.send(.record)
        await run.send(.fullscreen(on: false))
        XCTAssertEqual(try run.events("error").last?["message"] as? String, "control: " + FullscreenLeave.refusal)
        XCTAssertEqual(face.run?.fullscreenNotice, FullscreenLeave.notice)
    }
}

/// A small teleprompter script in the test's scratch folder.
func scriptFile(_ test: XCTestCase, _ text: String = "# Talk\n\nHello there, this is a talk about cameras and lenses.\n") throws -> String {
    let path = try scratchDirectory(test) + "/talk-\(UUID().uuidString.prefix(8)).md"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
