import DuoCore
import Foundation
import XCTest
@testable import DuoRender

/// The talent's clock (issue 37, `--talent-clock`) drawn by `render-subject` at 1280x720 and 3840x2160:
/// beside the text across from the recording light, never over the text, the light or the cue; past the
/// shot's `length:` its figures turn the warning colour and read "+0:15"; off by default.
final class TalentClockRenderTests: XCTestCase {
    static let shots: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("duo-talent-shots-\(getpid()).md").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("# S\n\n## 01 — Opening\nLook into the lens.\nlength: 20s\n".utf8))
        return path
    }()

    private func apart(_ a: (x: Int, y: Int, width: Int, height: Int), _ b: (x: Int, y: Int, width: Int, height: Int)) -> Bool {
        a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
    }

    /// Pixels of the warning colour (a strong red-orange) inside `box`.
    private func warningPixels(_ image: CairoImage, _ box: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        var n = 0
        for y in box.y..<(box.y + box.height) {
            let row = image.pixels + y * image.stride
            for x in box.x..<(box.x + box.width) where row[x * 4 + 2] > 200 && row[x * 4 + 1] < 120 && row[x * 4] < 110 { n += 1 }
        }
        return n
    }

    func testTheClockSitsBesideTheTextAndTurnsRedPastTheTarget() throws {
        for (w, h) in [(1280, 720), (3840, 2160)] {
            let base = ["--script", PrompterLayoutTests.script, "--size", "\(w)x\(h)", "--recording", "--shots", Self.shots,
                        "--clock-time", "14:32", "--cue", "wrap"]
            // 35 s into the take of a 20 s shot: over by 15 s.
            let (scene, image, time) = try PrompterLayoutTests.scene(base + ["--at", "35", "--talent-clock", "all"])
            let label = "\(w)x\(h)"
            let clock = try XCTUnwrap(scene.talentClockRectangle(at: time), label)
            let panel = try XCTUnwrap(scene.textPanelRectangle(at: time), label)
            let light = try XCTUnwrap(scene.recordingLightRectangle(at: time), label)
            let cue = try XCTUnwrap(scene.cueRectangle(at: time), label)
            XCTAssertTrue(clock.x >= 0 && clock.y >= 0 && clock.x + clock.width <= w && clock.y + clock.height <= h, "\(label): \(clock)")
            XCTAssertTrue(apart(clock, panel), "\(label): the clock \(clock) is over the text \(panel)")
            XCTAssertTrue(apart(clock, light), "\(label): the clock \(clock) is over the recording light \(light)")
            XCTAssertTrue(apart(clock, cue), "\(label): the clock \(clock) is over the cue \(cue)")
            if let view = scene.selfViewRectangle { XCTAssertTrue(apart(clock, view), "\(label): the clock is over the self-view") }
            // Level with the reading line, on the other side of the text from the light.
            let readingY = Int(scene.geometry.readingLineY)
            let near = Int(scene.fontSize)
            XCTAssertTrue(clock.y <= readingY + near && clock.y + clock.height >= readingY - near,
                          "\(label): clock \(clock), reading line at \(readingY)")
            XCTAssertTrue((clock.x < panel.x) != (light.x < panel.x), "\(label): clock \(clock) and light \(light) on the same side")
            XCTAssertGreaterThan(warningPixels(image, clock), 20 * (w / 1280), "\(label): over the target shows in the warning colour")
            let read = try RenderOCR.read(image, box: clock)
            XCTAssertTrue(read.contains("14:32") && read.contains("0:35") && read.contains("+0:15"), "\(label): tesseract read \(read.debugDescription)")

            // Off by default: today's subject view, no clock at all.
            let (plain, plainTime, _) = try RenderSubjectCommand.scene(RenderSubjectCommand.parse(base + ["--at", "35", "--out", "/tmp/unused.png"]))
            XCTAssertNil(plain.talentClockRectangle(at: plainTime), label)
            // 10 s in: 0:10 to go, nothing in the warning colour (one size is enough).
            guard w == 1280 else { continue }
            let (early, earlyImage, earlyTime) = try PrompterLayoutTests.scene(base + ["--at", "10", "--talent-clock", "target"])
            let box = try XCTUnwrap(early.talentClockRectangle(at: earlyTime), label)
            XCTAssertEqual(warningPixels(earlyImage, box), 0, "\(label): under the target is not a warning")
        }
    }
}

/// The live view's wall clock: anchored to the graph's time from the system's clock (issue 37).
final class TalentClockPresenterTests: XCTestCase {
    func testTheWallClockIsAnchoredToTheGraphsTime() async throws {
        var setup = SubjectSetup()
        setup.accessory = .countdown
        setup.talentClock = try TalentClock.parse("clock")
        let presenter = try SubjectPresenter(setup, width: 1280, height: 720)
        // 12:00:00 UTC, at pipeline time 5 s: 65 s later the clock says a minute on, in local time.
        let noon = Date(timeIntervalSince1970: 1_764_676_800)
        await presenter.anchorWallClock(at: 5 * nanosecondsPerSecond, now: noon)
        let local = Int(noon.timeIntervalSince1970) + TimeZone.current.secondsFromGMT(for: noon) + 65
        let expected = String(format: "%02d:%02d", local / 3600 % 24, local / 60 % 60)
        let rows = await SubjectViewModel.whitelisted(from: presenter.state).talentClockRows(at: 70 * nanosecondsPerSecond)
        XCTAssertEqual(rows.map(\.text), [expected])
        await presenter.settle()
        let box = await presenter.talentClockRectangle(at: 70 * nanosecondsPerSecond)
        XCTAssertNotNil(box, "the live view draws it")
        // Without --talent-clock nothing is anchored and nothing drawn.
        let plain = try SubjectPresenter({ var s = SubjectSetup(); s.accessory = .countdown; return s }(), width: 1280, height: 720)
        await plain.anchorWallClock(at: 0, now: noon)
        await plain.settle()
        let none = await plain.talentClockRectangle(at: 0)
        XCTAssertNil(none)
    }
}
