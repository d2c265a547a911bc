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

final class SpeedMemoryTests: XCTestCase {
    private var talk: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Assets/scripts/talk.md").path
    }

    /// A script comes back at the speed it was last read at, unless the user asks for one.
    func testSpeedIsRememberedPerScript() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-speeds-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        var setup = SubjectSetup()
        setup.scriptPath = talk
        setup.speedMemory = SpeedMemory(file: dir.appendingPathComponent("speeds.json").path)

        let first = try SubjectPresenter(setup, width: 320, height: 180)
        let initial = await first.status(at: 0).speed
        XCTAssertEqual(initial, "160 wpm")
        await first.stepSpeed(+1, at: 0)
        let faster = await first.status(at: 0).speed
        XCTAssertEqual(faster, "190 wpm")
        let warning = await first.lastWarning
        XCTAssertNil(warning)

        let second = try SubjectPresenter(setup, width: 320, height: 180)
        let recalled = await second.status(at: 0).speed
        XCTAssertEqual(recalled, "190 wpm", "the script comes back at its last speed")

        setup.wordsPerMinute = 120
        let explicit = try SubjectPresenter(setup, width: 320, height: 180)
        let asked = await explicit.status(at: 0).speed
        XCTAssertEqual(asked, "120 wpm", "--wpm wins over the remembered speed")
    }

    func testADamagedMemoryFileRemembersNothing() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("duo-speeds-\(UUID().uuidString).json")
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        try Data("not json".utf8).write(to: file)
        let memory = SpeedMemory(file: file.path)
        XCTAssertNil(memory.speed(for: talk))
        XCTAssertNil(memory.remember(.wordsPerMinute(200), for: talk), "a damaged file is replaced")
        XCTAssertEqual(memory.speed(for: talk), .wordsPerMinute(200))
    }
}
