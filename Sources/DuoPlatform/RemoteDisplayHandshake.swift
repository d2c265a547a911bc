import CGLib
import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The remote display's handshake over TCP (`RemoteDisplayHandshake`): the display's server answers each
/// sender that connects; the sender's client asks before it streams. The proof is an HMAC-SHA256 of the
/// challenge keyed by the passphrase (GLib's `g_compute_hmac_for_string`).
///
/// Thread: `RemoteDisplayHandshakeServer` serves on the network loop (`NetworkLoop`); `RemoteDisplayHandshakeClient.ask` blocks
/// its caller for at most its timeout (call it off any actor that must stay responsive).
public enum HandshakeWire {
    static func proof(passphrase: String, challenge: String) -> String {
        let key = Array(passphrase.utf8)
        return key.withUnsafeBufferPointer { k in
            guard let hex = g_compute_hmac_for_string(G_CHECKSUM_SHA256, k.baseAddress, gsize(k.count), challenge, -1) else { return "" }
            defer { g_free(hex) }
            return String(cString: hex)
        }
    }

    static func challenge() -> String { RandomToken.hex(bytes: 16) }

    /// One line (up to 4 KiB) from a socket before `deadline` (monotonic seconds, `now()`), or nil: a
    /// peer sending a byte now and then gets no more time than one sending nothing.
    static func readLine(_ fd: Int32, deadline: Double) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096 {
            let left = deadline - now()
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(max(1, min(left * 1000, 60_000))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard n == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }

    /// `value` as one JSON line (without its newline).
    static func line<T: Encodable>(_ value: T) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
    }

