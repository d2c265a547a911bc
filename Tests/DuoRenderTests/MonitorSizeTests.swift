import DuoCore
import DuoRender
import Foundation
import XCTest

/// The subject view laid out for the monitor it is on: `--lines N` fills the monitor's height whatever its
/// size or shape, and moving to another monitor keeps the reading place.
final class MonitorSizeTests: XCTestCase {
    private var talk: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Assets/scripts/talk.md").path
    }

    func testLinesFillTheMonitorAtEverySizeAndShape() throws {
        let script = try ScriptParser.load(path: talk)
        for (width, height) in [(1280, 720), (1920, 1080), (3840, 2160), (1080, 1920)] {
            for lines in [3, 5, 9] {
                let state = PrompterSessionState(accessory: .teleprompter, script: script, style: PromptStyle(lines: lines), scriptPath: talk)
                let scene = SubjectScene(viewModel: .whitelisted(from: state), width: width, height: height, format: .argb)
                let panel = scene.geometry.panel, content = scene.geometry.content
                let lineHeight = try XCTUnwrap(scene.strip?.layout.lineHeight)
                let shown = Int((panel.height / lineHeight).rounded(.down))
                XCTAssertLessThanOrEqual(panel.height, content.height, "\(width)x\(height), \(lines) lines: the panel fits")
                if scene.fontSize < 400 {  // the largest text size; a huge monitor then has room to spare
                    XCTAssertGreaterThan(panel.height, 0.8 * content.height, "\(width)x\(height), \(lines) lines: the text fills the monitor")
                }
                XCTAssertTrue((lines...lines + 1).contains(shown), "\(width)x\(height): \(shown) lines shown for --lines \(lines)")
            }
        }
    }

    func testMovingToAnotherMonitorKeepsTheReadingPlace() async throws {
        var setup = SubjectSetup()
        setup.scriptPath = talk
        setup.wordsPerMinute = 120
        let presenter = try SubjectPresenter(setup, width: 1280, height: 720, format: .argb)
        let second: Int64 = 1_000_000_000
        await presenter.takeStarted(at: 0)
        let before = await presenter.status(at: 7 * second)
        await presenter.resize(width: 3840, height: 2160, at: 7 * second)
        let after = await presenter.status(at: 7 * second)
        XCTAssertEqual(after.position, before.position, accuracy: 0.01, "the same word")
        XCTAssertFalse(after.paused, "still scrolling")
        let later = await presenter.status(at: 9 * second)
        XCTAssertEqual(later.position, before.position + 4, accuracy: 0.05, "at the same speed")
    }
}
