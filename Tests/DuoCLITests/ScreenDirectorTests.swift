@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// The run director's screen part, with the fake capture and a manual clock: the monitor is said at start
/// (a `screen` event, the HUD's format line), and a screen source that failed is a `screen` event
/// `stopped`, one log line and the HUD saying so, once.
final class ScreenDirectorTests: XCTestCase {
    func testTheScreenIsSaidAtStartAndWhenItStops() async throws {
        let face = HudFace()
        let run = try PartRun(self, adapt: {
            $0.screen = ScreenTrack(monitor: ScreenMonitor(index: 1, connector: "DP-2", x: 1920, y: 0, width: 2560, height: 1440),
                                    rate: 10, why: "asked for with --screen")
        }, face: face)
        let d = run.director
        await d.process(.started)
        await d.process(.tick)
        XCTAssertTrue(face.run?.format.hasSuffix(" · screen 1 DP-2 2560x1440@10") ?? false, face.run?.format ?? "no HUD")
        await d.process(.session(.screenStopped("screen_source: Could not get image")))
        await d.process(.session(.screenStopped("said again")))
        await d.process(.tick)
        XCTAssertTrue(face.run?.format.hasSuffix(" · screen stopped") ?? false, face.run?.format ?? "no HUD")
        let screen = try run.events("screen")
        XCTAssertEqual(screen.map { $0["state"] as? String }, ["recording", "stopped"])
        XCTAssertEqual(screen.first?["geometry"] as? String, "2560x1440+1920+0")
        XCTAssertEqual(screen.last?["reason"] as? String, "screen_source: Could not get image")
        XCTAssertEqual(run.log.filter { $0.contains("the screen track stopped") }.count, 1, run.log.joined(separator: "\n"))
    }
}
