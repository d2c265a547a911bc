import DuoCore
import Foundation
import XCTest

/// Issue 37's pure parts: a script position's file line (notes, headings and pauses in between), where a
/// shot's takes start the teleprompter (ShotWalk.rewind), and the session journal (written, read back,
/// a damaged one refused in one line and left as it was).
final class SessionJournalTests: XCTestCase {
    func testAWordsFileLineCountsNotesHeadingsAndPausesInBetween() {
        let text = """
            # Intro

            One two three
            four five.
            [[note: PRIVATE a note on its own line]]
            <!-- a comment
            over two lines -->
            Six seven [PAUSE] eight.

            ## Second *part*
            Nine [[note: inline]] ten.
            """
        let parsed = ScriptParser.parse(text: text, format: .markdown)
        XCTAssertEqual(parsed.subject.words, ["Intro", "One", "two", "three", "four", "five.", "Six", "seven", "eight.",
                                              "Second", "part", "Nine", "ten."])
        XCTAssertEqual((0..<13).map { parsed.line(atWord: $0) }, [1, 3, 3, 3, 4, 4, 8, 8, 8, 10, 10, 11, 11])
        XCTAssertEqual(parsed.line(atWord: 99), 11)
        // The same words in plain text: lines counted the same way.
        let plain = ScriptParser.parse(text: "a b\n\n[[note: x\ny]]\nc\n", format: .plainText)
        XCTAssertEqual((0..<3).map { plain.line(atWord: $0) }, [1, 1, 5])
    }

    func testAShotsTakesStartAtItsHeadingElseWhereItsFirstTakeBegan() throws {
        let list = try ShotList.parse("## 01 — One\nSay it.\n\n## 02 — Two\nSay more.\nheading: ## The  END\n", name: "shots.md")
        XCTAssertEqual(list.shots.map(\.heading), [nil, "The  END"])
        var walk = ShotWalk(list: list)
        let headings: [(title: String, position: Double)] = [("Start", 0), ("Middle", 40), ("The end", 80)]
        func place(_ position: Double, _ script: String = "a.md") -> ScriptPlace {
            ScriptPlace(script: script, position: position, length: 100, unitsAreWords: true, line: 1)
        }
        XCTAssertEqual(walk.rewind(script: "a.md", headings: headings), .stay, "a shot's first take starts where the script is")
        _ = walk.takeBegan(1, place: place(12))
        _ = walk.takeBegan(2, place: place(30))
        XCTAssertEqual(walk.rewind(script: "a.md", headings: headings), .to(12), "where the shot's first take began")
        XCTAssertEqual(walk.rewind(script: "b.md", headings: headings), .stay, "another script: no take of the shot began in it")
        _ = walk.step(forward: true)
        XCTAssertEqual(walk.rewind(script: "a.md", headings: headings), .to(80), "heading: (spaces and case do not matter)")
        XCTAssertEqual(walk.rewind(script: "a.md", headings: [("Start", 0)]), .headingMissing("The  END"))
        XCTAssertThrowsError(try ShotList.parse("## 01 — One\nheading: ##\n", name: "s.md")) { error in
            XCTAssertEqual((error as? DuoError)?.message, "s.md:2: heading: needs a heading of the script, such as heading: The problem")
        }
    }

    func testTheJournalIsReadBackAndADamagedOneIsRefusedInOneLineAndKept() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let path = SessionJournal.path(inFolder: dir)
        XCTAssertNil(try SessionJournal.read(path), "no journal: nothing to resume")
        let list = try ShotList.parse("## 01 — One\nA.\n\n## 02 — Two\nB.\n", name: "shots.md")
        var walk = ShotWalk(list: list)
        _ = walk.takeBegan(1, place: ScriptPlace(script: "/s.md", position: 7, length: 50, unitsAreWords: true, line: 3))
        _ = walk.mark(.noGood)
        _ = walk.takeBegan(2)
        _ = walk.step(forward: true)
        _ = walk.takeBegan(3)
        let journal = SessionJournal(shotList: "/x/shots.md", shot: walk.current.id, takes: walk.takes,
                                     place: ScriptPlace(script: "/s.md", position: 21.123456, length: 50, unitsAreWords: true, line: 9))
        try journal.write(to: path)
        let back = try XCTUnwrap(try SessionJournal.read(path))
        XCTAssertEqual(back, journal)
        XCTAssertEqual(back.position, 21.123)
        XCTAssertEqual(back.lastTake, 3)
        // Taken up again: the shot and the take numbers go on.
        var resumed = ShotWalk(list: list)
        XCTAssertNil(resumed.resume(shot: back.shot, takes: back.takes))
        XCTAssertEqual(resumed.current.id, "02")
        XCTAssertEqual(resumed.nextShotTake, 2)
        XCTAssertEqual(resumed.takes.first?.scriptStart, 7)
        // A new session in a folder holding takes 1-4 of shot 01 numbers on from 5.
        var fresh = ShotWalk(list: list)
        fresh.earlier = ["01": 4, "02": 1]
        XCTAssertEqual(fresh.nextShotTake, 5)
        XCTAssertEqual(fresh.takeBegan(1).shotTake, 5)
        XCTAssertEqual(fresh.takeBegan(2).shotTake, 6)
        XCTAssertTrue(back.offer(path: path).contains("stopped at shot 02, take 2 next, 3 takes so far"), back.offer(path: path))
        // A shot since removed from the list: the first, said.
        XCTAssertEqual(ShotWalk(list: list).resuming("09", back.takes), "shot 09 is no longer in the shot list; resuming at shot 01 (One)")

        for damaged in ["{\"version\": 1, \"shot\": \"02\"", "{\"version\": 1, \"shot\": \"02\", \"shotList\": \"/x\"}", "[]", ""] {
            try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try SessionJournal.read(path)) { error in
                let message = (error as? DuoError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix("session journal \(path) is damaged ("), message)
                XCTAssertTrue(message.hasSuffix("move it aside (the takes beside it are kept) and start without --resume, or fix it"), message)
                XCTAssertFalse(message.contains("\n"))
            }
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), damaged, "a damaged journal is left as it was")
        }
    }
}

private extension ShotWalk {
    func resuming(_ shot: String, _ takes: [Take]) -> String? {
        var copy = self
        return copy.resume(shot: shot, takes: takes)
    }
}
