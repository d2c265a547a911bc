import DuoCore
import XCTest

/// The one admission and rate policy of every listener, in milliseconds on a manual clock: clients at
/// once and per address, a rate per address (a flood from one address leaves another untouched), and
/// lines cut to a limit, a long one said once however long it goes on.
final class ListenPolicyTests: XCTestCase {
    private let ms: Int64 = 1_000_000

    func testClientsAreAdmittedUpToTheLimitsAndCountedOutAgain() {
        var admission = Admission(.displayHandshake)
        XCTAssertEqual((0..<6).filter { _ in admission.connect("10.0.0.1") }.count, 4, "4 at once from one address")
        XCTAssertTrue(admission.connect("10.0.0.2"), "another address is not held back")
        admission.leave("10.0.0.1")
        XCTAssertTrue(admission.connect("10.0.0.1"), "one went: one more may come")
        for i in 3..<20 { _ = admission.connect("10.0.0.\(i)") }
        XCTAssertEqual(admission.connected, 16, "16 at once from anywhere")
        XCTAssertFalse(admission.connect("10.0.1.1"))
        admission.leave("10.0.0.9")
        XCTAssertTrue(admission.connect("10.0.1.1"))
        admission.leave("never-came")
        XCTAssertEqual(admission.connected, 16, "a client that was never admitted changes nothing")

        var control = Admission(.control)
        XCTAssertEqual((0..<500).filter { _ in control.connect("local") }.count, 500, "the control socket has no limit on clients")
    }

    func testEachAddressHasItsOwnRate() {
        var admission = Admission(.osc)
        let flood = (0..<200).map { _ in admission.message(from: "10.0.0.1", size: 20, at: 0) }
        XCTAssertEqual(flood.filter { $0 == .accept }.count, 50, "a burst of 50 at once")
        XCTAssertEqual(flood.last, .tooFast)
        XCTAssertEqual(admission.message(from: "10.0.0.2", size: 20, at: 0), .accept, "another address still gets through")
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 20, at: 5 * ms), .tooFast)
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 20, at: 10 * ms), .accept, "one more every 10 ms")
        XCTAssertEqual(admission.message(from: "10.0.0.2", size: OSCMessage.maximumSize + 1, at: 20 * ms), .tooLong)
        var control = Admission(.control)
        XCTAssertEqual((0..<10_000).filter { _ in control.message(from: "local", size: 100, at: 0) == .accept }.count, 10_000,
                       "the control socket takes every line")
        XCTAssertEqual(control.message(from: "local", size: 65_537, at: 0), .tooLong)
    }

    func testManyAddressesCannotGrowTheRatesWithoutBound() {
        var admission = Admission(ListenLimits(longest: 100, rate: 100, burst: 2), capacity: 4)
        for i in 0..<4 { XCTAssertEqual(admission.message(from: "a\(i)", size: 1, at: 0), .accept) }
        // Full of busy addresses: newcomers share one gate (its burst of 2), so the total stays bounded.
        let newcomers = (0..<10).map { admission.message(from: "b\($0)", size: 1, at: 1 * ms) }
        XCTAssertEqual(newcomers.filter { $0 == .accept }.count, 2, "\(newcomers)")
        // A second later every gate is full again: forgotten, and each address starts afresh.
        XCTAssertEqual((0..<4).map { admission.message(from: "c\($0)", size: 1, at: 1_000 * ms) }, Array(repeating: .accept, count: 4))
    }

    func testALongLineIsSaidOnceAndTheNextLineIsTaken() {
        var framer = LineFramer(longest: 16)
        XCTAssertEqual(framer.feed(Array("{\"cmd\":\"rec".utf8)), [])
        XCTAssertEqual(framer.feed(Array("ord\"}\n  \n\t{\"a\":1}\r\n".utf8)), [.line("{\"cmd\":\"record\"}"), .line("{\"a\":1}")],
                       "a line across two reads; empty lines skipped; spaces, tabs and CR trimmed")
        var pieces: [LineFramer.Piece] = []
        for _ in 0..<1_000 { pieces += framer.feed(Array(repeating: UInt8(ascii: "x"), count: 300)) }
        XCTAssertEqual(pieces, [.tooLong], "300,000 bytes without a newline: said once")
        XCTAssertEqual(framer.feed(Array("xxx\nshort\n".utf8)), [.line("short")], "the rest of the long line is skipped")
        XCTAssertEqual(framer.feed(Array((String(repeating: "y", count: 17) + "\nok\n").utf8)), [.tooLong, .line("ok")],
                       "a line one byte too long, whole in one read")
        XCTAssertEqual(framer.feed(Array((String(repeating: "z", count: 16) + "\n").utf8)), [.line(String(repeating: "z", count: 16))],
                       "exactly the limit is taken")
    }

    /// The one throttle with a burst and summaries (the handshake's wrong passphrases) and without (warnings).
    func testTheThrottleShowsABurstAndSumsUpTheRest() {
        var summing = Throttle(window: 60_000, burst: 3, summarize: true)
        let verdicts = (0..<7).map { summing.record("10.0.0.1", at: Int64($0) * 1_000) }
        XCTAssertEqual(verdicts.map(\.show), [true, true, true, false, false, false, false])
        XCTAssertEqual(verdicts.map(\.attempt), [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(verdicts.map(\.held), [0, 0, 0, 0, 0, 0, 0], "summed up, never said with the next one")
        XCTAssertTrue(summing.due(at: 59_999).isEmpty)
        XCTAssertEqual(summing.due(at: 60_000).map(\.count), [4])
        XCTAssertTrue(summing.due(at: 120_000).isEmpty, "said once")

        var plain = Throttle(window: 10)
        XCTAssertEqual(plain.line("k", "refused", at: 0), "refused")
        XCTAssertNil(plain.line("k", "refused", at: 9))
        XCTAssertEqual(plain.line("k", "refused", at: 10), "refused (1 more like it since the last such line)")
        XCTAssertTrue(plain.due(at: 100).isEmpty, "without summaries nothing is due: it was said with the next line")
    }

    func testRandomTokensAreHexOfTheirLengthAndNeverRepeat() {
        let tokens = (0..<1_000).map { _ in RandomToken.hex(bytes: 16) }
        XCTAssertTrue(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        XCTAssertEqual(Set(tokens).count, 1_000)
        XCTAssertEqual(RandomToken.hex(bytes: 4).count, 8)
        // Every hex digit shows up in every position over 1,000 tokens (a stuck nibble would not).
        for position in [0, 1, 31] {
            XCTAssertEqual(Set(tokens.map { Array($0)[position] }).count, 16, "position \(position)")
        }
    }
}
