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
}
