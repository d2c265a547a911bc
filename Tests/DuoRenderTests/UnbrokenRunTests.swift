import DuoCore
@testable import DuoRender
import XCTest

/// A script that is one long run with no break opportunity (a URL, a line of one character) is broken
/// into full lines: every character kept, no line a stub, so the reader sees an even column.
final class UnbrokenRunTests: XCTestCase {
    func testALongUnbrokenRunFillsItsLines() throws {
        let run = String(repeating: "a", count: 5_000)
        let script = ScriptParser.parse(text: run, format: .plainText).subject
        let layout = PromptLayout(script: script, width: 1200, fontSize: 40, theme: .standard)
        let lines = layout.lines
        XCTAssertGreaterThan(lines.count, 50)
        let sizes = lines.map { $0.endByte - $0.startByte }
        let widest = try XCTUnwrap(sizes.max())
        for (i, size) in sizes.dropLast().enumerated() {
            XCTAssertGreaterThanOrEqual(size, widest / 2, "line \(i) is a stub: \(sizes.prefix(12))")
        }
        // Every "a" is laid out; only zero-width break opportunities were added (3 bytes each in UTF-8).
        let added = sizes.reduce(0, +) - 5_000
        XCTAssertEqual(added % 3, 0)
        // The break points are there (what keeps Pango's line breaking linear), a few per line.
        XCTAssertGreaterThanOrEqual(added / 3, lines.count - 1, "a break opportunity on every line")
        XCTAssertLessThan(added / 3, 5_000 / 4)
        for line in lines { XCTAssertLessThanOrEqual(line.x, 1200) }
    }
}
