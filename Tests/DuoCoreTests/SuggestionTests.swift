@testable import DuoCore
import XCTest

/// "Did you mean": the nearest known word within a quarter of the typed word's letters.
final class SuggestionTests: XCTestCase {
    func testSlipsFindTheirWordAndFarWordsFindNone() {
        let options = ["--accessory", "--audio", "--script", "--shots", "--headless", "--help"]
        XCTAssertEqual(Suggestion.nearest(to: "--acessory", among: options), "--accessory")   // a letter left out
        XCTAssertEqual(Suggestion.nearest(to: "--scirpt", among: options), "--script")        // two letters swapped
        XCTAssertEqual(Suggestion.nearest(to: "--HEADLESS", among: options), "--headless")    // case
        XCTAssertEqual(Suggestion.nearest(to: "--shotz", among: options), "--shots")
        XCTAssertNil(Suggestion.nearest(to: "--frobnicate", among: options))
        XCTAssertNil(Suggestion.nearest(to: "--hel", among: ["--headless"]), "a short word allows one edit only")
        XCTAssertNil(Suggestion.nearest(to: "", among: options))
        XCTAssertNil(Suggestion.nearest(to: "--script", among: ["--script"]), "the word itself is no suggestion")
        XCTAssertEqual(Suggestion.adding(to: "unknown x", for: "formts", among: ["formats"]), "unknown x; did you mean formats?")
        XCTAssertEqual(Suggestion.adding(to: "unknown x", for: "walrus", among: ["formats"]), "unknown x")
    }

    func testAnOptionWordSuggestsItsNearestCase() {
        XCTAssertEqual(AccessoryKind.knownWords, ["teleprompter", "preview", "countdown", "off"])
        XCTAssertThrowsError(try AccessoryKind.parse("telepromter")) { error in
            XCTAssertTrue("\(error)".contains("did you mean teleprompter?"), "\(error)")
        }
    }
}
