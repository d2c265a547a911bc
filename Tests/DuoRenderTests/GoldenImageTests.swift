import XCTest
import DuoCore
@testable import DuoRender

/// Golden images of `render-subject` at 480×270. Regenerate with `DUO_UPDATE_GOLDENS=1 swift test
/// --filter GoldenImageTests`, then look at every PNG in Tests/DuoRenderTests/Golden before committing.
final class GoldenImageTests: XCTestCase {
    private let size = ["--size", "480x270"]
    private var talk: String { Checkout.path("Assets/scripts/talk.md") }

    func testEnglishMarkdown() throws {
        try assertMatchesGolden(renderSubject(["--script", talk, "--at", "6", "--recording"] + size), "english")
    }

    func testHeldAtPauseCue() throws {
        try assertMatchesGolden(renderSubject(["--script", talk, "--at", "60", "--recording"] + size), "held-at-pause")
    }

    func testChinese() throws {
        try assertMatchesGolden(renderSubject(["--script", Checkout.path("Assets/scripts/chinese.txt"), "--at", "8"] + size), "chinese")
    }

    func testArabicRightToLeft() throws {
        try assertMatchesGolden(renderSubject(["--script", Checkout.path("Assets/scripts/arabic.txt"), "--at", "3"] + size), "arabic")
    }

    func testMirroredHorizontally() throws {
        try assertMatchesGolden(renderSubject(["--script", talk, "--at", "6", "--mirror", "h", "--recording"] + size), "mirrored-h")
    }

    func testMirroredBothWays() throws {
        try assertMatchesGolden(renderSubject(["--script", talk, "--at", "6", "--mirror", "hv", "--recording"] + size), "mirrored-hv")
    }

    func testCountdownThreeTwoOne() throws {
        for (at, shown) in [("0.2", 3), ("1.5", 2), ("2.9", 1)] {
            try assertMatchesGolden(renderSubject(["--accessory", "countdown", "--countdown", "3", "--at", at] + size), "countdown-\(shown)")
        }
    }

    func testSafeFrameSixteenNine() throws {
        try assertMatchesGolden(renderSubject(["--accessory", "preview", "--aspect", "16:9", "--at", "0"] + size), "safe-16x9")
    }

    func testSafeFrameNineSixteen() throws {
        try assertMatchesGolden(renderSubject(["--accessory", "preview", "--aspect", "9:16", "--at", "0"] + size), "safe-9x16")
    }

    func testWebcamOcclusionProfile() throws {
        try assertMatchesGolden(renderSubject(["--script", talk, "--at", "6", "--recording", "--display-profile",
                                               Checkout.path("Assets/displays/webcam-top-centre.json")] + size), "occlusion-top-centre")
    }

    func testCameraBottomLeftProfile() throws {
        try assertMatchesGolden(renderSubject(["--script", talk, "--at", "6", "--recording", "--display-profile",
                                               Checkout.path("Assets/displays/webcam-bottom-left.json")] + size), "occlusion-bottom-left")
    }

    func testHighContrastLargeFont() throws {
        try assertMatchesGolden(renderSubject(["--script", talk, "--at", "20", "--theme", "high-contrast", "--font-size", "20"] + size), "high-contrast")
    }

    /// The comparison must be able to fail: a frame one second later (the text moved by ~3 words) is
    /// outside the tolerance, and so is the same frame without its mirror.
    func testComparisonRejectsAMovedOrUnmirroredFrame() throws {
        let base = try renderSubject(["--script", talk, "--at", "6", "--recording"] + size).packedBytes()
        let later = try renderSubject(["--script", talk, "--at", "7", "--recording"] + size).packedBytes()
        let mirrored = try renderSubject(["--script", talk, "--at", "6", "--recording", "--mirror", "h"] + size).packedBytes()
        XCTAssertFalse(FrameDifference(base, later).isWithinTolerance)
        XCTAssertFalse(FrameDifference(base, mirrored).isWithinTolerance)
        XCTAssertTrue(FrameDifference(base, base).isWithinTolerance)
    }
}
