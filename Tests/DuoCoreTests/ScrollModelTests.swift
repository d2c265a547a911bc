import XCTest
@testable import DuoCore

final class ScrollModelTests: XCTestCase {
    private func seconds(_ s: Double) -> Int64 { Int64((s * 1e9).rounded()) }

    func testPositionIsWordsPerMinuteTimesTime() {
        for wpm in [100.0, 160.0, 220.0] {
            var model = ScrollModel(length: 10_000, speed: .wordsPerMinute(wpm))
            model.start(at: 0)
            for t in [0.0, 1.0, 7.5, 60.0, 123.4] {
                XCTAssertEqual(model.position(at: seconds(t)), wpm / 60 * t, accuracy: 1e-6, "wpm \(wpm) t \(t)")
            }
        }
    }

    func testPositionDoesNotDependOnFrameRate() {
        var model = ScrollModel(length: 10_000, cues: [40], speed: .wordsPerMinute(150))
        model.start(at: seconds(2))
        // The same instants sampled from 24, 25, 30, 50 and 60 fps frame clocks agree exactly.
        for fps in [24.0, 25.0, 30.0, 50.0, 60.0] {
            let frame = 1e9 / fps
            var last = -1.0
            for n in 0..<Int(fps * 30) {
                let p = model.position(at: Int64((Double(n) * frame).rounded()))
                XCTAssertGreaterThanOrEqual(p, last)
                last = p
            }
            XCTAssertEqual(model.position(at: seconds(12)), 25, accuracy: 1e-9)
        }
    }

    func testLinesPerMinuteForScriptsWithoutSpaces() {
        var model = ScrollModel(length: 100, speed: .defaultFor(separatesWords: false))
        model.start(at: 0)
        XCTAssertEqual(model.position(at: seconds(30)), 6, accuracy: 1e-9) // 12 lines/min
        XCTAssertEqual(ScrollSpeed.defaultFor(separatesWords: true), .wordsPerMinute(160))
    }

    func testNotStartedStaysAtZero() {
        let model = ScrollModel(length: 100, speed: .wordsPerMinute(120))
        XCTAssertEqual(model.position(at: seconds(100)), 0)
    }

