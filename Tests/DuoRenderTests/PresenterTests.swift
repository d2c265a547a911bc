import DuoCore
import DuoRender
import Foundation
import XCTest

final class PresenterTests: XCTestCase {
    private var talk: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Assets/scripts/talk.md").path
    }

    /// The sidecar's markers: headings the reading position reached during the take, with when.
    func testMarkersPassedDuringATake() async throws {
        var setup = SubjectSetup()
        setup.scriptPath = talk
        setup.wordsPerMinute = 120  // 2 words a second
        let presenter = try SubjectPresenter(setup, width: 640, height: 360)
        let second: Int64 = 1_000_000_000
        let start = 5 * second
        await presenter.takeStarted(at: start)
        let script = try ScriptParser.load(path: talk).subject
        let headingWords = script.markerWordPositions
        XCTAssertEqual(headingWords.count, 3)

        let passed = await presenter.markersPassed(from: start, to: start + 30 * second)
        // [PAUSE] after the second section holds the scroll, so the third heading is never reached.
        XCTAssertEqual(passed.map(\.title), ["Welcome", "Why two screens"])
        XCTAssertEqual(passed[0].atSeconds, 0, accuracy: 0.03)
        XCTAssertEqual(passed[1].atSeconds, headingWords[1] / 2, accuracy: 0.05)

        // A take that ends before the second heading only passed the first.
        let short = await presenter.markersPassed(from: start, to: start + Int64(headingWords[1] / 2 * 1e9) - second)
        XCTAssertEqual(short.map(\.title), ["Welcome"])
    }
}
