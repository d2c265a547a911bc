import DuoCore
import XCTest

/// The take schedule's decisions, with time as a parameter: countdowns, numbering, refusals, the run's
/// end, segments of a take split by camera.
final class TakeScheduleTests: XCTestCase {
    private let s: Int64 = 1_000_000_000

    func testACountdownAttachesEarlyAndStartsExactlyAtItsEnd() throws {
        var t = TakeSchedule(countdown: try Countdown(seconds: 3))
        XCTAssertEqual(t.record(at: 10 * s), .countdown(take: 1, seconds: 3, attachAt: 13 * s - 150_000_000))
        XCTAssertEqual(t.displayedCountdown(at: 10 * s), 3)
        XCTAssertEqual(t.displayedCountdown(at: 12 * s + 1), 1)
        XCTAssertEqual(t.due(at: 12 * s), .nothing)
        XCTAssertEqual(t.due(at: 13 * s - 100_000_000), .begin(take: 1, at: 13 * s, endsRun: false))
        XCTAssertNil(t.pending)
        t.began(take: 1, at: 13 * s, endsRun: false)
        XCTAssertEqual(t.current, .init(take: 1, start: 13 * s))
        XCTAssertEqual(t.record(at: 14 * s), .refuse("a take is already recording or counting down; send stop first"))
        XCTAssertEqual(t.stop(), .stop(take: 1))
        t.ended(take: 1)
        XCTAssertEqual(t.record(at: 20 * s), .countdown(take: 2, seconds: 3, attachAt: 23 * s - 150_000_000), "numbered once")
    }

    func testStopAndCancelDuringTheCountdownRecordNothing() throws {
        var t = TakeSchedule(countdown: try Countdown(seconds: 3))
        _ = t.record(at: 0)
        XCTAssertEqual(t.stop(), .cancelCountdown(take: 1))
        XCTAssertEqual(t.due(at: 5 * s), .nothing)
        XCTAssertEqual(t.stop(), .refuse("nothing is recording"))
        XCTAssertEqual(t.cancel(), .refuse("no countdown is running"))
        _ = t.toggle(at: 6 * s)
        XCTAssertEqual(t.toggle(at: 7 * s), .cancelCountdown(take: 1), "toggle cancels a countdown; the number is reused")
    }

    func testAZeroCountdownBeginsAtOnceAndAFailedBeginKeepsTheNumber() throws {
        var t = TakeSchedule(countdown: try Countdown(seconds: 0))
        XCTAssertEqual(t.record(at: 5 * s), .begin(take: 1, at: 5 * s, endsRun: false))
        XCTAssertNil(t.current, "not recording until the media says it began")
        XCTAssertEqual(t.record(at: 6 * s), .begin(take: 1, at: 6 * s, endsRun: false), "a take that could not begin keeps its number")
    }

    func testDurationCountsFromTheRecordTakeOrFromTheStart() throws {
        var recording = TakeSchedule(countdown: try Countdown(seconds: 3), duration: 2)
        recording.runStarted(at: 1 * s, recording: true)
        XCTAssertNil(recording.runEnd)
        _ = recording.record(at: 1 * s, endsRun: true)
        XCTAssertEqual(recording.due(at: 4 * s), .begin(take: 1, at: 4 * s, endsRun: true))
        recording.began(take: 1, at: 4 * s, endsRun: true)
        XCTAssertFalse(recording.runIsOver(at: 5 * s))
        XCTAssertTrue(recording.runIsOver(at: 6 * s), "two seconds of take after the countdown")

        var plain = TakeSchedule(countdown: try Countdown(seconds: 3), duration: 2)
        plain.runStarted(at: 1 * s, recording: false)
        XCTAssertTrue(plain.runIsOver(at: 3 * s))
        var endless = TakeSchedule(countdown: try Countdown(seconds: 3), duration: 1e300)
        endless.runStarted(at: 0, recording: false)
        XCTAssertFalse(endless.runIsOver(at: Int64.max - 1), "a huge duration never traps")
    }

    func testATakeSplitByCameraKeepsOneIdAcrossItsSegments() throws {
        var t = TakeSchedule(countdown: try Countdown(seconds: 0))
        _ = t.record(at: 0)
        t.began(take: 1, at: 0, endsRun: false)
        XCTAssertEqual(t.segment(forFile: "/v/duo-take01.mkv").id, "duo-take01")
        t.swapStarting(individual: true, segmentPolicy: true)
        XCTAssertEqual(t.stop(), .stop(take: 1))
        t.ended(take: 1)
        XCTAssertNil(t.finishedSegments, "while splitting, the first segment's sidecar lists nothing")
        let second = t.segment(forFile: "/v/duo-take02.mkv")
        XCTAssertEqual(second.id, "duo-take01")
        XCTAssertEqual(second.number, 2)
        t.swapDone()
        XCTAssertEqual(t.finishedSegments, ["duo-take01.mkv", "duo-take02.mkv"])
        t.swapStarting(individual: false, segmentPolicy: true)
        XCTAssertFalse(t.splitting, "virtual mode never splits")
    }
}
