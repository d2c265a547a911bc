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

    /// Issue 35: an OSC bundle's messages each count; a bundle is taken whole or not at all, and one over
    /// the burst never.
    func testEveryMessageOfABundleCountsAndABundleIsTakenWhole() {
        var admission = Admission(.osc)
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 64_000, count: 4_000, at: 0), .tooMany)
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 800, count: 40, at: 0), .accept)
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 800, count: 11, at: 0), .tooFast, "10 left: 11 refused whole")
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 200, count: 10, at: 0), .accept, "the refused bundle took none")
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 20, at: 0), .tooFast)
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 400, count: 20, at: 200 * ms), .accept, "100 a second: 20 after 200 ms")
        XCTAssertEqual(admission.message(from: "10.0.0.1", size: 20, at: 200 * ms), .tooFast)
        var control = Admission(.control)
        XCTAssertEqual(control.message(from: "local", size: 100, count: 4_000, at: 0), .accept, "no rate: no count")
    }

    /// `--osc-allow`: IPv4 and IPv6 prefixes, an IPv4 sender on an IPv6 socket, bad ones refused in one line.
    func testAddressRangesMatchTheirPrefixOnly() throws {
        let lan = try AddressRange(parsing: "192.168.1.0/24")
        XCTAssertTrue(lan.contains("192.168.1.77"))
        XCTAssertTrue(lan.contains("::ffff:192.168.1.5"), "IPv4 on an IPv6 socket")
        XCTAssertFalse(lan.contains("192.168.2.1"))
        XCTAssertFalse(lan.contains("127.0.0.1"))
        XCTAssertFalse(lan.contains("fe80::1"))
        let one = try AddressRange(parsing: "10.1.2.3")
        XCTAssertEqual(one.bits, 32)
        XCTAssertTrue(one.contains("10.1.2.3"))
        XCTAssertFalse(one.contains("10.1.2.4"))
        let odd = try AddressRange(parsing: "172.16.0.0/12")
        XCTAssertTrue(odd.contains("172.31.255.255"))
        XCTAssertFalse(odd.contains("172.32.0.0"))
        let v6 = try AddressRange(parsing: "fd00:ab::/32")
        XCTAssertTrue(v6.contains("fd00:ab:1::9"))
        XCTAssertFalse(v6.contains("fd00:ac::1"))
        XCTAssertTrue(try AddressRange(parsing: "::1").contains("0:0:0:0:0:0:0:1"))
        XCTAssertTrue(try AddressRange(parsing: "0.0.0.0/0").contains("8.8.8.8"))
        for bad in ["", "10.0.0", "10.0.0.256", "10.0.0.0/33", "fe80::/129", "1::2::3", "example.com", "10.0.0.0/x", "10.0.0.0/8/8"] {
            XCTAssertThrowsError(try AddressRange(parsing: bad), bad) { error in
                XCTAssertTrue((error as? DuoError)?.message.hasPrefix("--osc-allow") ?? false, "\(error)")
            }
        }
        XCTAssertTrue(AddressRange.isLoopback("127.0.0.1"))
        XCTAssertTrue(AddressRange.isLoopback("::1"))
        XCTAssertFalse(AddressRange.isLoopback("0.0.0.0"))
        XCTAssertFalse(AddressRange.isLoopback("::"))
        XCTAssertFalse(AddressRange.isLoopback("192.168.1.2"))
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
