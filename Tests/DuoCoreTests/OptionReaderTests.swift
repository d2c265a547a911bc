import DuoCore
import XCTest

/// The one option reader: both spellings of a value, plain decimals only, and the subject-view options
/// read the same way by every command.
final class OptionReaderTests: XCTestCase {
    func testValuesInBothSpellings() throws {
        var r = OptionReader(["--wpm=120", "--script", "talk.md", "--mirror", "--x"])
        var subject = SubjectSetup()
        XCTAssertTrue(try subject.apply(try XCTUnwrap(r.next()), from: &r))
        XCTAssertTrue(try subject.apply(try XCTUnwrap(r.next()), from: &r))
        XCTAssertEqual(subject.wordsPerMinute, 120)
        XCTAssertEqual(subject.scriptPath, "talk.md")
        // An option is never taken for the previous one's value.
        XCTAssertThrowsError(try subject.apply(try XCTUnwrap(r.next()), from: &r)) { error in
            XCTAssertEqual((error as! DuoError).message, "--mirror needs a value; run duo-capture --help for the syntax")
        }
        XCTAssertFalse(try subject.apply("--duration", from: &r), "not a subject option")
    }

    /// `--lines N`: a whole number of lines from 3 to 40, and never together with `--font-size`.
    func testLinesIsAWholeNumberAndExcludesFontSize() throws {
        func apply(_ args: [String]) throws -> SubjectSetup {
            var r = OptionReader(args)
            var subject = SubjectSetup()
            while let arg = r.next() { _ = try subject.apply(arg, from: &r) }
            return subject
        }
        XCTAssertEqual(try apply(["--lines", "5"]).lines, 5)
        let cases = [(["--lines", "4.5"], "--lines 4.5: give a whole number of lines from 3 to 40"),
                     (["--lines", "2"], "--lines 2: give a number from 3 to 40"),
                     (["--font-size", "40", "--lines", "5"], "give --font-size or --lines, not both (--lines sizes the text to fit that many lines)"),
                     (["--lines", "5", "--font-size", "40"], "give --font-size or --lines, not both (--lines sizes the text to fit that many lines)")]
        for (args, message) in cases {
            XCTAssertThrowsError(try apply(args), "\(args)") { XCTAssertEqual(($0 as! DuoError).message, message) }
        }
    }

    func testAMissingValueSaysWhereTheSyntaxIs() {
        var r = OptionReader(["--wpm", "--script"], help: "see duo-capture render-subject --help")
        _ = r.next()
        XCTAssertThrowsError(try r.number("--wpm", 1...1000)) { error in
            XCTAssertEqual((error as! DuoError).message, "--wpm needs a value; see duo-capture render-subject --help")
        }
    }

    func testNumbersArePlainDecimals() {
        for good in ["12", "0.5", "-3", "+2", "160.0"] { XCTAssertNotNil(OptionReader.decimal(good), good) }
        for bad in ["0x10", "1e2", "inf", "nan", "", ".", "1.2.3", "12abc", " 12", "١٢"] {
            XCTAssertNil(OptionReader.decimal(bad), bad)
        }
        var r = OptionReader(["--wpm", "0x10"])
        var subject = SubjectSetup()
        _ = r.next()
        XCTAssertThrowsError(try subject.apply("--wpm", from: &r)) { error in
            XCTAssertEqual((error as! DuoError).message, "--wpm 0x10: give a number from 1 to 1000")
        }
    }
}
