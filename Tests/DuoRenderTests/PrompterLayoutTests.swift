import DuoCore
import Foundation
import XCTest
@testable import DuoRender

/// The subject view as a prompter (issue 37): the text runs over the monitor's height, the reading line by
/// the lens, no line cut mid-glyph at an edge; the shot card in a place of its own, never over the text.
/// Each render is the real `render-subject` command's PNG, read back.
final class PrompterLayoutTests: XCTestCase {
    static let sizes = [(1280, 720), (1920, 1080), (3840, 2160)]

    /// A script long enough to fill a 4K monitor above and below the reading line.
    static let script: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("duo-prompter-\(getpid()).md").path
        var text = "# A long talk\n\n"
        let words = ["camera", "lens", "light", "story", "minute", "voice", "studio", "picture", "reader", "line"]
        for p in 0..<24 {
            text += (0..<40).map { words[($0 * 7 + p) % words.count] }.joined(separator: " ") + ".\n\n"
            if p % 6 == 5 { text += "## Part \(p / 6 + 2)\n\n" }
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }()

    /// The frame `render-subject` makes for `arguments` (its own parsing and rendering, no PNG round trip).
    static func render(_ arguments: [String]) throws -> CairoImage {
        try RenderSubjectCommand.render(RenderSubjectCommand.parse(arguments + ["--out", "/tmp/unused.png"])).0
    }

    /// A pixel's green channel (ARGB32 in memory: B, G, R, A), which tells text (over 100, dimmed or not)
    /// from every background (the panel's 15, the amber reading band's 55, the black around).
    static func green(_ image: CairoImage, _ x: Int, _ y: Int) -> UInt8 { image.pixels[y * image.stride + x * 4 + 1] }

    /// Rows of `ys` holding text: at least three pixels of columns `xs` brighter than any background.
    static func textRows(_ image: CairoImage, xs: Range<Int>, ys: Range<Int>) -> [Int] {
        ys.filter { y in
            let row = image.pixels + y * image.stride
            var n = 0
            for x in xs where row[x * 4 + 1] > 90 { n += 1; if n == 3 { return true } }
            return false
        }
    }

    /// The panel on the frame: its columns at mid-height, and its rows at its first column (the panel's
    /// colour, not the black around it).
    static func panel(_ image: CairoImage) -> (xs: Range<Int>, first: Int, last: Int)? {
        let mid = image.height / 2
        guard let left = (0..<image.width).first(where: { green(image, $0, mid) >= 8 }),
              let right = (0..<image.width).last(where: { green(image, $0, mid) >= 8 }) else { return nil }
        let x = left + 2
        guard let first = (0..<image.height).first(where: { green(image, x, $0) >= 8 }),
              let last = (0..<image.height).last(where: { green(image, x, $0) >= 8 }) else { return nil }
        return (left..<(right + 1), first, last)
    }

    /// Every size and lens: text over at least 60 % of the height between the insets (the self-view's band
    /// off), and the panel's edge rows plain background: a line crossing an edge has faded out, not been cut.
    func testTextFillsTheMonitorAndNoLineIsCutAtAnEdge() throws {
        for (w, h) in Self.sizes {
            for lens in LensPosition.allCases {
                let label = "\(w)x\(h) lens \(lens.rawValue)"
                let image = try Self.render(["--script", Self.script, "--at", "40", "--size", "\(w)x\(h)", "--lens", lens.rawValue,
                                             "--self-view", "off", "--mirror", "none"])
                guard var panel = Self.panel(image) else { XCTFail("\(label): no panel"); continue }
                // Clear of the safe frame's corner brackets, drawn over a panel beside a corner lens.
                panel.xs = max(panel.xs.lowerBound, w / 10)..<min(panel.xs.upperBound, w - w / 10)
                let rows = Self.textRows(image, xs: panel.xs, ys: 0..<h)
                guard let first = rows.first, let last = rows.last else { XCTFail("\(label): no text"); continue }
                let cover = Double(last - first + 1) / Double(h)
                XCTAssertGreaterThanOrEqual(cover, 0.6, "\(label): text covers rows \(first)-\(last), \(Int(cover * 100)) % of the height")
                // The panel's edges: 2 % of the height at each end shows no text at all, its outermost rows
                // are plain background.
                let edge = max(2, h / 50)
                let atEdges = Self.textRows(image, xs: panel.xs, ys: panel.first..<(panel.first + edge))
                    + Self.textRows(image, xs: panel.xs, ys: (panel.last + 1 - edge)..<(panel.last + 1))
                XCTAssertEqual(atEdges, [], "\(label): text at the panel's edge rows (panel \(panel.first)-\(panel.last))")
                for y in [panel.first, panel.last] {
                    let lit = panel.xs.filter { Self.green(image, $0, y) > 30 }.count
                    XCTAssertEqual(lit, 0, "\(label): row \(y), the panel's edge, is not plain background")
                }
            }
        }
    }

