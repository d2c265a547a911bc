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

/// Issue 37: the confidence strip is the subject view's own lines around the reading line, with the
/// script's private notes inline before the block they are on, never in a subject line.
final class ConfidenceStripTests: XCTestCase {
    func testTheStripHoldsTheSubjectsLinesAndTheNotesWhereTheyFall() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-strip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("script.md").path
        try """
            # Opening

            Morning boats leave early.

            [[note: cue the drone]]

            Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike.
            """.write(toFile: path, atomically: true, encoding: .utf8)
        var setup = SubjectSetup()
        setup.scriptPath = path
        setup.wordsPerMinute = 120   // 2 words a second
        for (w, h) in [(640, 360), (1280, 720)] {
            let presenter = try SubjectPresenter(setup, width: w, height: h, format: .argb)
            await presenter.settle()
            let start = await presenter.status(at: 0).confidence
            XCTAssertEqual(start.first, ConfidenceLine(text: "Opening", kind: .subject(reading: true)), "\(w)x\(h): \(start)")
            let texts = start.map(\.text)
            let note = try XCTUnwrap(texts.firstIndex(of: "cue the drone"), "\(start)")
            XCTAssertEqual(start[note].kind, .privateNote)
            XCTAssertTrue(texts[..<note].joined(separator: " ").hasSuffix("early."), "after the first paragraph: \(texts)")
            XCTAssertTrue(texts[note + 1].hasPrefix("Alpha"), "before the paragraph it stands before: \(texts)")
            XCTAssertEqual(start.filter(\.isReading).count, 1)
            // Joined, the subject's lines are the script's words in order: no word lost or added.
            let subject = start.filter { $0.kind != .privateNote }.map(\.text).joined(separator: " ")
            XCTAssertTrue(subject.hasPrefix("Opening Morning boats leave early. Alpha"), subject)
            XCTAssertFalse(subject.contains("drone"), "a note is never a subject line")

            // Scrolling: at 5 s (word 10, in the second paragraph), the reading line moved down.
            await presenter.takeStarted(at: 0)
            await presenter.settle()
            let later = await presenter.status(at: 5_000_000_000).confidence
            let reading = try XCTUnwrap(later.first(where: \.isReading), "\(later)")
            XCTAssertNotEqual(reading.text, "Opening", "\(later)")
            let paragraph = "Alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike."
            XCTAssertTrue(paragraph.contains(reading.text), "a line of the second paragraph: \(reading.text)")
        }
    }
}
