import DuoCore
import Foundation
import XCTest

/// The shot list as a person writes it: shots, fields, one-line errors naming file and line, notes kept
/// from the subject (failing closed like a script's); and the walk through it: takes per shot, marks,
/// re-takes, reloads keeping the current shot by id.
final class ShotListTests: XCTestCase {
    private func message(_ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch let error as DuoError { return error.message } catch { return "\(error)" }
    }

    let three = """
        # Demo

        Operator preface, never shown.

        ## 01 — Opening
        Look into the lens.
        Say your name.
        note: check the lavalier
        framing: single
        length: 20s

        ## 02: The problem
        Explain what goes wrong. [[note: keep it short]]

        Second paragraph.
        aspect: 9:16
        length: 1:30
        script: problem.md

        ## 03 Closing
        Thank the viewer.
        framing: interview
        """

    func testShotsFieldsAndInstructions() throws {
        let list = try ShotList.parse(three, name: "shots.md")
        XCTAssertEqual(list.title, "Demo")
        XCTAssertEqual(list.shots.map(\.id), ["01", "02", "03"])
        XCTAssertEqual(list.shots.map(\.title), ["Opening", "The problem", "Closing"])
        let first = list.shots[0]
        XCTAssertEqual(first.subject.instruction, "Look into the lens. Say your name.")
        XCTAssertEqual(first.notes, ["check the lavalier"])
        XCTAssertEqual(first.framing, .single)
        XCTAssertEqual(first.expectedSeconds, 20)
        XCTAssertEqual(first.line, 5)
        let second = list.shots[1]
        XCTAssertEqual(second.subject.instruction, "Explain what goes wrong.\nSecond paragraph.")
        XCTAssertEqual(second.notes, ["keep it short"])
        XCTAssertEqual(second.aspect, AspectRatio(9, 16))
        XCTAssertEqual(second.expectedSeconds, 90)
        XCTAssertEqual(second.script, "problem.md")
        XCTAssertEqual(list.shots[2].framing, .interview)
        XCTAssertTrue(list.problems.isEmpty)
        // A field between two lines splits no paragraph; a note leaves no double space behind.
        let joined = try ShotList.parse("## 01 — A\nWave.\nnote: x\nSmile [[note: y]] please.\n", name: "s.md")
        XCTAssertEqual(joined.shots[0].subject.instruction, "Wave. Smile please.")
    }

    func testNotesAndMalformedNoteMarkupNeverReachTheSubject() throws {
        let text = """
            ## 07 — Secret [[note: the title's note]]
            Say the line. [[nto: CASTING NOTE]] Then smile.
            [note: SINGLE BRACKET] more
            <!-- HIDDEN
            COMMENT -->
            Notes: PRIVATE FIELD
            Wave. [[note: UNCLOSED
            """
        let list = try ShotList.parse(text, name: "s.md")
        let shot = list.shots[0].subject
        let shown = shot.title + " " + shot.instruction
        for secret in ["CASTING", "SINGLE BRACKET", "HIDDEN", "COMMENT", "PRIVATE", "UNCLOSED", "title's note"] {
            XCTAssertFalse(shown.contains(secret), "\(secret) reached the subject: \(shown)")
        }
        XCTAssertEqual(shot.title, "Secret")
        XCTAssertTrue(shot.instruction.hasPrefix("Say the line."), shot.instruction)
        XCTAssertTrue(list.shots[0].notes.contains("PRIVATE FIELD"))
        XCTAssertTrue(list.shots[0].notes.contains("the title's note"))
        // Each malformed piece is reported with the file and its own line.
        XCTAssertTrue(list.problems.contains { $0.hasPrefix("s.md:2: ") && $0.contains("is not a note") }, "\(list.problems)")
        XCTAssertTrue(list.problems.contains { $0.hasPrefix("s.md:3: ") }, "\(list.problems)")
        XCTAssertTrue(list.problems.contains { $0.hasPrefix("s.md:7: ") && $0.contains("no closing") }, "\(list.problems)")
    }

    func testBadInputIsOneLineNamingFileAndLine() {
        XCTAssertEqual(message { _ = try ShotList.parse("## 01 — A\nx\n\n## 02 — B\ny\n## 01 — C\n", name: "s.md") },
                       "s.md:6: shot id 01 is used twice (first at line 1); give each shot its own id")
        XCTAssertEqual(message { _ = try ShotList.parse("## 01 — A\nframing: wide\n", name: "s.md") },
                       "s.md:2: framing 'wide' is not one; write framing: single or framing: interview")
        XCTAssertEqual(message { _ = try ShotList.parse("## 01 — A\nlength: soon\n", name: "s.md") },
                       "s.md:2: length 'soon' is not a length; write seconds (length: 30s) or minutes and seconds (length: 1:30)")
        XCTAssertEqual(message { _ = try ShotList.parse("## 01\ntext\n", name: "s.md") }, "s.md:1: shot 01 has no title; write '## 01 — Title'")
        XCTAssertTrue(message { _ = try ShotList.parse("## ☆ — Star\n", name: "s.md") }.hasPrefix("s.md:1: '☆ — Star' does not start with a shot id"))
        XCTAssertTrue(message { _ = try ShotList.parse("just text\n", name: "s.md") }.hasPrefix("s.md:1: no shots;"))
        XCTAssertTrue(message { _ = try ShotList.parse(bytes: [0x23, 0xFF, 0xFE], name: "s.md") }.hasPrefix("s.md: is not valid UTF-8"))
        for m in [message { _ = try ShotList.load(path: "/nonexistent/shots.md") }] {
            XCTAssertFalse(m.contains("\n"))
            XCTAssertTrue(m.contains("/nonexistent/shots.md"), m)
        }
    }

