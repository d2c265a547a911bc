import DuoCore
import DuoRender
import XCTest

/// The operator HUD while its private items are hidden (the window may face the subject): drawn from
/// the whitelisted model, so two runs that differ only in private fields draw the same pixels.
final class HiddenHudPrivacyTests: XCTestCase {
    private func hud(_ secret: String, take: Int = 2) -> HudModel {
        var h = HudModel()
        h.cameraLabel = "v4l2:/dev/video0 \(secret)"
        h.format = "1280x720@30"
        h.videoWidth = 1280
        h.videoHeight = 720
        h.recording = true
        h.takeNumber = take
        h.elapsedSeconds = 12
        h.scriptProgress = 0.4
        h.secondsLeft = 80
        h.speed = "160 wpm"
        h.follow = "following '\(secret)'"
        h.notes = ["note \(secret)"]
        h.shot = "shot 01 \(secret)"
        h.nextShot = "next: \(secret)"
        h.shotNotes = ["shot note \(secret)"]
        h.soundNote = "microphone \(secret) lost"
        h.message = "take 1 saved to /home/\(secret)/take.mkv"
        h.enabled = true
        h.available = false
        h.reasons = [.subjectMonitorIsOperators]
        return h
    }

    func testHiddenHudPixelsAreByteIdenticalWhenOnlyPrivateFieldsDiffer() {
        let a = HudRenderer.image(hud("ALPHA").privateItemsHidden, width: 1280, height: 720).packedBytes()
        let b = HudRenderer.image(hud("BRAVO-LONGER-SECRET").privateItemsHidden, width: 1280, height: 720).packedBytes()
        XCTAssertTrue(a == b, "the hidden HUD draws no private field")
        // The check can fail: shown, the private fields change the pixels.
        let shownA = HudRenderer.image(hud("ALPHA"), width: 1280, height: 720).packedBytes()
        let shownB = HudRenderer.image(hud("BRAVO-LONGER-SECRET"), width: 1280, height: 720).packedBytes()
        XCTAssertFalse(shownA == shownB)
    }

    func testAWhitelistedChangeStillShowsWhileHidden() {
        let a = HudRenderer.image(hud("ALPHA", take: 2).privateItemsHidden, width: 1280, height: 720).packedBytes()
        let b = HudRenderer.image(hud("ALPHA", take: 3).privateItemsHidden, width: 1280, height: 720).packedBytes()
        XCTAssertFalse(a == b, "the take number is not private: the operator still sees the take")
    }
}
