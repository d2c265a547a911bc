import DuoCore
import Foundation
import XCTest

/// A hand-written JSON file's problem is named with where it is (the camera and display profiles word
/// their one-line errors from it): a missing key, a wrong type, a null, a word not allowed, not JSON.
final class JSONProblemTests: XCTestCase {
    private struct Shape: Decodable {
        enum Kind: String, Decodable { case camera, other }
        struct Item: Decodable {
            let x: Double
            let kind: Kind
        }
        let items: [Item]
        let name: String?
    }

    private func problem(_ json: String) -> JSONProblem? {
        var seen: JSONProblem?
        do {
            _ = try JSONProblem.decode(Shape.self, from: Data(json.utf8)) { problem in
                seen = problem
                return .input("the problem")
            }
        } catch {
            XCTAssertEqual(error.message, "the problem", "the reader's own words are thrown")
        }
        return seen
    }

    func testEachProblemIsNamedWithItsPlace() {
        XCTAssertNil(problem(#"{"items": [{"x": 1, "kind": "camera"}], "name": "a"}"#))
        XCTAssertEqual(problem(#"{"items": [{"x": 1, "kind": "camera"}, {"kind": "other"}]}"#), .missing(key: "x", path: "items[1].x"))
        XCTAssertEqual(problem(#"{"name": "a"}"#), .missing(key: "items", path: "items"))
        XCTAssertEqual(problem(#"{"items": [{"x": "far", "kind": "camera"}]}"#), .wrongType(path: "items[0].x"))
        XCTAssertEqual(problem(#"{"items": [{"x": null, "kind": "camera"}]}"#), .null(path: "items[0].x"))
        XCTAssertEqual(problem(#"{"items": [{"x": 1, "kind": "lamp"}]}"#), .invalid(path: "items[0].kind"))
        XCTAssertEqual(problem("[1, 2]"), .wrongType(path: ""))
        XCTAssertEqual(problem("{"), .notJSON)
        XCTAssertEqual(problem(""), .notJSON)
    }
}
