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
        let panel = HudRenderer.boxes(model, width: 1280, height: 720).panel
        let bytes = image.packedBytes()   // RGBA
        func brightPixels(rowsFrom top: Int, to bottom: Int) -> Int {
            var n = 0
            for y in max(0, top)..<min(720, bottom) { for x in 8..<700 {
                let i = (y * image.width + x) * 4
                if max(bytes[i], bytes[i + 1], bytes[i + 2]) > 200 { n += 1 }   // text: white, red or amber
            } }
            return n
        }
        // The panel holds every line: each row has its place, and the two notes (the last rows) are
        // drawn with real ink.
        let unit = 720.0 / 50
        let bottom = Int(panel.y + panel.height - 0.7 * unit)
        XCTAssertGreaterThan(brightPixels(rowsFrom: bottom - Int(4 * unit * 1.3), to: bottom), 400, "the notes have ink")
        XCTAssertGreaterThanOrEqual(panel.height, Double(model.panel.rows.count) * unit * 1.3, "every row has its place")
        // Below the panel, the picture is untouched.
        XCTAssertEqual(brightPixels(rowsFrom: Int(panel.y + panel.height) + 2, to: Int(panel.y + panel.height) + 200), 0)
    }
}
