import DuoCore
import XCTest

/// Where the HUD panel and the control bar go (pure): beside a narrow composition, inside a profile.
final class HudPlacementModelTests: XCTestCase {
    func testPanelBesideANarrowCompositionElseOverThePicture() {
        var hud = HudModel()
        hud.videoWidth = 1920; hud.videoHeight = 1080
        let wide = hud.panelRegion(width: 1280, height: 720)
        XCTAssertFalse(wide.beside, "16:9 on 16:9: no room beside")
        XCTAssertEqual(wide.region.x, 8)
        hud.aspect = AspectRatio(9, 16)
        let tall = hud.panelRegion(width: 1280, height: 720)
        XCTAssertTrue(tall.beside)
        let composition = hud.safeFrame(width: 1280, height: 720).composition
        XCTAssertLessThanOrEqual(tall.region.x + tall.region.width, composition.x, "left of the composition")
        XCTAssertGreaterThanOrEqual(tall.region.width, HudModel.besideMinimumWidth)
    }

    func testProfileInsetsAndOcclusionsKeepThePanelAndControlsClear() throws {
        var hud = HudModel()
        hud.operatorProfile = try DisplayProfile.parse(data: Data(#"{"insets":{"top":0.1,"left":0.05,"bottom":0.05},"occlusions":[{"kind":"camera","x":0.0,"y":0.1,"width":0.3,"height":0.1}]}"#.utf8))
        let r = hud.panelRegion(width: 1000, height: 1000).region
        XCTAssertGreaterThanOrEqual(r.x, 50)
        XCTAssertGreaterThanOrEqual(r.y, 200, "below the inset and the camera under it")
        XCTAssertEqual(hud.controlsBottomMargin(width: 1000, height: 1000), 66, accuracy: 0.01)
    }
}
