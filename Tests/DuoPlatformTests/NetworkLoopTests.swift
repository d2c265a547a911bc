import DuoCore
import DuoPlatform
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The network loop's listeners on loopback, driven by plain client sockets: TCP over IPv4 and IPv6 on
/// one port, many Unix clients connecting at once, a long line said once, a client that stops reading
/// dropped while the others get every line, UDP over IPv6.
final class NetworkLoopTests: XCTestCase {
    /// A listener that answers each line with who sent it.
    private func echo(_ seen: Seen) -> StreamListener.Handlers {
        .init(opened: { seen.add("opened \($0.address)") },
              line: { client, line in client.send("\(client.address) said \(line)") },
              tooLong: { client in client.send("too long") })
    }

    private func socketPath() throws -> String { "\(try temporaryDirectory(self))/s.sock" }

    func testOneTCPPortServesIPv4AndIPv6ClientsSideBySide() throws {
        let seen = Seen()
        let listener = try StreamListener.tcp(port: 0, limits: ListenLimits(longest: 64), handlers: echo(seen), failure: { .runtime($0) })
        defer { listener.stop() }
        XCTAssertGreaterThan(listener.port, 0)
        let idle = try TestSocket.tcp("127.0.0.1", listener.port)   // connected, says nothing: holds nobody up
        let v6 = try TestSocket.tcp("::1", listener.port)
        let v4 = try TestSocket.tcp("127.0.0.1", listener.port)
        v6.send("hello\n")
        v4.send("hi there\n")
        XCTAssertEqual(v6.line(), "::1 said hello")
        XCTAssertEqual(v4.line(), "127.0.0.1 said hi there", "an IPv4 peer is named as IPv4, not ::ffff:")
        v4.send(String(repeating: "x", count: 100_000) + "\nafter\n")
        XCTAssertEqual(v4.line(), "too long", "a long line is said once")
        XCTAssertEqual(v4.line(), "127.0.0.1 said after", "and the next line is taken")
        XCTAssertEqual(seen.all.filter { $0.hasPrefix("opened") }.count, 3)
        _ = idle
        listener.stop()
        XCTAssertTrue(v6.closed(within: 5), "stop closes every client")
        XCTAssertThrowsError(try TestSocket.tcp("::1", listener.port), "and the port")
    }

    func testTheDisplayHandshakesLimitsAreKeptPerAddress() throws {
        let seen = Seen()
        let listener = try StreamListener.tcp(port: 0, limits: .displayHandshake, handlers: echo(seen), failure: { .runtime($0) })
        defer { listener.stop() }
        let held = try (0..<4).map { _ in try TestSocket.tcp("127.0.0.1", listener.port) }
        XCTAssertTrue(seen.wait { $0.count == 4 })
        let fifth = try TestSocket.tcp("127.0.0.1", listener.port)
        XCTAssertTrue(fifth.closed(within: 5), "a fifth connection from one address is closed at once")
        let other = try TestSocket.tcp("::1", listener.port)
        other.send("still here\n")
        XCTAssertEqual(other.line(), "::1 said still here", "another address is let in")
        _ = held
    }

    /// A listener with a rate per address (the web remote's and OSC's kind of limit) drops the lines
    /// beyond it; a client from another address is not held back.
    func testLinesBeyondTheRatePerAddressAreDropped() throws {
        let seen = Seen()
        let limits = ListenLimits(longest: 64, rate: 0.5, burst: 3)
        let listener = try StreamListener.tcp(port: 0, limits: limits, handlers: .init(line: { client, line in
            seen.add("\(client.address) \(line)")
        }), failure: { .runtime($0) })
        defer { listener.stop() }
        let flooding = try TestSocket.tcp("127.0.0.1", listener.port)
        flooding.send((0..<20).map { "line \($0)\n" }.joined())
        let other = try TestSocket.tcp("::1", listener.port)
        other.send("from elsewhere\n")
        // The 20 lines came in one read, judged one after another: once 3 are seen, all were judged.
        XCTAssertTrue(seen.wait { $0.contains("::1 from elsewhere") && $0.filter { $0.hasPrefix("127.0.0.1") }.count >= 3 })
        XCTAssertEqual(seen.all.filter { $0.hasPrefix("127.0.0.1") }, ["127.0.0.1 line 0", "127.0.0.1 line 1", "127.0.0.1 line 2"],
                       "a burst of 3, then one every 2 s")
    }

