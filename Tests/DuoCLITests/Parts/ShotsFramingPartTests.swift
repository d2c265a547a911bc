@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// The shots part: a re-take during a take marks the running take no good and records the same shot again,
/// named and numbered within the shot.
final class ShotsPartTests: XCTestCase {
    func testARetakeMarksTheRunningTakeNoGoodAndRecordsTheShotAgain() async throws {
        let dir = try scratchDirectory(self)
        let shots = dir + "/shots.md"
        try "## 01 — Opening\nSay hello.\n\n## 02 — Closing\nSay goodbye.\n".write(toFile: shots, atomically: true, encoding: .utf8)
        let run = try PartRun(self, configure: { $0.parts.shots = .init(list: try ShotList.load(path: shots), path: shots) })
        await run.director.process(.started)
        await run.send(.shot(next: true, id: nil))
        await run.send(.record)
        await run.advance(1)
        await run.send(.retake)
        let mark = try XCTUnwrap(try run.events("mark").first)
        XCTAssertEqual(mark["take"] as? Int, 1)
        XCTAssertEqual(mark["mark"] as? String, "no-good")
        XCTAssertEqual(mark["by"] as? String, "retake")
        XCTAssertEqual(try run.events("shot-take").map { "\($0["shot"] ?? "") \($0["shotTake"] ?? "")" }, ["02 1", "02 2"])
        let files = try run.events("take-started").compactMap { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } }
        XCTAssertEqual(files.count, 2)
        XCTAssertTrue(files[0].hasSuffix("-shot02-take01.mkv") && files[1].hasSuffix("-shot02-take02.mkv"), "\(files)")
        let begun = await run.capture.begun
        XCTAssertEqual(begun.map(\.number), [1, 2], "the run's take numbers go on")
    }
}

/// The framing part: a detector that is not there turns the hints off for good: the subject's hint is
/// cleared, the HUD shows none, and later boxes are no events.
final class FramingPartTests: XCTestCase {
    func testAnUnavailableDetectorClearsTheHintAndSaysNoMore() async throws {
        let face = RecordingFace()
        let run = try PartRun(self, cameras: [["640x360@30"]], adapt: { $0.framing = .single }, face: face)
        let d = run.director
        await d.process(.started)
        let left = FaceBox(x: 0.05, y: 0.2, width: 0.17, height: 0.3)
        for _ in 0..<6 {
            run.clock.advance(bySeconds: 0.2)
            await d.process(.session(.faces([left], at: run.clock.now())))
        }
        var hints = await run.presenter.framingHints
        XCTAssertFalse(hints.isEmpty, "someone far left: a hint")
        let before = try run.events("framing").count
        await d.process(.session(.framingUnavailable("facedetect failed")))
        hints = await run.presenter.framingHints
        XCTAssertEqual(hints, [])
        for _ in 0..<10 {
            run.clock.advance(bySeconds: 0.2)
            await d.process(.session(.faces([left], at: run.clock.now())))
        }
        await run.advance(0.2)
        XCTAssertEqual(try run.events("framing").count, before, "off: no more framing events")
        XCTAssertNil(face.run?.framing)
        XCTAssertTrue(run.log.contains("duo-capture: framing hints are off: facedetect failed"))
    }
}
