import DuoCore
import XCTest

/// The two detectors' faces as one list a quick frame: the fine detector's small faces held between its
/// frames, never a second face where the quick detector already sees one, one missed frame forgiven.
final class FaceSightingsTests: XCTestCase {
    let ms: Int64 = 1_000_000
    let small = FaceBox(x: 0.1, y: 0.3, width: 0.05, height: 0.08)
    let large = FaceBox(x: 0.4, y: 0.2, width: 0.18, height: 0.32)

    func testTheDetectorsAreToldApartByTheirElementNames() {
        XCTAssertEqual(FaceDetectorPass.named("framing_detector"), .quick)
        XCTAssertEqual(FaceDetectorPass.named("framing_fine_detector"), .fine)
        XCTAssertNil(FaceDetectorPass.named("facedetect0"))
    }

    func testASmallFaceTheFineDetectorFoundRidesOnEachQuickFrameUntilItLooksAgain() {
        var s = FaceSightings()
        XCTAssertEqual(s.saw([], by: .quick, at: 0), [], "nothing seen yet")
        XCTAssertNil(s.saw([small], by: .fine, at: 100 * ms), "a fine frame hands nothing to the policy itself")
        for t in stride(from: Int64(200), through: 1000, by: 200) {
            XCTAssertEqual(s.saw([], by: .quick, at: t * ms), [small], "held at \(t) ms")
        }
        // The fine detector sees the face moved: the new place replaces the old.
        let moved = FaceBox(x: 0.8, y: 0.3, width: 0.05, height: 0.08)
        _ = s.saw([moved], by: .fine, at: 1100 * ms)
        XCTAssertEqual(s.saw([], by: .quick, at: 1200 * ms), [moved])
    }

    func testOneMissedFineFrameIsForgivenTwoAreAnEmptyRoom() {
        var s = FaceSightings()
        _ = s.saw([small], by: .fine, at: 0)
        _ = s.saw([], by: .fine, at: 1000 * ms)
        XCTAssertEqual(s.saw([], by: .quick, at: 1200 * ms), [small], "one miss: still there")
        _ = s.saw([], by: .fine, at: 2000 * ms)
        XCTAssertEqual(s.saw([], by: .quick, at: 2200 * ms), [], "two misses: gone")
    }

    func testAHeldFaceExpiresWhenTheFineDetectorFallsSilent() {
        var s = FaceSightings()
        _ = s.saw([small], by: .fine, at: 0)
        XCTAssertEqual(s.saw([], by: .quick, at: 2400 * ms), [small])
        XCTAssertEqual(s.saw([], by: .quick, at: 2600 * ms), [], "not held past 2.5 s without a fine frame")
    }

    func testLargeFacesAreTheQuickDetectorsAndOneFaceIsNeverTwo() {
        var s = FaceSightings()
        // The fine detector's large face is a frame behind the quick one's: not held (no ghost where the
        // person was when they move).
        _ = s.saw([large], by: .fine, at: 0)
        let movedLarge = FaceBox(x: 0.1, y: 0.2, width: 0.18, height: 0.32)
        XCTAssertEqual(s.saw([movedLarge], by: .quick, at: 200 * ms), [movedLarge])
        // A small face both detectors see is one face (the quick detector's box).
        let quickBox = FaceBox(x: 0.095, y: 0.29, width: 0.06, height: 0.09)
        _ = s.saw([small], by: .fine, at: 1000 * ms)
        XCTAssertEqual(s.saw([quickBox], by: .quick, at: 1200 * ms), [quickBox])
        // Two people: a large face the quick detector sees and a small one only the fine detector finds.
        XCTAssertEqual(s.saw([large], by: .quick, at: 1400 * ms), [large, small])
    }

    func testTwoBoxesOfOneFaceAreOne() {
        var s = FaceSightings()
        let twin = FaceBox(x: 0.11, y: 0.31, width: 0.045, height: 0.07)
        _ = s.saw([twin, small], by: .fine, at: 0)
        XCTAssertEqual(s.saw([], by: .quick, at: 200 * ms), [small], "the larger box of the two")
    }
}