    /// 64 clients connect at once, without waiting (a client with a connect timeout gets EAGAIN from a
    /// full backlog instead of waiting), each is answered on its own connection, and a broadcast reaches
    /// every one in order.
    func testManyUnixClientsConnectingAtOnceAreAllServed() throws {
        let path = try socketPath()
        let seen = Seen()
        let fd = try UnixSocketFile.listen(path: path, option: "test")
        let listener = try StreamListener.unix(fd: fd, limits: .control, handlers: echo(seen))
        defer { listener.stop() }
        let clients = try (0..<64).map { _ in try TestSocket.unix(path, blocking: false) }
        for (i, client) in clients.enumerated() { client.send("I am \(i)\n") }
        for (i, client) in clients.enumerated() { XCTAssertEqual(client.line(), "local said I am \(i)") }
        XCTAssertEqual(listener.clients, 64)
        for n in 0..<100 { listener.broadcast("event \(n)") }
        for client in clients {
            XCTAssertEqual((0..<100).map { _ in client.line() ?? "-" }, (0..<100).map { "event \($0)" })
        }
    }

    /// A client that never reads is dropped once its socket is full (with the fell-behind line when there
    /// is room), while a client that reads gets every line in order.
    func testAClientThatStopsReadingIsDroppedAndTheOthersGetEveryLine() throws {
        let path = try socketPath()
        let fd = try UnixSocketFile.listen(path: path, option: "test")
        let listener = try StreamListener.unix(fd: fd, limits: .control, fellBehind: "fell behind", handlers: echo(Seen()))
        defer { listener.stop() }
        let stuck = try TestSocket.unix(path, receiveBuffer: 4_096)
        let reader = try TestSocket.unix(path)
        XCTAssertTrue(Seen().wait { _ in listener.clients == 2 })
        let payload = String(repeating: "p", count: 200)
        var received: [String] = []
        for batch in 0..<40 {
            for n in 0..<50 { listener.broadcast("\(batch * 50 + n) \(payload)") }
            for _ in 0..<50 { received.append(reader.line() ?? "-") }
        }
        XCTAssertEqual(received, (0..<2_000).map { "\($0) \(payload)" }, "the reading client got all 2,000 lines in order")
        XCTAssertTrue(stuck.closed(within: 5), "the client that never read was dropped")
        XCTAssertEqual(listener.clients, 1)
    }

    func testDatagramsOverIPv6AndIPv4AreAnsweredWhereTheyCameFrom() throws {
        let seen = Seen()
        let box = Locked<DatagramListener?>(nil)
        let listener = try DatagramListener(hosts: ["127.0.0.1", "::1"], port: 0, longest: 100, failure: { host, reason in
            .usage("\(host ?? "-"): \(reason)")
        }, received: { bytes, peer in
            seen.add("\(peer.address) \(String(decoding: bytes, as: UTF8.self))")
            box.value?.reply(Array("back to \(peer.description)".utf8), to: peer)
        })
        box.set(listener)
        defer { listener.close() }
        XCTAssertEqual(listener.listening.count, 2)
        let port = Int(listener.listening[0].split(separator: ":").last!)!
        XCTAssertEqual(listener.listening, ["127.0.0.1:\(port)", "[::1]:\(port)"], "one port for both")
        let v6 = try TestDatagrams("::1", port)
        v6.send(Array("over six".utf8))
        let answer6 = String(decoding: try XCTUnwrap(v6.receive()), as: UTF8.self)
        XCTAssertTrue(answer6.hasPrefix("back to [::1]:"), answer6)
        let v4 = try TestDatagrams("127.0.0.1", port)
        v4.send(Array("over four".utf8))
        let answer4 = String(decoding: try XCTUnwrap(v4.receive()), as: UTF8.self)
        XCTAssertTrue(answer4.hasPrefix("back to 127.0.0.1:"), answer4)
        XCTAssertEqual(seen.all, ["::1 over six", "127.0.0.1 over four"])
        XCTAssertThrowsError(try DatagramListener(hosts: ["not-an-address"], port: 0, longest: 10, failure: { host, reason in
            .usage("\(host ?? "-"): \(reason)")
        }, received: { _, _ in })) { error in
            XCTAssertEqual((error as? DuoError)?.message, "not-an-address: no IP address")
        }
    }
}