    /// Issue 39: `note-codes:` above the first shot sets the session's codes; a bad list, a second line or
    /// one under a shot is one line naming the file and line; and the command line > shot list >
    /// settings file > default.
    func testTheListsNoteCodesAndTheirPrecedence() throws {
        let list = try ShotList.parse("# QA\nnote-codes: bug, Q, GOOD, PII, A11Y\n\n## 01 — Sign in\nSign in.\n", name: "s.md")
        XCTAssertEqual(list.noteCodes?.codes, ["BUG", "Q", "GOOD", "PII", "A11Y"])
        XCTAssertEqual(list.shots.map(\.subject.instruction), ["Sign in."], "the line is no shot's")
        XCTAssertNil(try ShotList.parse(three, name: "s.md").noteCodes)
        XCTAssertEqual(message { _ = try ShotList.parse("note-codes: BUG, BAD CODE\n## 01 — A\n", name: "s.md") },
                       "s.md:1: note-codes: takes a comma-separated list of codes (letters, digits, - and _, up to 16 each), such as note-codes: BUG, Q, GOOD, PII")
        XCTAssertEqual(message { _ = try ShotList.parse("x\nnote-codes: Q, q\n## 01 — A\n", name: "s.md") },
                       "s.md:2: note-codes: names a code twice (Q, q); list each code once")
        XCTAssertEqual(message { _ = try ShotList.parse("note-codes: BUG, FLAG\n## 01 — A\n", name: "s.md") },
                       "s.md:1: note-codes: FLAG is the flag's own code; leave it out of the list")
        XCTAssertEqual(message { _ = try ShotList.parse("note-codes: BUG\nNote-Codes: Q\n## 01 — A\n", name: "s.md") },
                       "s.md:2: note-codes: is given twice (first at line 1); keep one line")
        XCTAssertEqual(message { _ = try ShotList.parse("## 01 — A\nSay it.\nnote-codes: BUG\n", name: "s.md") },
                       "s.md:3: note-codes: is for the whole list; move it above the first shot (## …)")

        let cli = try NoteCodeBook.parse("CLI"), shots = try NoteCodeBook.parse("SHOTS"), file = try NoteCodeBook.parse("FILE")
        XCTAssertEqual(NoteCodeBook.resolve(commandLine: cli, shotList: shots, settingsFile: file).book, cli)
        XCTAssertEqual(NoteCodeBook.resolve(commandLine: nil, shotList: shots, settingsFile: file).book, shots)
        XCTAssertEqual(NoteCodeBook.resolve(commandLine: nil, shotList: nil, settingsFile: file).book, file)
        XCTAssertEqual(NoteCodeBook.resolve(commandLine: nil, shotList: nil, settingsFile: nil).book, .standard)
        // A note with a code of the list's book is taken; one of the standard book only is refused, saying the book.
        var book = NoteBook(codes: try XCTUnwrap(list.noteCodes))
        XCTAssertEqual(try book.make(flag: false, code: "a11y", text: "no label", at: 0, wall: Date(), take: nil, shot: nil).code, "A11Y")
        var plain = NoteBook(codes: shots)
        XCTAssertThrowsError(try plain.make(flag: false, code: "BUG", text: "x", at: 0, wall: Date(), take: nil, shot: nil)) {
            XCTAssertEqual(($0 as? DuoError)?.message, "note: unknown code \"BUG\"; use one of SHOTS (set them with --note-codes)")
        }
    }