    func testPauseAndResume() {
        var model = ScrollModel(length: 1000, speed: .wordsPerMinute(120)) // 2 words/s
        model.start(at: 0)
        model.pause(at: seconds(5))
        XCTAssertEqual(model.position(at: seconds(5)), 10, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: seconds(50)), 10, accuracy: 1e-9)
        model.resume(at: seconds(60))
        XCTAssertEqual(model.position(at: seconds(62)), 14, accuracy: 1e-9)
        model.togglePause(at: seconds(63))
        XCTAssertTrue(model.isPaused)
        XCTAssertEqual(model.position(at: seconds(70)), 16, accuracy: 1e-9)
    }

    func testReverseScrollsBackAndClampsAtStart() {
        var model = ScrollModel(length: 1000, speed: .wordsPerMinute(120))
        model.start(at: 0)
        model.reverse(at: seconds(10)) // at 20
        XCTAssertEqual(model.position(at: seconds(15)), 10, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: seconds(40)), 0)
        model.reverse(at: seconds(12)) // forward again from 16
        XCTAssertEqual(model.position(at: seconds(13)), 18, accuracy: 1e-9)
    }

    func testPauseCueStopsScrollingUntilResume() {
        var model = ScrollModel(length: 100, cues: [10, 30], speed: .wordsPerMinute(60)) // 1 word/s
        model.start(at: 0)
        XCTAssertEqual(model.position(at: seconds(9)), 9, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: seconds(25)), 10)
        XCTAssertTrue(model.isHeldAtCue(at: seconds(25)))
        model.resume(at: seconds(25))
        XCTAssertFalse(model.isHeldAtCue(at: seconds(26)))
        XCTAssertEqual(model.position(at: seconds(30)), 15, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: seconds(100)), 30) // the next cue holds too
        model.resume(at: seconds(100))
        XCTAssertEqual(model.position(at: seconds(1000)), 100) // clamped at the end
    }

    func testReversingOverACueArmsItAgain() {
        var model = ScrollModel(length: 100, cues: [10], speed: .wordsPerMinute(60))
        model.start(at: 0)
        model.resume(at: seconds(10)) // release the cue at 10
        model.reverse(at: seconds(15)) // at 15, going back
        model.reverse(at: seconds(20)) // at 10... forward from 10
        XCTAssertEqual(model.position(at: seconds(20)), 10, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: seconds(30)), 10, accuracy: 1e-9, "the cue holds again")
    }

    func testSpeedChangeAndPresetsKeepPositionContinuous() throws {
        var model = ScrollModel(length: 1000, speed: .wordsPerMinute(120))
        model.start(at: 0)
        let preset = try XCTUnwrap(ScrollSpeed.preset(5, separatesWords: true))
        XCTAssertEqual(preset, .wordsPerMinute(220))
        model.setSpeed(preset, at: seconds(10)) // at 20
        XCTAssertEqual(model.position(at: seconds(10)), 20, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: seconds(16)), 20 + 22, accuracy: 1e-9)
        XCTAssertNil(ScrollSpeed.preset(0, separatesWords: true))
        XCTAssertEqual(ScrollSpeed.preset(1, separatesWords: false), .linesPerMinute(6))
    }

    func testJumpToMarkerReleasesEarlierCues() {
        var model = ScrollModel(length: 100, cues: [10, 50], speed: .wordsPerMinute(60))
        model.start(at: 0)
        model.jump(to: 40, at: seconds(1))
        XCTAssertEqual(model.position(at: seconds(6)), 45, accuracy: 1e-9)
        XCTAssertEqual(model.position(at: seconds(60)), 50)
    }

    /// The sidecar's markers passed: each heading the position moved beyond during the take, once, at the
    /// time into the take it first did (to within the 20 ms sampling), at several speeds and starting
    /// places; one already behind at the start, or not reached by the end, does not count.
    func testMarkersPassedAreTheCrossingsDuringTheTake() {
        let markers: [(position: Double, title: String)] = [(5, "Before"), (40, "Intro"), (90, "Middle"), (400, "End")]
        for wpm in [100.0, 160.0, 230.0] {
            for startAt in [0.0, 10.0, 39.5] {
                let rate = wpm / 60
                var model = ScrollModel(length: 1000, speed: .wordsPerMinute(wpm))
                model.jump(to: startAt, at: 0)
                model.start(at: seconds(2))
                let take = (start: seconds(1.5), end: seconds(2 + 200 / rate))
                let passed = model.markersPassed(markers, from: take.start, to: take.end)
                let expected = startAt < 5 ? ["Before", "Intro", "Middle"] : ["Intro", "Middle"]
                XCTAssertEqual(passed.map(\.title), expected, "wpm \(wpm) from \(startAt)")
                for (marker, seen) in zip(markers.filter { expected.contains($0.title) }, passed) {
                    let crossing = 0.5 + (marker.position - startAt) / rate
                    XCTAssertEqual(seen.atSeconds, crossing, accuracy: 0.021, "\(marker.title) at \(wpm) wpm from \(startAt)")
                }
                XCTAssertEqual(model.markersPassed(markers, from: take.end, to: take.end), [], "an empty span passes none")
            }
        }
    }
}

final class MarkerTests: XCTestCase {
    func testHeadingsAreMarkersToJumpBetween() {
        let script = ScriptParser.parse(text: "# One\nalpha beta\n\n## Two\ngamma delta epsilon\n\n## Three\nzeta", format: .markdown)
        let markers = script.subject.markerWordPositions
        XCTAssertEqual(markers, [0, 3, 7])
        var model = ScrollModel(length: Double(script.subject.wordCount), speed: .wordsPerMinute(60))
        model.start(at: 0)
        XCTAssertTrue(model.jumpToNextMarker(markers, at: 1_000_000_000)) // from 1 to 3
        XCTAssertEqual(model.position(at: 1_000_000_000), 3)
        XCTAssertTrue(model.jumpToNextMarker(markers, at: 1_000_000_000))
        XCTAssertEqual(model.position(at: 1_000_000_000), 7)
        XCTAssertFalse(model.jumpToNextMarker(markers, at: 1_000_000_000))
        XCTAssertTrue(model.jumpToPreviousMarker(markers, at: 1_500_000_000)) // 7.5 → 3 (within a unit of 7)
        XCTAssertEqual(model.position(at: 1_500_000_000), 3)
    }
}

final class TimeLeftTests: XCTestCase {
    func testTimeLeftFollowsPositionAndSpeed() {
        var model = ScrollModel(length: 320, speed: .wordsPerMinute(160))
        XCTAssertEqual(model.secondsLeft(at: 0), 120, accuracy: 1e-9)
        model.start(at: 0)
        XCTAssertEqual(model.secondsLeft(at: 60_000_000_000), 60, accuracy: 1e-9)
        model.setSpeed(.wordsPerMinute(80), at: 60_000_000_000)
        XCTAssertEqual(model.secondsLeft(at: 60_000_000_000), 120, accuracy: 1e-9)
    }
}
