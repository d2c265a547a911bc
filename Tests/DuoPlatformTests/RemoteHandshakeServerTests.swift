import DuoCore
import DuoPlatform
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The display's handshake server (`duo-capture display --listen`'s TCP side) on loopback, asked by the
/// sender's real client: a peer that connects and says nothing, or a byte now and then, keeps no sender
/// out; wrong passphrases are answered ever later and summed up instead of logged one by one.
final class RemoteHandshakeServerTests: XCTestCase {
    private let passphrase = "correct-horse-battery"

    /// A TCP port free now on loopback.
    private func freePort() throws -> Int {
        for _ in 0..<20 {
            let port = 20000 + Int.random(in: 0..<20000)
            let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = in6addr_any
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
            if bound == 0 { return port }
        }
        throw DuoError.runtime("no free port")
    }

    /// A plain TCP connection to the server, as a careless or hostile peer makes it.
    private func connectRaw(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw DuoError.runtime("cannot connect to \(port)") }
        return fd
    }

    /// Records from the server's threads.
    final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    /// One idle connection and one sending a byte every second: 15 senders in a row are all accepted at
    /// once, and the trickling one is closed within the whole-hello deadline. (Served one at a time, the
    /// idle connection made the next sender time out and the trickle locked every sender out.)
    func testAnIdleOrTricklingPeerLocksNobodyOut() throws {
        let port = try freePort()
        let server = try RemoteDisplayHandshakeServer(port: port, width: 1281, height: 721, refresh: 60, passphrase: passphrase,
                                               onRefused: { _, _ in })
        defer { server.stop() }
        let idle = try connectRaw(port)
        defer { close(idle) }
        let trickle = try connectRaw(port)
        defer { close(trickle) }
        let closedAfter = Said()
        let started = Date()
        let trickling = Thread {
            // One byte a second for up to 10 s, until the server closes the connection.
            for _ in 0..<10 {
                var byte: UInt8 = 0x20
                guard send(trickle, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
                var p = pollfd(fd: trickle, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 1000) > 0 {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    // The hello arrives first; a 0 read is the server closing.
                    while poll(&p, 1, 0) > 0 { if recv(trickle, &buffer, buffer.count, 0) <= 0 { closedAfter.add("\(Date().timeIntervalSince(started))"); return } }
                }
            }
        }
        trickling.start()
        var accepted = 0
        let asking = Date()
        for _ in 0..<15 {
            if case .accepted(let display) = RemoteDisplayHandshakeClient.ask(SRTAddress(host: "127.0.0.1", port: port), passphrase: passphrase) {
                accepted += 1
                XCTAssertEqual(display, RemoteDisplayHandshakeClient.Display(width: 1280, height: 720, refresh: 60), "an odd monitor is rendered for at an even size")
            }
        }
        XCTAssertEqual(accepted, 15, "every sender is accepted though two peers hold connections open")
        XCTAssertLessThan(Date().timeIntervalSince(asking), 5, "and at once")
        let deadline = Date().addingTimeInterval(8)
        while closedAfter.all.isEmpty && Date() < deadline { usleep(20_000) }
        let closed = try XCTUnwrap(Double(closedAfter.all.first ?? ""), "the trickling peer was never closed")
        XCTAssertLessThan(closed, 4.5, "a peer trickling bytes gets the same few seconds in all as an idle one")
    }

    /// Six wrong passphrases in a row: the first three are said one by one and answered at once, the
    /// next ones later and later (0.5 s, 1 s, 2 s) and summed up in one line; the right passphrase from
    /// the same address is still accepted at once.
    func testWrongPassphrasesAreSlowedAndSummedUp() throws {
        let port = try freePort()
        let said = Said(), summed = Said()
        let server = try RemoteDisplayHandshakeServer(port: port, width: 1280, height: 720, refresh: 60, passphrase: passphrase,
                                               onRefused: { who, reason in said.add("\(who): \(reason)") },
                                               onSummary: { who, count in summed.add(HandshakeRefusals.summary(address: who, count: count)) })
        var seconds: [Double] = []
        for _ in 0..<6 {
            let start = Date()
            let outcome = RemoteDisplayHandshakeClient.ask(SRTAddress(host: "127.0.0.1", port: port), passphrase: "not-the-right-one")
            seconds.append(Date().timeIntervalSince(start))
            XCTAssertEqual(outcome, .refused("wrong passphrase; give both ends the same --passphrase-file (or DUO_SRT_PASSPHRASE)"))
        }
        XCTAssertEqual(said.all.count, 3, "only the first few are said one by one: \(said.all)")
        XCTAssertTrue(said.all.allSatisfy { $0.hasPrefix("127.0.0.1: wrong passphrase") }, "\(said.all)")
        XCTAssertLessThan(seconds[0..<3].max()!, 0.4, "the first refusals are answered at once: \(seconds)")
        XCTAssertGreaterThanOrEqual(seconds[3], 0.45, "\(seconds)")
        XCTAssertGreaterThanOrEqual(seconds[4], 0.95, "\(seconds)")
        XCTAssertGreaterThanOrEqual(seconds[5], 1.95, "each later than the last: \(seconds)")
        let start = Date()
        guard case .accepted = RemoteDisplayHandshakeClient.ask(SRTAddress(host: "127.0.0.1", port: port), passphrase: passphrase) else {
            return XCTFail("the right passphrase is accepted")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.4, "and at once")
        server.stop()
        XCTAssertEqual(summed.all, ["refused 3 more wrong passphrases from 127.0.0.1 in the last minute (each answered later than the last)"])
    }
}
