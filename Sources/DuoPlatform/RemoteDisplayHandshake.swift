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
/// Thread: `RemoteDisplayHandshakeServer` accepts on a thread of its own; `RemoteDisplayHandshakeClient.ask` blocks
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

    static func challenge() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

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

/// The display's side: answers every sender that connects to TCP `port` with its size and challenge,
/// judges the answer, proves its own passphrase back, and reports refusals (a wrong passphrase) to
/// `onRefused`: the first few per address and minute one by one, the rest summed up in `onSummary`
/// (address, count) and answered ever later (`HandshakeRefusals`).
///
/// Each sender is served on a thread of its own, at most `Limits.connections` at once (4 per address),
/// and gets `Limits.hello` seconds in all to answer: an idle or trickling connection keeps nobody else
/// out.
///
/// Thread: accepts on a thread of its own, serves each connection on its own thread; `stop()` from
/// any thread; the callbacks come on those threads.
public final class RemoteDisplayHandshakeServer: Sendable {
    public struct Limits: Sendable {
        public var connections = 16
        public var perAddress = 4
        /// Seconds a sender has for the whole exchange (reading the hello, answering).
        public var hello = 3.0
        public init() {}
    }

    /// What the server threads share, behind a mutex (`Locked`).
    ///
    /// Thread: any.
    private final class Shared: Sendable {
        private struct State: Sendable {
            var active = 0
            var byAddress: [String: Int] = [:]
            var refusals = HandshakeRefusals()
        }
        private let state = Locked(State())

        func admit(_ who: String, _ limits: Limits) -> Bool {
            var admitted = false
            state.update { s in
                guard s.active < limits.connections, s.byAddress[who, default: 0] < limits.perAddress else { return }
                s.active += 1
                s.byAddress[who, default: 0] += 1
                admitted = true
            }
            return admitted
        }

        func leave(_ who: String) {
            state.update { s in
                s.active -= 1
                s.byAddress[who, default: 1] -= 1
                if s.byAddress[who] == 0 { s.byAddress[who] = nil }
            }
        }

        func refuse(_ who: String) -> (say: Bool, delay: Double) {
            var answer: (say: Bool, delay: Double) = (false, 0)
            state.update { answer = $0.refusals.refuse(who, at: HandshakeWire.now()) }
            return answer
        }
        func due(flush: Bool) -> [(address: String, count: Int)] {
            var due: [(address: String, count: Int)] = []
            state.update { due = $0.refusals.due(at: HandshakeWire.now(), flush: flush) }
            return due
        }
    }

    private let fd: Int32
    private let stopped = StopFlag()
    private let finished = DispatchSemaphore(value: 0)

    public init(port: Int, width: Int, height: Int, refresh: Int, passphrase: String?, limits: Limits = Limits(),
                onRefused: @escaping @Sendable (String, String) -> Void,
                onSummary: @escaping @Sendable (String, Int) -> Void = { _, _ in }) throws(DuoError) {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .runtime("cannot open a TCP socket for the display's handshake") }
        var on: Int32 = 1, off: Int32 = 0
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_any
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        guard bound == 0, listen(fd, 32) == 0 else {
            close(fd)
            throw .runtime("TCP port \(port) is in use (the display answers senders there, beside SRT's UDP port); pick another --listen port")
        }
        self.fd = fd
        let stopped = self.stopped, finished = self.finished, shared = Shared()
        let serve: @Sendable (Int32, String) -> Void = { client, who in
            let deadline = HandshakeWire.now() + limits.hello
            HandshakeWire.setTimeout(client, seconds: 1)
            let greeting = RemoteDisplayHandshake.Hello(width: width, height: height, refresh: refresh, encrypted: passphrase != nil,
                                                 challenge: HandshakeWire.challenge())
            HandshakeWire.writeLine(client, greeting)
            guard let line = HandshakeWire.readLine(client, deadline: deadline),
                  let answer = try? JSONDecoder().decode(RemoteDisplayHandshake.Answer.self, from: Data(line.utf8)) else { return }
            var verdict = RemoteDisplayHandshake.judge(answer, expected: passphrase.map { HandshakeWire.proof(passphrase: $0, challenge: greeting.challenge) })
            guard verdict.ok else {
                let (say, delay) = shared.refuse(who)
                if say, let reason = verdict.reason { onRefused(who, reason) }
                let until = HandshakeWire.now() + delay
                while HandshakeWire.now() < until && !stopped.isSet { usleep(20_000) }
                HandshakeWire.writeLine(client, verdict)
                return
            }
            if let passphrase, let theirs = answer.challenge, theirs.utf8.count <= 256 {
                verdict.proof = HandshakeWire.proof(passphrase: passphrase,
                                                 challenge: RemoteDisplayHandshake.displayProofText(greeting, senderChallenge: theirs))
            }
            HandshakeWire.writeLine(client, verdict)
        }
        let thread = Thread {
            defer {
                for (who, count) in shared.due(flush: true) { onSummary(who, count) }
                close(fd)
                finished.signal()
            }
            while !stopped.isSet {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, 500)
                for (who, count) in shared.due(flush: false) { onSummary(who, count) }
                guard !stopped.isSet else { return }
                guard ready > 0 else { continue }
                var peer = sockaddr_in6()
                var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                let client = withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &length) }
                }
                guard client >= 0 else { continue }
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                var addr = peer.sin6_addr
                inet_ntop(AF_INET6, &addr, &text, socklen_t(INET6_ADDRSTRLEN))
                let who = String(cString: text).replacingOccurrences(of: "::ffff:", with: "")
                // Too many at once (from anywhere, or from this address): closed at once, tried again later.
                guard shared.admit(who, limits) else { close(client); continue }
                let worker = Thread {
                    serve(client, who)
                    close(client)
                    shared.leave(who)
                }
                worker.name = "duo-display-sender"
                worker.start()
            }
        }
        thread.name = "duo-display-handshake"
        thread.start()
    }

    /// Stops accepting (the port is free when it returns); senders being served finish within their
    /// deadline; refusals not yet summed up are summed up now.
    public func stop() {
        guard !stopped.isSet else { return }
        stopped.set()
        shutdown(fd, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 2)
    }
}

/// The sender's side of the handshake.
///
/// Thread: blocking; call from a detached task.
public enum RemoteDisplayHandshakeClient {
    public struct Display: Sendable, Equatable {
        public let width: Int
        public let height: Int
        public let refresh: Int
        public init(width: Int, height: Int, refresh: Int) {
            self.width = width
            self.height = height
            self.refresh = refresh
        }
    }

    public enum Outcome: Sendable, Equatable {
        case accepted(Display)
        /// The display said no (a wrong passphrase, encryption on one end only), or it could not prove
        /// it holds the passphrase, or its monitor makes no sense: `reason` (safe to print: a display's
        /// own words are escaped by `TerminalText`).
        case refused(String)
        /// Nothing answers there (yet).
        case unreachable(String)
    }

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
