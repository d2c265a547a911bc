import DuoCore
import XCTest

/// The talent's clock (issue 37): what `--talent-clock` takes, and what each row says at a moment.
final class TalentClockTests: XCTestCase {
    func testTheOptionTakesOffAllOneOrAListInItsOrder() throws {
        XCTAssertTrue(try TalentClock.parse("off").isOff)
        XCTAssertEqual(try TalentClock.parse("all").items, [.clock, .countUp, .target])
        XCTAssertEqual(try TalentClock.parse("target").items, [.target])
        XCTAssertEqual(try TalentClock.parse("target, clock").items, [.target, .clock])
        XCTAssertEqual(try TalentClock.parse("count-up,target").description, "count-up,target")
        for (bad, says) in [("clok", "did you mean clock?"), ("countup", "did you mean count-up?"), ("clock,clock", "names clock twice"),
                            ("clock,,target", "unknown --talent-clock ''"), ("", "unknown --talent-clock")] {
            XCTAssertThrowsError(try TalentClock.parse(bad), bad) { error in
                let message = (error as? DuoError)?.message ?? ""
                XCTAssertTrue(message.contains(says), "\(bad): \(message)")
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    func testEachRowAtAMoment() throws {
        let all = try TalentClock.parse("all")
        // Standby: the time of day, the whole length to go; no count-up before the take.
        XCTAssertEqual(all.rows(wallSeconds: 14 * 3600 + 32 * 60 + 59, elapsed: nil, length: 20).map(\.text), ["14:32", "-0:20"])
        XCTAssertEqual(all.rows(wallSeconds: 9 * 3600 + 5 * 60, elapsed: 7, length: 90).map(\.text), ["09:05", "0:07", "-1:23"])
        let target = TalentClock(items: [.target])
        XCTAssertEqual(target.rows(wallSeconds: nil, elapsed: 20, length: 20).map(\.text), ["0:00"])
        let over = target.rows(wallSeconds: nil, elapsed: 32, length: 20)
        XCTAssertEqual(over.map(\.text), ["+0:12"])
        XCTAssertEqual(over.map(\.over), [true])
        XCTAssertEqual(target.rows(wallSeconds: nil, elapsed: 19, length: 20).map(\.over), [false])
        // A fractional length counts up to the next whole second; no length, no target row.
        XCTAssertEqual(target.rows(wallSeconds: nil, elapsed: 10, length: 12.5).map(\.text), ["-0:03"])
        XCTAssertEqual(target.rows(wallSeconds: nil, elapsed: 10, length: nil), [])
        // Past midnight and past an hour.
        XCTAssertEqual(TalentClock(items: [.clock]).rows(wallSeconds: 86_400 + 61, elapsed: nil, length: nil).map(\.text), ["00:01"])
        XCTAssertEqual(TalentClock(items: [.countUp]).rows(wallSeconds: nil, elapsed: 3725, length: nil).map(\.text), ["1:02:05"])
    }

    /// The subject's model carries the clock for the views with text or a countdown, never for `off`;
    /// the shot's `length:` reaches it from the shot list.
    func testTheViewModelEvaluatesTheClockAtItsTime() throws {
        let list = try ShotList.parse("## 01 — Opening\nSay hello.\nlength: 20s\n", name: "shots.md")
        var session = PrompterSessionState(accessory: .countdown)
        session.shot = list.shots[0].subject
        XCTAssertEqual(session.shot?.length, 20)
        session.talentClock = try TalentClock.parse("clock,target")
        session.localTimeAtZero = (10 * 3600) * nanosecondsPerSecond
        session.recordingStartedAt = 2 * nanosecondsPerSecond
        let vm = SubjectViewModel.whitelisted(from: session)
        XCTAssertEqual(vm.talentClockRows(at: 65 * nanosecondsPerSecond).map(\.text), ["10:01", "+0:43"])
        session.accessory = .off
        XCTAssertEqual(SubjectViewModel.whitelisted(from: session).talentClockRows(at: 65 * nanosecondsPerSecond), [])
    }
}
