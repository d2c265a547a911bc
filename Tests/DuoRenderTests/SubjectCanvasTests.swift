import CCairo
import DuoCore
@testable import DuoRender
import XCTest

final class SubjectCanvasTests: XCTestCase {
    /// A scene laid out anew (the subject window taking its monitor's size while the script is paused)
    /// is always drawn. The canvas used to know scenes by their address: a new scene made right after
    /// the old one was freed often got it, compared equal, and the view stayed laid out for the old size
    /// (seen on Wayland: the teleprompter drawn for a 200-pixel window on a 1280-pixel monitor).
    func testEveryNewSceneIsDrawnEvenAtItsPredecessorsAddress() throws {
        let parsed = try ScriptParser.parse(bytes: Array("# Take\n\nWords for the subject to read.\n".utf8),
                                            format: .markdown, name: "take.md")
        let viewModel = SubjectViewModel.whitelisted(from: PrompterSessionState(script: parsed))
        let overlay = SubjectOverlay(width: 200, height: 200, format: .argb)
        let canvas = SubjectCanvas(overlay: overlay, now: { 0 })
        let image = CairoImage(width: 1280, height: 720)
        for i in 0..<60 {
            let (width, height) = i % 2 == 0 ? (1280, 720) : (200, 200)
            // The overlay builds scenes in order on its own queue; a resize waits for the builds before it.
            func settle() { overlay.resize(width: width, height: height) }
            settle()
            overlay.update(viewModel)
            settle()
            XCTAssertEqual(overlay.currentScene?.width, width)
            XCTAssertEqual(canvas.tick(), .all, "round \(i): the scene for \(width)x\(height) was never drawn")
            image.draw { canvas.draw(cr: $0) }
            XCTAssertEqual(canvas.tick(), .none, "round \(i): nothing changed since it was drawn")
            // Two more scenes before the window's next tick (publishes come faster than a loaded
            // machine's frames): the drawn one is freed, and the last may be made at its address.
            overlay.update(viewModel)
            overlay.update(viewModel)
            settle()
            XCTAssertEqual(canvas.tick(), .all, "round \(i): a new scene compared equal to the one drawn")
            image.draw { canvas.draw(cr: $0) }
        }
    }

    /// After the window grows, GTK may clip the next paint to the newly exposed part: the rest still shows
    /// the scene drawn for the old size (seen on X11: a 200-pixel teleprompter in the corner of a 1080p
    /// monitor, with bands of black, until the text next moved). Until one paint has covered the whole
    /// window with its scene, every tick asks for all of it.
    func testAPaintClippedToPartOfTheWindowIsFollowedByAWholeOne() throws {
        let parsed = try ScriptParser.parse(bytes: Array("# Take\n\nWords for the subject to read.\n".utf8),
                                            format: .markdown, name: "take.md")
        let viewModel = SubjectViewModel.whitelisted(from: PrompterSessionState(script: parsed))
        let overlay = SubjectOverlay(width: 200, height: 200, format: .argb)
        let canvas = SubjectCanvas(overlay: overlay, now: { 0 })
        overlay.update(viewModel)
        overlay.resize(width: 200, height: 200)
        let small = CairoImage(width: 200, height: 200)
        small.draw { canvas.draw(cr: $0, window: (200, 200)) }
        XCTAssertEqual(canvas.tick(window: (200, 200)), .none, "drawn whole")
        // The window grows; the scene for its new size arrives; GTK exposes only the new strip on the right.
        overlay.resize(width: 1280, height: 720)
        overlay.update(viewModel)
        overlay.resize(width: 1280, height: 720)
        XCTAssertEqual(canvas.tick(window: (1280, 720)), .all)
        let big = CairoImage(width: 1280, height: 720)
        big.draw { cr in
            cairo_rectangle(cr, 200, 0, 1080, 720)
            cairo_clip(cr)
            canvas.draw(cr: cr, window: (1280, 720))
        }
        XCTAssertEqual(canvas.tick(window: (1280, 720)), .all, "a paint clipped to the new strip is not the whole window")
        big.draw { canvas.draw(cr: $0, window: (1280, 720)) }
        XCTAssertEqual(canvas.tick(window: (1280, 720)), .none, "drawn whole at its size")
        XCTAssertEqual(canvas.tick(window: (1920, 1080)), .all, "the window changed size again")
    }
}
