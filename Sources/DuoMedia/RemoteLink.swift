import CGStreamer
import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The remote display's handshake over TCP (`RemoteHandshake`): the display's server answers each
/// sender that connects; the sender's client asks before it streams. The proof is an HMAC-SHA256 of the
/// challenge keyed by the passphrase (GLib's `g_compute_hmac_for_string`).
///
/// Thread: `RemoteHandshakeServer` accepts on a thread of its own; `RemoteHandshakeClient.ask` blocks
/// its caller for at most its timeout (call it off any actor that must stay responsive).
public enum RemoteLink {
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

    /// One line (up to 4 KiB) from a socket, or nil.
    static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096 {
            let n = recv(fd, &byte, 1, 0)
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
}

/// The display's side: answers every sender that connects to TCP `port` with its size and challenge,
/// judges the answer, and reports refusals (a wrong passphrase) to `onRefused`.
///
/// Thread: accepts and answers on a thread of its own; `stop()` from any thread.
public final class RemoteHandshakeServer: @unchecked Sendable {
    private let fd: Int32
    private let thread: Thread
    private let stopped = StopFlag()

    public init(port: Int, width: Int, height: Int, refresh: Int, passphrase: String?,
                onRefused: @escaping @Sendable (String, String) -> Void) throws(DuoError) {
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
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw .runtime("TCP port \(port) is in use (the display answers senders there, beside SRT's UDP port); pick another --listen port")
        }
        self.fd = fd
        let expected: @Sendable (String) -> String? = { challenge in passphrase.map { RemoteLink.proof(passphrase: $0, challenge: challenge) } }
        let hello: @Sendable () -> RemoteHandshake.Hello = {
            RemoteHandshake.Hello(width: width, height: height, refresh: refresh, encrypted: passphrase != nil, challenge: RemoteLink.challenge())
        }
        let stopped = self.stopped
        thread = Thread {
            while !stopped.isSet {
                var peer = sockaddr_in6()
                var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
                let client = withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &length) }
                }
                guard client >= 0 else { if stopped.isSet { return } else { continue } }
                var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                var addr = peer.sin6_addr
                inet_ntop(AF_INET6, &addr, &text, socklen_t(INET6_ADDRSTRLEN))
                let who = String(cString: text).replacingOccurrences(of: "::ffff:", with: "")
                RemoteLink.setTimeout(client, seconds: 2)
                let greeting = hello()
                RemoteLink.writeLine(client, greeting)
                if let line = RemoteLink.readLine(client),
                   let answer = try? JSONDecoder().decode(RemoteHandshake.Answer.self, from: Data(line.utf8)) {
                    let verdict = RemoteHandshake.judge(answer, expected: expected(greeting.challenge))
                    RemoteLink.writeLine(client, verdict)
                    if !verdict.ok, let reason = verdict.reason { onRefused(who, reason) }
                }
                close(client)
            }
        }
        thread.name = "duo-display-handshake"
        thread.start()
    }

    public func stop() {
        stopped.set()
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

/// The sender's side of the handshake.
///
/// Thread: blocking; call from a detached task.
public enum RemoteHandshakeClient {
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
        /// The display said no (a wrong passphrase, encryption on one end only): `reason`.
        case refused(String)
        /// Nothing answers there (yet).
        case unreachable(String)
    }

    public static func ask(_ address: SRTAddress, passphrase: String?, timeout: Double = 1.5) -> Outcome {
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
        RemoteLink.setTimeout(fd, seconds: timeout)
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return .unreachable("no duo-capture display answers at \(host):\(address.port)")
        }
        guard let line = RemoteLink.readLine(fd),
              let hello = try? JSONDecoder().decode(RemoteHandshake.Hello.self, from: Data(line.utf8)) else {
            return .unreachable("\(host):\(address.port) is not a duo-capture display")
        }
        RemoteLink.writeLine(fd, RemoteHandshake.Answer(proof: passphrase.map { RemoteLink.proof(passphrase: $0, challenge: hello.challenge) }))
        guard let reply = RemoteLink.readLine(fd),
              let verdict = try? JSONDecoder().decode(RemoteHandshake.Verdict.self, from: Data(reply.utf8)) else {
            return .unreachable("the display at \(host):\(address.port) did not answer")
        }
        guard verdict.ok else { return .refused(verdict.reason ?? "refused") }
        return .accepted(Display(width: hello.width, height: hello.height, refresh: hello.refresh))
    }
}

/// A flag set once, read from another thread.
///
/// Thread: any.
final class StopFlag: @unchecked Sendable {
    private let lock = Lock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
