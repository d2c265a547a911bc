import DuoCore
import XCTest

/// The pure parts of the remote display's handshake: escaping a peer's words, the size the sender
/// renders for a display, and how refusals are slowed and summed up (a manual clock).
final class RemoteHandshakeModelTests: XCTestCase {
    func testControlCharactersAreShownAsEscapes() {
        XCTAssertEqual(TerminalText.escaped("plain words, ünïcödé, 日本"), "plain words, ünïcödé, 日本")
        XCTAssertEqual(TerminalText.escaped("\u{1B}]0;title\u{07}"), #"\u{1B}]0;title\u{7}"#)
        XCTAssertEqual(TerminalText.escaped("a\nb\rc\td\u{7F}e\u{9B}f"), #"a\u{A}b\u{D}c\u{9}d\u{7F}e\u{9B}f"#)
        XCTAssertEqual(TerminalText.escaped("x\u{202E}y\u{2066}z\u{200F}"), #"x\u{202E}y\u{2066}z\u{200F}"#)
        XCTAssertEqual(TerminalText.escaped(String(repeating: "a", count: 500)).count, 201, "200 and an ellipsis")
        XCTAssertEqual(TerminalText.escaped(String(repeating: "\u{1B}", count: 100), limit: 20), #"\u{1B}\u{1B}\u{1B}…"#,
                       "an escape is never cut in half")
        XCTAssertEqual(TerminalText.escaped("short", limit: 5), "short")
    }

    func testTheRenderedSizeIsEvenAndWithinLimits() {
        XCTAssertEqual(RemoteDisplayHandshake.renderSize(width: 1281, height: 721)?.width, 1280)
        XCTAssertEqual(RemoteDisplayHandshake.renderSize(width: 1281, height: 721)?.height, 720)
        XCTAssertEqual(RemoteDisplayHandshake.renderSize(width: 1920, height: 1080).map { [$0.width, $0.height] }, [1920, 1080])
        XCTAssertEqual(RemoteDisplayHandshake.renderSize(width: 15360, height: 8640).map { [$0.width, $0.height] }, [7680, 4320])
        XCTAssertEqual(RemoteDisplayHandshake.renderSize(width: 20000, height: 1000).map { [$0.width, $0.height] }, [7680, 384], "shape kept")
        XCTAssertEqual(RemoteDisplayHandshake.renderSize(width: 3, height: 5).map { [$0.width, $0.height] }, [16, 16])
        XCTAssertNil(RemoteDisplayHandshake.renderSize(width: 1 << 62, height: 1 << 62))
        XCTAssertNil(RemoteDisplayHandshake.renderSize(width: 0, height: 720))
        XCTAssertNil(RemoteDisplayHandshake.renderSize(width: 1280, height: -720))
        XCTAssertEqual(RemoteDisplayHandshake.refresh(1 << 40), 60)
        XCTAssertEqual(RemoteDisplayHandshake.refresh(144), 144)
    }

    func testRefusalsAreSlowedPerAddressAndSummedUpOncePerMinute() {
        var refusals = HandshakeRefusals()
        var answers: [(Bool, Double)] = []
        for i in 0..<7 { answers.append(refusals.refuse("10.0.0.1", at: Double(i))) }
        XCTAssertEqual(answers.map(\.0), [true, true, true, false, false, false, false])
        XCTAssertEqual(answers.map(\.1), [0, 0, 0, 0.5, 1, 2, 4])
        XCTAssertEqual(refusals.refuse("10.0.0.2", at: 7).say, true, "another address is not held back")
        XCTAssertTrue(refusals.due(at: 30).isEmpty, "summed up once the minute is over")
        let due = refusals.due(at: 64)
        XCTAssertEqual(due.map(\.address), ["10.0.0.1"])
        XCTAssertEqual(due.map(\.count), [4])
        XCTAssertTrue(refusals.due(at: 65).isEmpty, "said once")
        for i in 0..<20 { _ = refusals.refuse("10.0.0.1", at: 100 + Double(i)) }
        XCTAssertEqual(refusals.refuse("10.0.0.1", at: 121).delay, 8, "never longer than 8 s")
        XCTAssertEqual(refusals.refuse("10.0.0.1", at: 300).delay, 0, "a minute later it starts afresh")
        XCTAssertEqual(refusals.due(at: 300, flush: true).map(\.count), [18])
        XCTAssertEqual(HandshakeRefusals.summary(address: "10.0.0.1", count: 1),
                       "refused 1 more wrong passphrase from 10.0.0.1 in the last minute (each answered later than the last)")
    }
}
