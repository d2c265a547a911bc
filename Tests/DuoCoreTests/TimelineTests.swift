import DuoCore
import XCTest

final class TimelineTests: XCTestCase {
    func testParsesCommandsWithCommentsAndBlankLines() throws {
        let t = try Timeline.parse("""
            # a test session
            {"at": 1, "cmd": "record"}

            {"at": 2.5, "cmd": "speed", "step": 1}
            {"at": 2.5, "cmd": "mirror"}
            {"at": 4, "cmd": "quit"}
            """, name: "t.jsonl")
        XCTAssertEqual(t.entries, [.init(at: 1, command: .record), .init(at: 2.5, command: .speedStep(1)),
                                   .init(at: 2.5, command: .mirror), .init(at: 4, command: .quit)])
    }

    func testBadTimelinesNameTheLine() {
        let cases: [(String, String)] = [
            ("{\"at\": 1, \"cmd\": \"record\"}\nrecord at 2", "line 2: not a JSON object"),
            ("{\"cmd\": \"record\"}", "line 1: \"at\" must be seconds"),
            ("{\"at\": -1, \"cmd\": \"record\"}", "\"at\" must be seconds"),
            ("{\"at\": 1, \"cmd\": \"fly\"}", "line 1: unknown command \"fly\""),
            ("{\"at\": 2, \"cmd\": \"record\"}\n{\"at\": 1, \"cmd\": \"stop\"}", "line 2: at 1.0 s comes before"),
            ("# only a comment\n", "has no commands"),
        ]
        for (text, words) in cases {
            XCTAssertThrowsError(try Timeline.parse(text, name: "t.jsonl"), text) { error in
                let e = error as! DuoError
                XCTAssertEqual(e.kind, .input)
                XCTAssertTrue(e.message.contains(words) && e.message.contains("t.jsonl"), "\(e.message) should mention \(words)")
            }
        }
    }
}
