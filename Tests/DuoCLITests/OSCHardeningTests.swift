@testable import DuoCLI
import DuoCore
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// OSC against floods and strangers (issue 35): every message of a bundle counts against the rate, a
/// bundle is carried out all or nothing, remote commands queue behind the operator's, and `--osc-allow`
/// keeps everyone else out (never answered). Real runs, real UDP, the control socket's own events.
final class OSCHardeningTests: XCTestCase {
    /// One datagram holding `count` OSC messages without type tags (16 bytes each: 4,000 fit in 64 KB).
    static func bundle(_ address: String, count: Int) -> [UInt8] {
        var out = Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1]
        var message = Array(address.utf8)
        message += [UInt8](repeating: 0, count: 4 - message.count % 4)
        for _ in 0..<count {
            out += [0, 0, 0, UInt8(message.count)]
            out += message
        }
        return out
    }

    /// The round trip of one operator command over the control socket: sent, then its `command` event.
    private func roundTrip(_ control: ControlClient) throws -> Double {
        let asked = Date()
        control.send(#"{"cmd":"font","step":1}"#)
        while try control.next("command")["source"] as? String != "control" {}
        return Date().timeIntervalSince(asked)
    }

    /// Bundles of 4,000 `/duo/mirror` messages, 50 a second for 3 s: the operator's
    /// command over the control socket is answered all along (median under a millisecond on a quiet machine;
    /// on the old code, every admitted datagram carried out its 4,000 mirrors and the command was not
    /// answered within 30 s), and the flood is refused whole, said in a line or two.
    func testABundleFloodNeverHoldsUpTheOperator() throws {
        let remote = try RemoteRun(self, script: RemoteControlTests.script)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)
        _ = try roundTrip(control)
        let flooding = Locked(true)
        let sent = Locked(0)
        let port = remote.oscPort
        let flood = Thread {
            let osc = OSCTestClient(port: port)
            let datagram = Self.bundle("/duo/mirror", count: 4_000)
            XCTAssertLessThanOrEqual(datagram.count, OSCMessage.maximumSize)
            // 50 bundles a second (200,000 messages a second): a flood, not a test of the loopback's speed.
            while flooding.value {
                osc.send(datagram)
                sent.update { $0 += 1 }
                usleep(20_000)
            }
        }
        flood.start()
        var trips: [Double] = []
        let until = Date().addingTimeInterval(3)
        while Date() < until {
            trips.append(try roundTrip(control))
        }
        flooding.set(false)
        trips.sort()
        let median = trips[trips.count / 2], worst = trips.last ?? 0
        func ms(_ q: Double) -> String { String(format: "%.1f", trips[min(trips.count - 1, Int(Double(trips.count) * q))] * 1000) }
        print("osc flood: \(sent.value) bundles of 4,000 messages; operator round trip over \(trips.count) commands: median \(ms(0.5)) ms, 90% \(ms(0.9)) ms, 99% \(ms(0.99)) ms, worst \(ms(1)) ms")
        XCTAssertGreaterThan(sent.value, 10)
        // Bounds far from both figures, so a loaded machine cannot fail it: on the old code the command was not
        // answered within the client's 30 s; here the median is under a millisecond on a quiet machine (the
        // printed line is the measurement).
        XCTAssertLessThan(median, 1, "the operator's command waited behind the flood: \(trips)")
        XCTAssertLessThan(worst, 5, "the operator's command waited behind the flood: \(trips)")
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let mirrors = remote.eventLines.filter { $0.contains(#""cmd":"mirror""#) && $0.contains(#""source":"osc""#) }
        XCTAssertEqual(mirrors.count, 0, "a bundle over 50 messages is refused whole")
        let said = remote.run.stderr.split(separator: "\n").filter { $0.contains("osc:") }
        XCTAssertTrue(said.contains { $0.contains("refused whole") }, said.joined(separator: "\n"))
        XCTAssertLessThan(said.count, 10, said.joined(separator: "\n"))
    }

    /// A bundle whose second message is unknown changes nothing (not even its first), a good bundle of 3 is
    /// carried out whole, and 3 bundles of 30 from one address in one instant are held to the rate (50 at once).
    func testABundleIsCarriedOutAllOrNothingAndEachMessageCounts() throws {
        let remote = try RemoteRun(self, script: RemoteControlTests.script)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)
        let osc = OSCTestClient(port: remote.oscPort)
        func bundle(_ messages: [OSCMessage]) -> [UInt8] {
            var out = Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1]
            for m in messages {
                let bytes = m.encoded()
                out += [0, 0, 0, UInt8(bytes.count)] + bytes
            }
            return out
        }
        osc.send(bundle([OSCMessage("/duo/pause"), OSCMessage("/duo/dance")]))
        osc.send(bundle([OSCMessage("/duo/font/up"), OSCMessage("/duo/font/up"), OSCMessage("/duo/font/down")]))
        var fonts = 0
        while fonts < 3 {
            let command = try control.next("command")
            XCTAssertNotEqual(command["cmd"] as? String, "pause", "the first message of a bad bundle was carried out")
            if command["cmd"] as? String == "font" { fonts += 1 }
        }
        for _ in 0..<3 { osc.send(Self.bundle("/duo/mirror", count: 30)) }
        var seen = 0
        while seen < 30 {
            let command = try control.next("command")
            if command["cmd"] as? String == "mirror", command["source"] as? String == "osc" { seen += 1 }
        }
        _ = try roundTrip(control)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let osced = remote.eventLines.filter { $0.contains(#""source":"osc""#) }
        XCTAssertFalse(osced.contains { $0.contains(#""cmd":"pause""#) }, osced.joined(separator: "\n"))
        let mirrors = osced.filter { $0.contains(#""cmd":"mirror""#) }.count
        XCTAssertTrue(mirrors == 30, "one bundle of 30 fits the burst left, the next two are refused whole: \(mirrors)")
        XCTAssertTrue(remote.run.stderr.contains("osc: unknown address /duo/dance"), remote.run.stderr)
    }

    /// `--osc-allow 10.9.8.0/24`: this machine's messages are dropped and never answered, said in one line;
    /// the start line says OSC has no authentication. Without it, a non-loopback address says so too.
    func testOnlyAllowedSendersAreTakenAndAnswered() throws {
        let remote = try RemoteRun(self, extra: ["--osc", "0.0.0.0:0", "--osc-allow", "10.9.8.0/24"])
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let start = remote.run.stderr.split(separator: "\n").first { $0.contains("OSC listening") } ?? ""
        XCTAssertTrue(start.contains("OSC has no authentication: taken only from 10.9.8.0/24"), String(start))
        let control = try ControlClient(path: remote.socketPath)
        let osc = OSCTestClient(port: remote.oscPort)
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(osc.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        osc.send(OSCMessage("/duo/state"))
        osc.send(OSCMessage("/duo/pause"))
        try remote.run.wait(for: "the refusal") { remote.run.stderr.contains("is not allowed by --osc-allow") }
        XCTAssertNil(osc.nextState(), "a sender outside --osc-allow got an answer")
        _ = try roundTrip(control)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        XCTAssertFalse(remote.eventLines.contains { $0.contains(#""source":"osc""#) })

        let open = try RemoteRun(self, extra: ["--osc", "0.0.0.0:0"])
        defer { if open.run.process.isRunning { open.run.process.terminate() } }
        let line = open.run.stderr.split(separator: "\n").first { $0.contains("OSC listening") } ?? ""
        XCTAssertTrue(line.contains("OSC has no authentication: anyone who can reach this port drives the run; limit the senders with --osc-allow"), String(line))
        let loopback = try RemoteRun(self)
        defer { if loopback.run.process.isRunning { loopback.run.process.terminate() } }
        XCTAssertFalse(loopback.run.stderr.contains("no authentication"), "loopback by default: nothing to warn about")
        XCTAssertTrue(loopback.run.stderr.contains("udp://127.0.0.1:"), loopback.run.stderr)
    }

    /// The director's queue: remote commands bounded (a bundle refused whole when it does not fit), and a
    /// local command queued behind remote ones is taken ahead of them, once.
    func testRemoteCommandsAreBoundedAndQueueBehindLocalOnes() {
        let inbox = RunInbox()
        XCTAssertTrue(inbox.sendRemote(Array(repeating: .command(.mirror, source: .osc), count: RunInbox.remoteLimit - 2)))
        XCTAssertFalse(inbox.sendRemote(Array(repeating: .command(.mirror, source: .osc), count: 3)), "all or none")
        inbox.send(.command(.pause, source: .control))
        XCTAssertTrue(inbox.sendRemote([.command(.mirror, source: .remote), .command(.mirror, source: .osc)]))
        XCTAssertFalse(inbox.sendRemote([.command(.mirror, source: .osc)]), "full")
        // The director's loop: the first remote command finds the local one queued behind it and takes it first.
        XCTAssertTrue(inbox.take(.command(.mirror, source: .osc)))
        XCTAssertEqual(inbox.nextAhead().map { "\($0)" }, "\(RunInput.command(.pause, source: .control))")
        XCTAssertNil(inbox.nextAhead())
        XCTAssertTrue(inbox.sendRemote([.command(.mirror, source: .osc)]), "one taken: room for one")
        for _ in 0..<(RunInbox.remoteLimit - 3) { XCTAssertTrue(inbox.take(.command(.mirror, source: .osc))) }
        XCTAssertFalse(inbox.take(.command(.pause, source: .control)), "carried out ahead already: skipped")
        inbox.send(.command(.record, source: .key))
        XCTAssertTrue(inbox.take(.command(.record, source: .key)), "a local command in its turn is carried out")
        XCTAssertNil(inbox.nextAhead())
    }
}

/// The web remote's WebSocket and page against other sites (issue 35): with the right token, a foreign
/// `Origin` (or `null`) and a `Host` naming another machine (DNS rebinding) are refused with 403 and
/// never open the socket; the page's own address and Origin still do.
final class WebRemoteOriginRunTests: XCTestCase {
    func testForeignOriginAndHostAreRefused() throws {
        let remote = try RemoteRun(self, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let own = "127.0.0.1:\(remote.webPort)"
        let ws = "/ws?token=\(remote.token)", page = "/?token=\(remote.token)"
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request(ws, upgrade: true, host: own, headers: ["Origin: http://evil.example"]), 403)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request(ws, upgrade: true, host: own, headers: ["Origin: null"]), 403)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request(ws, upgrade: true, host: "evil.example:\(remote.webPort)",
                                                                         headers: ["Origin: http://evil.example:\(remote.webPort)"]), 403)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request(page, upgrade: false, host: "evil.example:\(remote.webPort)"), 403)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request(ws, upgrade: true, host: own, headers: ["Origin: http://\(own)"]), 101)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request(page, upgrade: false, host: own), 200)
        XCTAssertEqual(remote.quit(try ControlClient(path: remote.socketPath)), 0, remote.run.stderr)
        XCTAssertTrue(remote.run.stderr.contains("refused: a WebSocket from another page"), remote.run.stderr)
    }
}

/// What the page hears (issue 35): take files by name, never their folders, no error event of another
/// client (a control client's failed command names its path), and the run's refusals of its own commands.
final class WebRemotePageEventsTests: XCTestCase {
    func testThePageHearsNoFoldersAndNoForeignErrors() throws {
        let remote = try RemoteRun(self, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let page = try remote.pageSocket()
        let control = try ControlClient(path: remote.socketPath)
        control.send(#"{"cmd":"script","path":"/nonexistent/secret-folder/talk.md"}"#)
        _ = try control.next("error")
        control.send(#"{"cmd":"record"}"#)
        let started = try page.next("take-started")
        let file = try XCTUnwrap(started["file"] as? String)
        XCTAssertFalse(file.contains("/"), file)
        XCTAssertTrue(file.hasSuffix(".mkv"), file)
        control.send(#"{"cmd":"stop"}"#)
        let ended = try page.next("take-ended")
        XCTAssertEqual(ended["file"] as? String, file)
        // The run's refusal of the page's own command reaches it (the control client's did not).
        page.sendText(#"{"cmd":"stop"}"#)
        let refused = try page.next("error")
        XCTAssertEqual(refused["message"] as? String, "control: nothing is recording", "\(refused)")
        XCTAssertEqual(refused["source"] as? String, "remote", "\(refused)")
        page.sendText(#"{"cmd":"reverse"}"#)
        let reply = try page.next("error")
        XCTAssertTrue((reply["message"] as? String ?? "").contains("reverse is not taken from a remote"), "\(reply)")
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let heard = String(decoding: page.received, as: UTF8.self)
        XCTAssertFalse(heard.contains(remote.dir), "a folder reached the page")
        XCTAssertFalse(heard.contains("secret-folder"), "another client's error reached the page")
    }
}