    func testTheShippedExampleParses() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Assets/example-shots.md").path
        let list = try ShotList.load(path: path)
        XCTAssertEqual(list.shots.map(\.id), ["01", "02", "03", "04"])
        XCTAssertTrue(list.problems.isEmpty, "\(list.problems)")
        XCTAssertEqual(list.shots[0].subject.instruction, "Look into the lens and say your name and your role. Smile before you start.")
        XCTAssertEqual(list.shots[0].notes, ["check the lavalier before this one", "we keep the first second"])
        // Each heading: is one of the script it is run with (Assets/scripts/talk.md).
        let talk = try ScriptParser.load(path: (path as NSString).deletingLastPathComponent + "/scripts/talk.md")
        XCTAssertEqual(list.shots.map(\.heading), ["Welcome", "Why two screens", "What comes next", nil])
        XCTAssertTrue(list.shots.compactMap(\.heading).allSatisfy(talk.subject.headingTitles.contains), "\(talk.subject.headingTitles)")
    }

    // MARK: The walk

    func testTakesCountWithinEachShotAndMarksGoToTheLatestTake() throws {
        var walk = ShotWalk(list: try ShotList.parse(three, name: "s.md"))
        XCTAssertEqual(walk.current.id, "01")
        XCTAssertEqual(walk.next?.id, "02")
        XCTAssertEqual(walk.step(forward: false), .refuse("shot 01 is the first in the list"))
        XCTAssertEqual(walk.takeBegan(1).shotTake, 1)
        XCTAssertEqual(walk.nextShotTake, 2)
        XCTAssertEqual(walk.retakeReplaces?.take, 1, "an unmarked last take is what a re-take replaces")
        XCTAssertEqual(try walk.mark(.noGood).get().take, 1)
        XCTAssertNil(walk.retakeReplaces, "a marked take is kept as marked")
        XCTAssertEqual(walk.takeBegan(2).shotTake, 2)
        let marked = try walk.mark(.good).get()
        XCTAssertEqual([marked.take, marked.shotTake], [2, 2])
        XCTAssertEqual(marked.shot, "01")
        XCTAssertEqual(marked.mark, .good)
        guard case .moved(let second) = walk.step(forward: true) else { return XCTFail("no move") }
        XCTAssertEqual(second.id, "02")
        XCTAssertEqual(walk.takeBegan(3).shotTake, 1, "the count starts again for each shot")
        XCTAssertEqual(try walk.mark(.noGood, take: 2).get().mark, .noGood, "an earlier take by number")
        XCTAssertEqual(walk.takes(of: "01").map(\.mark), [.noGood, .noGood])
        XCTAssertEqual(walk.go(to: "9"), .refuse("no shot 9 in the list; use one of 01, 02, 03"))
        _ = walk.step(forward: true)
        XCTAssertEqual(walk.step(forward: true), .refuse("shot 03 is the last in the list"))
        var empty = ShotWalk(list: try ShotList.parse(three, name: "s.md"))
        guard case .failure(let why) = empty.mark(.good) else { return XCTFail("marked with no take") }
        XCTAssertEqual(why.message, "no take has been recorded yet; record one first")
    }

    func testReloadKeepsTheCurrentShotByIdAndARemovedOneFallsToTheNext() throws {
        var walk = ShotWalk(list: try ShotList.parse(three, name: "s.md"))
        _ = walk.go(to: "02")
        _ = walk.takeBegan(1)
        // Reordered and retitled: still shot 02, its takes kept.
        XCTAssertNil(walk.reload(try ShotList.parse("## 00 — New\nx\n## 03 — C\ny\n## 02 — Renamed\nz\n", name: "s.md")))
        XCTAssertEqual(walk.current.id, "02")
        XCTAssertEqual(walk.current.title, "Renamed")
        XCTAssertEqual(walk.index, 2)
        XCTAssertEqual(walk.takes(of: "02").count, 1)
        // Shot 02 removed: the next shot of the old list that is still there (03).
        XCTAssertEqual(walk.reload(try ShotList.parse("## 00 — New\nx\n## 03 — C\ny\n", name: "s.md")),
                       "shot 02 is no longer in the shot list; now at shot 03 (C)")
        XCTAssertEqual(walk.current.id, "03")
        // The last one removed: the last of the new list.
        XCTAssertNotNil(walk.reload(try ShotList.parse("## 00 — New\nx\n", name: "s.md")))
        XCTAssertEqual(walk.current.id, "00")
    }

    func testTheReportGroupsGoodFirstAndListsShotsNeverRecorded() {
        let items = [("a", "01", false), ("b", "01", true), ("c", "02", false), ("d", nil, false)] as [(String, String?, Bool)]
        let groups = ShotWalk.grouped(items, shots: ["01", "02", "03"], shot: { $0.1 }, isGood: { $0.2 })
        XCTAssertEqual(groups.map(\.shot), ["01", "02", "03", nil])
        XCTAssertEqual(groups[0].items.map(\.0), ["b", "a"], "the good take first")
        XCTAssertEqual(groups[2].items.count, 0, "shot 03 never recorded, still listed")
        XCTAssertEqual(groups[3].items.map(\.0), ["d"])
    }

    func testControlCommands() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"shot","next":true}"#), .shot(next: true, id: nil))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"shot","next":false}"#), .shot(next: false, id: nil))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"shot","id":"03"}"#), .shot(next: nil, id: "03"))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"mark","good":false,"take":2}"#), .mark(good: false, take: 2))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"retake"}"#), .retake)
        XCTAssertTrue(message { _ = try ControlCommand.parse(#"{"cmd":"mark"}"#) }.contains("mark needs \"good\""))
        XCTAssertTrue(message { _ = try ControlCommand.parse(#"{"cmd":"shot","next":1}"#) }.contains("shot needs \"next\""))
    }

    func testTakeFilesCarryTheShot() {
        let naming = TakeNaming(directory: "/r", fileExtension: "mkv", shot: "03")
        let date = Date(timeIntervalSince1970: 0)
        XCTAssertEqual(naming.baseName(take: 2, at: date, timeZone: TimeZone(identifier: "UTC")!), "duo-1970-01-01_000000-shot03-take02")
    }
}
