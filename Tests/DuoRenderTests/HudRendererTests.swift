import DuoCore
import DuoRender
import Foundation
import XCTest

/// The operator HUD is laid out by Pango: private notes in any script are drawn with real glyphs, and the
/// panel and safe frame land where the model says.
final class HudRendererTests: XCTestCase {
    private func hud(notes: [String]) -> HudModel {
        var h = HudModel()
        h.cameraLabel = "inner"
        h.format = "1280x720@30"
        h.videoWidth = 1280
        h.videoHeight = 720
        h.recording = true
        h.takeNumber = 2
        h.scriptProgress = 0.25
        h.notes = notes
        return h
    }

    func testNotesInChineseAndArabicAreShapedNotBoxes() throws {
        let notes = ["看镜头，放慢语速", "انظر إلى الكاميرا", "smile at the end"]
        XCTAssertEqual(HudRenderer.missingGlyphs(hud(notes: notes)), 0, "every note character has a glyph")
        // The check can fail: a character no font has (a private-use code point) is counted.
        XCTAssertGreaterThan(HudRenderer.missingGlyphs(hud(notes: ["\u{E000}\u{E001}"])), 0)
    }

    func testThePanelShowsEveryLineAndTheNotesHaveInk() throws {
        let model = hud(notes: ["看镜头，放慢语速", "انظر إلى الكاميرا"])
        let image = HudRenderer.image(model, width: 1280, height: 720)
        if let dir = ProcessInfo.processInfo.environment["DUO_HUD_PNG"] { try image.writePNG(to: "\(dir)/hud.png") }
        let bytes = image.packedBytes()   // RGBA
        func brightPixels(rowsFrom top: Int, to bottom: Int) -> Int {
            var n = 0
            for y in top..<bottom { for x in 8..<700 {
                let i = (y * image.width + x) * 4
                if max(bytes[i], bytes[i + 1], bytes[i + 2]) > 200 { n += 1 }   // text: white, red or amber
            } }
            return n
        }
        // 720 px high: 18 px text, lines about 24 px apart from y = 8 + 10.8 (a CJK line may be taller, so
        // only the first lines are measured band by band).
        let lineCount = model.lines.count
        let lineHeight = (720.0 / 40) * 1.35
        for i in 0..<4 {
            let top = Int(18.8 + Double(i) * lineHeight), bottom = Int(18.8 + Double(i + 1) * lineHeight)
            let ink = brightPixels(rowsFrom: top, to: bottom)
            XCTAssertGreaterThan(ink, 40, "line \(i) (\(model.lines[i])) has text")
        }
        // The two notes, under the script line, are drawn (a few hundred bright pixels each).
        XCTAssertGreaterThan(brightPixels(rowsFrom: Int(18.8 + 4 * lineHeight), to: Int(18.8 + 6 * lineHeight)), 400)
        // Below the panel, the picture is untouched.
        XCTAssertEqual(brightPixels(rowsFrom: Int(18.8 + Double(lineCount + 1) * lineHeight), to: 300), 0)
    }
}
