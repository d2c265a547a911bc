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
    let clock = ManualClock(1_000_000_000)

    func testTheScreenIsSaidAtStartAndWhenItStops() async throws {
        let dir = try scratchDirectory(self)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var plan = try GraphPlan(library: PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path), camera: .testSource,
                                 requested: VideoFormat.parse("640x360@30"), aspect: nil, encoder: .x264, container: .mkv)
        plan.screen = ScreenTrack(monitor: ScreenMonitor(index: 1, connector: "DP-2", x: 1920, y: 0, width: 2560, height: 1440),
                                  rate: 10, why: "asked for with --screen")
        var subject = SubjectSetup()
        subject.accessory = .countdown
        let presenter = try SubjectPresenter(subject, width: 320, height: 180)
        let events = "\(dir)/events.jsonl"
        var settings = RunDirector.Settings()
        settings.recordDirectory = dir
        let face = HudFace()
        let logged = Locked<[String]>([])
        let d = RunDirector(settings: settings, plan: plan, capture: FakeCapture(plan: plan, clock: clock), presenter: presenter, face: face,
                            clock: clock, events: try EventLog(path: events), watchDevices: { _ in nil },
                            log: { line in logged.update { $0.append(line) } })
        await d.process(.started)
        await d.process(.tick)
        XCTAssertTrue(face.run?.format.hasSuffix(" · screen 1 DP-2 2560x1440@10") ?? false, face.run?.format ?? "no HUD")
        await d.process(.session(.screenStopped("screen_source: Could not get image")))
        await d.process(.session(.screenStopped("said again")))
        await d.process(.tick)
        XCTAssertTrue(face.run?.format.hasSuffix(" · screen stopped") ?? false, face.run?.format ?? "no HUD")
        let screen = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "screen" }
        XCTAssertEqual(screen.map { $0["state"] as? String }, ["recording", "stopped"])
        XCTAssertEqual(screen.first?["geometry"] as? String, "2560x1440+1920+0")
        XCTAssertEqual(screen.last?["reason"] as? String, "screen_source: Could not get image")
        XCTAssertEqual(logged.value.filter { $0.contains("the screen track stopped") }.count, 1, logged.value.joined(separator: "\n"))
    }
}