    /// The scene `render-subject` draws for `arguments`, its frame, and the frame's time.
    static func scene(_ arguments: [String]) throws -> (SubjectScene, CairoImage, Int64) {
        let (scene, time, _) = try RenderSubjectCommand.scene(RenderSubjectCommand.parse(arguments + ["--out", "/tmp/unused.png"]))
        return (scene, SubjectRenderer.render(scene, at: time), time)
    }

    /// The shot card (standby) at every size and lens: whole on the monitor and inside the text area's
    /// width, never over the text panel; and no pixel of the text (the body's warm grey, the headings'
    /// blue) inside the card's box.
    func testTheShotCardHasItsOwnPlaceNeverOverTheText() throws {
        let shots = Checkout.path("Assets/example-shots.md")
        for (w, h) in Self.sizes {
            for lens in LensPosition.allCases {
                let label = "\(w)x\(h) lens \(lens.rawValue)"
                let (scene, image, time) = try Self.scene(["--script", Self.script, "--at", "1", "--size", "\(w)x\(h)",
                                                           "--lens", lens.rawValue, "--shots", shots])
                let card = try XCTUnwrap(scene.shotCardRectangle(at: time), label)
                let panel = try XCTUnwrap(scene.textPanelRectangle(at: time), label)
                XCTAssertTrue(card.x >= 0 && card.y >= 0 && card.x + card.width <= w && card.y + card.height <= h, "\(label): card \(card)")
                XCTAssertLessThanOrEqual(Double(card.width), scene.geometry.textArea.width, label)
                let apart = card.y + card.height <= panel.y || panel.y + panel.height <= card.y
                    || card.x + card.width <= panel.x || panel.x + panel.width <= card.x
                XCTAssertTrue(apart, "\(label): card \(card) over the text panel \(panel)")
                var textPixels = 0
                for y in card.y..<(card.y + card.height) {
                    let row = image.pixels + y * image.stride
                    for x in card.x..<(card.x + card.width) {
                        let b = Int(row[x * 4]), g = Int(row[x * 4 + 1])
                        if g > 40 && (g - b >= 3 || b - g >= 30) { textPixels += 1 }
                    }
                }
                XCTAssertEqual(textPixels, 0, "\(label): the script's text shows inside the card \(card)")
                // The text is still there, beside the card: the panel holds lines.
                let rows = Self.textRows(image, xs: max(panel.x, w / 10)..<min(panel.x + panel.width, w - w / 10),
                                         ys: panel.y..<(panel.y + panel.height))
                XCTAssertGreaterThan(rows.count, Int(scene.fontSize), "\(label): the panel shows text")
            }
        }
    }

    /// What each box holds, read by tesseract at 1920x1080 (issue 37): the card's box reads the shot's
    /// title and instruction and none of the script's words; the text panel reads the script's words and
    /// not the card's. Drawing either in the other's place fails it.
    func testTheCardAndTheTextReadAsThemselves() throws {
        let shots = Checkout.path("Assets/example-shots.md")
        let (scene, image, time) = try Self.scene(["--script", Self.script, "--at", "1", "--size", "1920x1080", "--lens", "top",
                                                   "--shots", shots, "--self-view", "off"])
        let card = try XCTUnwrap(scene.shotCardRectangle(at: time))
        let panel = try XCTUnwrap(scene.textPanelRectangle(at: time))
        let scriptWords = ["camera", "story", "minute", "voice", "studio", "picture", "reader"]
        let cardRead = try RenderOCR.read(image, box: card).lowercased()
        XCTAssertTrue(cardRead.contains("opening") && cardRead.contains("your name"), "the card's box reads \(cardRead.debugDescription)")
        XCTAssertEqual(scriptWords.filter { cardRead.contains($0) }, [], "script words in the card's box: \(cardRead.debugDescription)")
        // The panel's lines near the reading line (the brightest), a few lines high.
        let band = Int(scene.fontSize * 5)
        let y = max(panel.y, Int(scene.geometry.readingLineY) - band / 2)
        let textRead = try RenderOCR.read(image, box: (panel.x, y, panel.width, min(band, panel.y + panel.height - y))).lowercased()
        XCTAssertGreaterThanOrEqual(scriptWords.filter { textRead.contains($0) }.count, 3, "the text panel reads \(textRead.debugDescription)")
        XCTAssertFalse(textRead.contains("opening") || textRead.contains("your name"), "the card's words in the text: \(textRead.debugDescription)")
    }
}