    static func writeLine<T: Encodable>(_ fd: Int32, _ value: T) {
        guard var data = try? JSONEncoder().encode(value) else { return }
        data.append(10)
        _ = data.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    static func setTimeout(_ fd: Int32, seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - floor(seconds)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// The display's side: answers every sender that connects to TCP `port` (IPv4 and IPv6) with its size
/// and challenge, judges the answer, proves its own passphrase back, and reports refusals (a wrong
/// passphrase) to `onRefused`: the first few per address and minute one by one, the rest summed up in
/// `onSummary` (address, count) and answered ever later (`HandshakeRefusals`).
///
/// Senders are served side by side on the network loop (`StreamListener`), at most `Limits.connections`
/// at once (4 per address: the one `Admission`), and each gets `Limits.hello` seconds in all to answer:
/// an idle or trickling connection keeps nobody else out.
///
/// Thread: `stop()` from any thread; the callbacks come on the network loop's thread.
public final class RemoteDisplayHandshakeServer: Sendable {
    public struct Limits: Sendable {
        public var connections = 16
        public var perAddress = 4
        /// Seconds a sender has for the whole exchange (reading the hello, answering).
        public var hello = 3.0
        public init() {}

        var listen: ListenLimits {
            var limits = ListenLimits.displayHandshake
            limits.clients = connections
            limits.perAddress = perAddress
            return limits
        }
    }

    /// The senders being served (their hello, whether they answered) and the refusals, on the loop.
    private struct Served: Sendable {
        var greetings: [StreamClient: RemoteDisplayHandshake.Hello] = [:]
        var refusals = HandshakeRefusals()
        var stopped = false
    }

    private let listener: StreamListener
    private let served: Locked<Served>
    private let onSummary: @Sendable (String, Int) -> Void

    public init(port: Int, width: Int, height: Int, refresh: Int, passphrase: String?, limits: Limits = Limits(),
                onRefused: @escaping @Sendable (String, String) -> Void,
                onSummary: @escaping @Sendable (String, Int) -> Void = { _, _ in }) throws(DuoError) {
        let served = Locked(Served())
        self.served = served
        self.onSummary = onSummary
        let answer: @Sendable (StreamClient, String) -> Void = { client, line in
            guard let greeting = served.update({ $0.greetings.removeValue(forKey: client) }) else { return }
            guard let answer = try? JSONDecoder().decode(RemoteDisplayHandshake.Answer.self, from: Data(line.utf8)) else {
                return client.close()
            }
            var verdict = RemoteDisplayHandshake.judge(answer, expected: passphrase.map { HandshakeWire.proof(passphrase: $0, challenge: greeting.challenge) })
            guard verdict.ok else {
                let (say, delay) = served.update { $0.refusals.refuse(client.address, at: HandshakeWire.now()) }
                if say, let reason = verdict.reason { onRefused(client.address, reason) }
                let refusal = verdict
                client.after(delay) { client in
                    client.send(HandshakeWire.line(refusal))
                    client.close()
                }
                return
            }
            if let passphrase, let theirs = answer.challenge, theirs.utf8.count <= 256 {
                verdict.proof = HandshakeWire.proof(passphrase: passphrase,
                                                    challenge: RemoteDisplayHandshake.displayProofText(greeting, senderChallenge: theirs))
            }
            client.send(HandshakeWire.line(verdict))
            client.close()
        }
        let hello = limits.hello
        listener = try StreamListener.tcp(port: port, limits: limits.listen, handlers: .init(opened: { client in
            let greeting = RemoteDisplayHandshake.Hello(width: width, height: height, refresh: refresh, encrypted: passphrase != nil,
                                                        challenge: HandshakeWire.challenge())
            served.update { $0.greetings[client] = greeting }
            client.send(HandshakeWire.line(greeting))
            // The whole exchange within `hello` seconds: a sender that has not answered by then is closed.
            client.after(hello) { client in
                if served.update({ $0.greetings.removeValue(forKey: client) }) != nil { client.close() }
            }
        }, line: answer, tooLong: { client in
            served.update { _ = $0.greetings.removeValue(forKey: client) }
            client.close()
        }), failure: { _ in
            .runtime(.text("TCP port %s is in use (the display answers senders there, beside SRT's UDP port); pick another --listen port", port))
        })
        NetworkLoop.shared.every(0.5) {
            let (stopped, due) = served.update { s in (s.stopped, s.stopped ? [] : s.refusals.due(at: HandshakeWire.now())) }
            for (who, count) in due { onSummary(who, count) }
            return !stopped
        }
    }

    /// Stops accepting (the port is free when it returns) and closes the senders being served;
    /// refusals not yet summed up are summed up now.
    public func stop() {
        let due = served.update { s -> [(address: String, count: Int)] in
            guard !s.stopped else { return [] }
            s.stopped = true
            return s.refusals.due(at: HandshakeWire.now(), flush: true)
        }
        listener.stop()
        for (who, count) in due { onSummary(who, count) }
    }
}

/// The sender's side of the handshake.
///
/// Thread: blocking; call from a detached task.
public enum RemoteDisplayHandshakeClient {
    /// The display's monitor (DuoCore's `RemoteDisplayAnswer.Monitor`, the director's port's word).
    public typealias Display = RemoteDisplayAnswer.Monitor
    /// What the display answered: accepted with its monitor, refused (a wrong passphrase, encryption on one
    /// end only, no proof of the passphrase, a monitor that makes no sense: `reason`, safe to print, a
    /// display's own words escaped by `TerminalText`), or unreachable (nothing answers there yet).
    public typealias Outcome = RemoteDisplayAnswer

    /// Asks the display at `address`. Nothing it says is believed before it proved the passphrase (when
    /// there is one); its size is then made one the sender can render (`RemoteDisplayHandshake.renderSize`).
    /// `timeout`: for connecting and the hello; `verdictTimeout`: for the verdict, which a display holds
    /// back after repeated refusals.
    public static func ask(_ address: SRTAddress, passphrase: String?, timeout: Double = 1.5, verdictTimeout: Double = 10) -> Outcome {
        guard let host = address.host else { return .unreachable("a listening address has no display to ask") }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(address.port), &hints, &list) == 0, let first = list else {
            return .unreachable("cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return .unreachable("cannot open a socket") }
        defer { close(fd) }
        HandshakeWire.setTimeout(fd, seconds: timeout)
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return .unreachable("no duo-capture display answers at \(host):\(address.port)")
        }
        guard let line = HandshakeWire.readLine(fd, deadline: HandshakeWire.now() + timeout),
              let hello = try? JSONDecoder().decode(RemoteDisplayHandshake.Hello.self, from: Data(line.utf8)) else {
            return .unreachable("\(host):\(address.port) is not a duo-capture display")
        }
        let mine = HandshakeWire.challenge()
        HandshakeWire.writeLine(fd, RemoteDisplayHandshake.Answer(proof: passphrase.map { HandshakeWire.proof(passphrase: $0, challenge: hello.challenge) },
                                                        challenge: passphrase == nil ? nil : mine))
        guard let reply = HandshakeWire.readLine(fd, deadline: HandshakeWire.now() + verdictTimeout),
              let verdict = try? JSONDecoder().decode(RemoteDisplayHandshake.Verdict.self, from: Data(reply.utf8)) else {
            return .unreachable("the display at \(host):\(address.port) did not answer")
        }
        guard verdict.ok else { return .refused(TerminalText.escaped(verdict.reason ?? "refused")) }
        if let passphrase {
            let expected = HandshakeWire.proof(passphrase: passphrase, challenge: RemoteDisplayHandshake.displayProofText(hello, senderChallenge: mine))
            guard verdict.proof == expected else {
                return .refused("the display at \(host):\(address.port) did not prove it holds the passphrase (an older duo-capture "
                                + "display, or not a duo-capture display); update it, and give both ends the same --passphrase-file")
            }
        }
        guard let size = RemoteDisplayHandshake.renderSize(width: hello.width, height: hello.height) else {
            return .refused("the display at \(host):\(address.port) reported a monitor of \(hello.width)x\(hello.height), which no monitor has; "
                            + "check that machine's monitor (duo-capture monitors)")
        }
        return .accepted(Display(width: size.width, height: size.height, refresh: RemoteDisplayHandshake.refresh(hello.refresh)))
    }
}
