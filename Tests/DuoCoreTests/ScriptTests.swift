import Foundation
import XCTest
@testable import DuoCore

final class ScriptTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("duo-script-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory.appendingPathComponent(name).path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    private func loadError(_ path: String) -> DuoError? {
        do { _ = try ScriptParser.load(path: path); return nil } catch { return error }
    }

    private func allText(_ script: SubjectScript) -> String {
        script.blocks.map { block -> String in
            switch block {
            case .heading(_, let runs), .paragraph(let runs): runs.map(\.text).joined()
            case .pause: "[PAUSE]"
            }
        }.joined(separator: "\n")
    }

    // MARK: Parsing

    func testMarkdownHeadingsEmphasisParagraphsAndPauses() {
        let parsed = ScriptParser.parse(text: """
            # Opening
            Hello *there*, this is **bold** and ***both***.
            Same paragraph.

            [PAUSE]
            ## Second part
            snake_case stays literal.
            """, format: .markdown)
        let blocks = parsed.subject.blocks
        XCTAssertEqual(blocks.count, 5)
        XCTAssertEqual(blocks[0], .heading(level: 1, runs: [StyledRun("Opening")]))
        XCTAssertEqual(blocks[1], .paragraph(runs: [
            StyledRun("Hello "), StyledRun("there", .italic), StyledRun(", this is "), StyledRun("bold", .bold),
            StyledRun(" and "), StyledRun("both", .boldItalic), StyledRun(". Same paragraph."),
        ]))
        XCTAssertEqual(blocks[2], .pause)
        XCTAssertEqual(blocks[3], .heading(level: 2, runs: [StyledRun("Second part")]))
        XCTAssertEqual(blocks[4], .paragraph(runs: [StyledRun("snake_case stays literal.")]))
        XCTAssertEqual(parsed.subject.markerBlockIndices, [0, 3])
    }

    func testPlainTextKeepsMarkdownCharactersLiterally() {
        let parsed = ScriptParser.parse(text: "# not a heading\n*not emphasis*", format: .plainText)
        XCTAssertEqual(parsed.subject.blocks, [.paragraph(runs: [StyledRun("# not a heading *not emphasis*")])])
    }

    func testNotesAreRemovedFromSubjectTextAndKeptForTheOperator() {
        let parsed = ScriptParser.parse(text: """
            First line [[note: SECRET-ONE]] continues.

            [[note: SECRET-TWO
            spans lines]]
            Second paragraph.[[NOTE: SECRET-THREE]]
            """, format: .markdown)
        let subject = allText(parsed.subject)
        XCTAssertFalse(subject.contains("SECRET"))
        XCTAssertFalse(subject.contains("note"))
        XCTAssertEqual(parsed.operatorNotes.map(\.text), ["SECRET-ONE", "SECRET-TWO\nspans lines", "SECRET-THREE"])
        XCTAssertEqual(subject, "First line  continues.\nSecond paragraph.")
    }

    func testUnclosedNoteHidesTheRestRatherThanLeakingIt() {
        let parsed = ScriptParser.parse(text: "Visible.\n\n[[note: never closed SECRET", format: .plainText)
        XCTAssertFalse(allText(parsed.subject).contains("SECRET"))
        XCTAssertEqual(parsed.operatorNotes.map(\.text), ["never closed SECRET"])
    }

    /// Notes fail closed: however a note is spelled it is a note, and anything that could be one is kept
    /// from the subject and reported with its line.
    func testEverySpellingOfANoteIsANote() {
        for spelled in ["[[ note: SECRET]]", "[[Note: SECRET]]", "[[NOTE SECRET]]", "[[note:SECRET]]", "[[  nOtE :SECRET ]]"] {
            let parsed = ScriptParser.parse(text: "Hello \(spelled) world.", format: .plainText)
            XCTAssertFalse(allText(parsed.subject).contains("SECRET"), spelled)
            XCTAssertEqual(parsed.operatorNotes.map(\.text), ["SECRET"], spelled)
            XCTAssertEqual(parsed.problems, [], spelled)
        }
    }

    func testMalformedNotesAreKeptFromTheSubjectAndReported() {
        let cases: [(String, String)] = [
            ("[[nto: SECRET typo]]", "is not a note"),
            ("[[note: outer [[note: SECRET inner]] SECRET tail]]", "inside a note"),
            ("[note: SECRET one bracket]", "one bracket"),
            ("[ Note SECRET one bracket]]", "one bracket"),
            ("[[ SECRET never closed", "no closing ]]"),
        ]
        for (markup, words) in cases {
            let parsed = ScriptParser.parse(text: "Line one.\n\nBefore \(markup) after.\n\nLast.", format: .markdown)
            XCTAssertFalse(allText(parsed.subject).contains("SECRET"), "\(markup): \(allText(parsed.subject))")
            XCTAssertEqual(parsed.problems.count, 1, markup)
            XCTAssertEqual(parsed.problems.first?.line, 3, markup)
            XCTAssertTrue(parsed.problems.first?.message.contains(words) ?? false, "\(markup): \(parsed.problems)")
        }
        // Ordinary brackets are text, and [PAUSE] is still a cue.
        let plain = ScriptParser.parse(text: "A [sic] quote [PAUSE] and [1].", format: .plainText)
        XCTAssertEqual(plain.problems, [])
        XCTAssertTrue(allText(plain.subject).contains("[sic]") && allText(plain.subject).contains("[1]"))
    }

    /// A `]]` after a note's end: the writer's note ran to it, so nothing up to it reaches the subject.
    func testAStrayCloserAfterANoteKeepsTheRestOfTheNoteFromTheSubject() {
        for markup in ["[[note: remember ]] SECRET ]]", "[[note: a ]] SECRET ]] SECRET too ]]", "[[nto: a]] SECRET ]]",
                       "((note: a )) SECRET ))"] {
            let parsed = ScriptParser.parse(text: "Line one.\n\nBefore \(markup) after.\n\nLast.", format: .markdown)
            let subject = allText(parsed.subject)
            XCTAssertFalse(subject.contains("SECRET"), "\(markup): \(subject)")
            XCTAssertTrue(subject.contains("Before") && subject.contains("after.") && subject.contains("Last."), "\(markup): \(subject)")
            XCTAssertTrue(parsed.problems.contains { $0.line == 3 && $0.message.contains("after a note's end") }, "\(markup): \(parsed.problems)")
        }
        let parsed = ScriptParser.parse(text: "Hi [[note: remember ]] secret ]] there.", format: .plainText)
        XCTAssertEqual(parsed.operatorNotes.map(\.text), ["remember ]] secret"])
        // A second note after the first is its own note, and text between them is the subject's.
        let two = ScriptParser.parse(text: "A [[note: one]] shown [[note: two]] B", format: .plainText)
        XCTAssertEqual(allText(two.subject), "A  shown  B")
        XCTAssertEqual(two.problems, [])
    }

    /// Every Markdown renderer hides an HTML comment, so its writer takes it for private: it is a note.
    func testHTMLCommentsAreNotesInBothFormats() {
        for format in [ScriptFormat.markdown, .plainText] {
            let parsed = ScriptParser.parse(text: """
                Hello <!-- SECRET-ONE --> world.

                <!--
                SECRET-TWO on
                several lines
                -->
                Second paragraph.
                """, format: format)
            let subject = allText(parsed.subject)
            XCTAssertFalse(subject.contains("SECRET"), subject)
            XCTAssertFalse(subject.contains("<!--") || subject.contains("-->"), subject)
            XCTAssertEqual(subject, "Hello  world.\nSecond paragraph.")
            XCTAssertEqual(parsed.operatorNotes.map(\.text), ["SECRET-ONE", "SECRET-TWO on\nseveral lines"])
            XCTAssertEqual(parsed.problems, [])
        }
        let unclosed = ScriptParser.parse(text: "Shown.\n\n<!-- SECRET never closed\n\nSECRET too", format: .markdown)
        XCTAssertEqual(allText(unclosed.subject), "Shown.")
        XCTAssertEqual(unclosed.problems.map(\.line), [3])
    }

    /// Look-alikes of a note are malformed notes: kept from the subject and reported with their line.
    func testNoteLookAlikesAreKeptFromTheSubjectAndReported() {
        let cases: [(String, String)] = [
            ("［［note: SECRET fullwidth］］", "is not a note"),
            ("((note: SECRET round))", "is not a note"),
            ("{{Note: SECRET braces}}", "is not a note"),
            ("{{note: SECRET never closed", "no closing"),
        ]
        for (markup, words) in cases {
            let parsed = ScriptParser.parse(text: "Line one.\n\nBefore \(markup) after.\n\nLast.", format: .markdown)
            XCTAssertFalse(allText(parsed.subject).contains("SECRET"), "\(markup): \(allText(parsed.subject))")
            XCTAssertEqual(parsed.problems.count, 1, markup)
            XCTAssertEqual(parsed.problems.first?.line, 3, markup)
            XCTAssertTrue(parsed.problems.first?.message.contains(words) ?? false, "\(markup): \(parsed.problems)")
        }
        // CJK punctuation, single or doubled, and fullwidth letters: each a look-alike of its own.
        for (o, c) in [("【", "】"), ("「", "」"), ("『", "』"), ("〔", "〕"), ("［", "］"), ("〖", "〗"), ("（", "）")] {
            for markup in ["\(o)note: SECRET\(c)", "\(o)\(o)note：SECRET\(c)\(c)", "\(o)ＮＯＴＥ SECRET\(c)"] {
                let parsed = ScriptParser.parse(text: "Line one.\n\nBefore \(markup) after.\n\nLast.", format: .markdown)
                XCTAssertEqual(allText(parsed.subject), "Line one.\nBefore  after.\nLast.", markup)
                XCTAssertEqual(parsed.problems.map(\.line), [3], markup)
                XCTAssertTrue(parsed.problems.first?.message.contains("is not a note") ?? false, "\(markup): \(parsed.problems)")
            }
            let unclosed = ScriptParser.parse(text: "Shown.\n\n\(o)note: SECRET never closed\n\nSECRET too", format: .markdown)
            XCTAssertEqual(allText(unclosed.subject), "Shown.", o)
            XCTAssertTrue(unclosed.problems.first?.message.contains("no closing") ?? false, "\(o): \(unclosed.problems)")
        }
        // CJK quotation marks around ordinary words stay the subject's text.
        let quoted = ScriptParser.parse(text: "他说「你好」，《notebook》和【notes】。", format: .plainText)
        XCTAssertEqual(quoted.problems, [])
        XCTAssertEqual(allText(quoted.subject), "他说「你好」，《notebook》和【notes】。")
        for line in ["note: SECRET plain", "  NOTE : SECRET spaced", "> Note: SECRET quoted", "- note: SECRET listed"] {
            let parsed = ScriptParser.parse(text: "Line one\ncontinues.\n\(line)\nand goes on.", format: .markdown)
            XCTAssertEqual(allText(parsed.subject), "Line one continues. and goes on.", line)
            XCTAssertEqual(parsed.problems.map(\.line), [3], line)
            XCTAssertTrue(parsed.problems.first?.message.contains("note:") ?? false, "\(line): \(parsed.problems)")
        }
        // Ordinary parentheses, braces and the word "note" inside a line are the subject's text.
        let plain = ScriptParser.parse(text: "((a + b)) {{x}} take note: this [[note: n]] and a notebook.", format: .plainText)
        XCTAssertEqual(plain.problems, [])
        XCTAssertEqual(allText(plain.subject), "((a + b)) {{x}} take note: this  and a notebook.")
    }

    func testInlinePauseSplitsParagraphAndCuePositionsCountWords() {
        let parsed = ScriptParser.parse(text: "one two three [PAUSE] four five\n\nsix", format: .plainText)
        XCTAssertEqual(parsed.subject.blocks, [
            .paragraph(runs: [StyledRun("one two three")]), .pause,
            .paragraph(runs: [StyledRun("four five")]), .paragraph(runs: [StyledRun("six")]),
        ])
        XCTAssertEqual(parsed.subject.wordCount, 6)
        XCTAssertEqual(parsed.subject.pauseCueWordPositions, [3])
    }

    func testChineseJoinsLinesWithoutSpacesAndUsesLines() {
        let parsed = ScriptParser.parse(text: "大家好，\n欢迎收看。", format: .plainText)
        XCTAssertEqual(parsed.subject.blocks, [.paragraph(runs: [StyledRun("大家好，欢迎收看。")])])
        XCTAssertFalse(parsed.subject.separatesWords)
        XCTAssertTrue(ScriptParser.parse(text: "مرحبا بكم في هذا العرض", format: .plainText).subject.separatesWords)
    }

    func testCRLFAndBOMAreAccepted() throws {
        let path = write("crlf.txt", [0xEF, 0xBB, 0xBF] + Array("Line one\r\nline two\r\n\r\nNext".utf8))
        let parsed = try ScriptParser.load(path: path)
        XCTAssertEqual(parsed.subject.blocks, [.paragraph(runs: [StyledRun("Line one line two")]),
                                               .paragraph(runs: [StyledRun("Next")])])
    }

    func testCombiningMarksSurviveUnchanged() throws {
        let text = "e\u{0301}te\u{0301} cafe\u{0301}"
        let parsed = try ScriptParser.parse(bytes: Array(text.utf8), format: .plainText)
        XCTAssertEqual(Array(allText(parsed.subject).unicodeScalars), Array(text.unicodeScalars))
    }

    // MARK: Bad scripts: each a one-line input error, never a crash or a hang

    func testMissingScript() {
        let error = loadError(directory.appendingPathComponent("nope.md").path)
        XCTAssertEqual(error?.kind, .input)
        XCTAssertTrue(error?.message.contains("does not exist") ?? false, "\(String(describing: error))")
    }

    func testDirectoryIsNotAScript() {
        XCTAssertEqual(loadError(directory.path)?.kind, .input)
    }

    func testEmptyScripts() {
        for (name, bytes) in [("empty.txt", [UInt8]()), ("blank.md", Array("  \n\n\t\n".utf8))] {
            let error = loadError(write(name, bytes))
            XCTAssertEqual(error?.kind, .input)
            XCTAssertTrue(error?.message.contains("is empty") ?? false, "\(name): \(String(describing: error))")
        }
    }

    func testNotesOnlyScriptHasNothingForTheSubject() {
        let error = loadError(write("notes.md", Array("[[note: only for me]]\n[PAUSE]\n".utf8)))
        XCTAssertEqual(error?.kind, .input)
        XCTAssertTrue(error?.message.contains("no text for the subject") ?? false, "\(String(describing: error))")
    }

    func testBinaryScript() {
        // A PNG header: NUL bytes within the first few bytes.
        let error = loadError(write("image.md", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]))
        XCTAssertEqual(error?.kind, .input)
        XCTAssertTrue(error?.message.contains("binary") ?? false, "\(String(describing: error))")
        let controls = loadError(write("controls.txt", Array(repeating: 0x01, count: 50) + Array("text".utf8)))
        XCTAssertTrue(controls?.message.contains("binary") ?? false, "\(String(describing: controls))")
    }

    func testInvalidUTF8Script() {
        // Latin-1 "café" and a lone continuation byte.
        let error = loadError(write("latin1.txt", Array("caf".utf8) + [0xE9, 0x20, 0x80]))
        XCTAssertEqual(error?.kind, .input)
        XCTAssertTrue(error?.message.contains("not valid UTF-8 (first bad byte at offset 3)") ?? false, "\(String(describing: error))")
    }

    func testFiftyMegabyteScriptIsRefusedBeforeReading() throws {
        let path = directory.appendingPathComponent("huge.txt").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 50 * 1024 * 1024) // sparse: no 50 MB write, and no read either
        try handle.close()
        let error = loadError(path)
        XCTAssertEqual(error?.kind, .input)
        XCTAssertTrue(error?.message.contains("50.0 MB") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("limited to 2.0 MB") ?? false)
    }

    func testErrorsAreOneLine() {
        let paths = [directory.appendingPathComponent("nope.md").path, write("e.txt", []),
                     write("b.txt", [0, 1, 2]), write("u.txt", [0xFF, 0xFE])]
        for path in paths {
            let message = loadError(path)?.message ?? ""
            XCTAssertFalse(message.isEmpty)
            XCTAssertFalse(message.contains("\n"), message)
        }
    }
}

final class ScriptNoteLineTests: XCTestCase {
    func testANoteOnItsOwnLineDoesNotSplitTheParagraph() {
        let withNote = ScriptParser.parse(text: "one two\n  [[note: aside]]  \nthree four\n\nfive", format: .plainText)
        let without = ScriptParser.parse(text: "one two\nthree four\n\nfive", format: .plainText)
        XCTAssertEqual(withNote.subject, without.subject)
        XCTAssertEqual(withNote.operatorNotes.map(\.text), ["aside"])
    }
}
