import DuoCore
import XCTest

/// The operator preview's cap, its measured rate, and the HUD keeping the preview apart from the take.
final class PreviewPacingModelTests: XCTestCase {
    func testFastCamerasArePreviewedAtAnEvenShare() {
        XCTAssertNil(PreviewPacing.maxRate(camera: 30))
        XCTAssertNil(PreviewPacing.maxRate(camera: 24))
        XCTAssertEqual(PreviewPacing.maxRate(camera: 60), 30)
        XCTAssertEqual(PreviewPacing.maxRate(camera: 60000.0 / 1001), 30)
        XCTAssertEqual(PreviewPacing.maxRate(camera: 50), 25)
        XCTAssertEqual(PreviewPacing.maxRate(camera: 120), 30)
    }

    func testMeterMeasuresFramesShownPerSecond() {
        var m = PreviewMeter()
        let s: Int64 = 1_000_000_000
        XCTAssertNil(m.add(at: 0, shown: 0))
        XCTAssertEqual(m.add(at: s, shown: 30) ?? 0, 30, accuracy: 0.01)
        XCTAssertEqual(m.add(at: 2 * s, shown: 60) ?? 0, 30, accuracy: 0.01)
        XCTAssertEqual(m.add(at: 3 * s, shown: 75) ?? 0, 22.5, accuracy: 0.01, "the last 2 s only")
    }

    func testHudKeepsThePreviewRateApartFromTheTakesDroppedFrames() {
        var hud = HudModel()
        hud.recording = true
        hud.takeNumber = 1
        hud.cameraDropped = 0
        hud.previewFps = 29.8
        hud.cameraFps = 60
        XCTAssertTrue(hud.lines.contains("take: 0 dropped"), "\(hud.lines)")
        XCTAssertTrue(hud.lines.contains("preview 30 of 60 fps (screen only)"), "\(hud.lines)")
    }
}
