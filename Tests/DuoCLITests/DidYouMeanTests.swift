import Foundation
import XCTest

/// A misspelt option, sub-command or option word, typed to the real binary, gets one line (exit 64)
/// naming the one that was likely meant; a word near nothing gets no guess.
final class DidYouMeanTests: XCTestCase {
    private func usageLine(_ arguments: [String]) throws -> String {
        let run = try duoCapture(arguments)
        XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line for \(arguments): \(run.stderr)")
        return String(lines.first ?? "")
    }

    func testAMisspeltOptionCommandAndWordEachSuggestTheRightOne() throws {
        for (arguments, meant) in [(["--acessory", "teleprompter"], "did you mean --accessory?"),
                                   (["--headles", "--duration", "1"], "did you mean --headless?"),
                                   (["--scirpt", "talk.md"], "did you mean --script?"),
                                   (["formts", "inner"], "did you mean formats?"),
                                   (["camreas"], "did you mean cameras?"),
                                   (["--headless", "--accessory", "telepromter"], "did you mean teleprompter?"),
                                   (["--headless", "--accessory=countdwon"], "did you mean countdown?"),
                                   (["--headless", "--theme", "high-constrast"], "did you mean high-contrast?")] {
            let line = try usageLine(arguments)
            XCTAssertTrue(line.contains(meant), "\(arguments): \(line)")
        }
    }

    func testAWordNearNothingGetsNoGuess() throws {
        for arguments in [["--frobnicate"], ["--headless", "--accessory", "banana"], ["walrus"]] {
            let line = try usageLine(arguments)
            XCTAssertFalse(line.contains("did you mean"), "\(arguments): \(line)")
        }
        // The plain errors are still there, and still say where to look.
        XCTAssertTrue(try usageLine(["--frobnicate"]).contains("unknown option --frobnicate; run duo-capture --help"))
        XCTAssertTrue(try usageLine(["--headless", "--accessory", "banana"]).contains("use --accessory teleprompter, preview, countdown or off"))
    }
}
