import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX sockets for the tests, as a client program makes them: TCP to 127.0.0.1 or ::1, Unix
/// stream sockets (blocking or not), UDP; lines read with a deadline.
final class TestSocket {
    let fd: Int32
    private var pending = [UInt8]()

    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    /// A TCP connection to `host` (an IPv4 or IPv6 literal) and `port`.
    static func tcp(_ host: String, _ port: Int) throws -> TestSocket {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw DuoError.runtime("bad host \(host)") }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, 0)
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            close(fd)
            throw DuoError.runtime("cannot connect to \(host) \(port): \(String(cString: strerror(errno)))")
        }
        return TestSocket(fd: fd)
    }

    /// A Unix stream connection to `path`; `blocking: false` connects as a client with a timeout does
    /// (a full backlog is EAGAIN at once, not a wait).
    static func unix(_ path: String, blocking: Bool = true, receiveBuffer: Int32? = nil) throws -> TestSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | (blocking ? 0 : Int32(SOCK_NONBLOCK.rawValue)), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DuoError.runtime("cannot connect to \(path): \(reason)")
        }
        if !blocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        return TestSocket(fd: fd)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            rest = rest.dropFirst(n)
        }
    }

    /// The next line, or nil when the socket closed or nothing came within `seconds`.
    func line(within seconds: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            pending += buffer[0..<n]
        }
    }

    /// Whether the peer closed the connection within `seconds` (what was sent before is read and dropped).
    func closed(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while deadline.timeIntervalSinceNow > 0 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) >= 0 else { return false }
            if p.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n == 0 || (n < 0 && errno != EAGAIN) { return true }
            }
        }
        return false
    }
}

/// A UDP socket of one family sending to and receiving from `host`.
final class TestDatagrams {
    let fd: Int32
    private let address: [UInt8]

    init(_ host: String, _ port: Int) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw DuoError.runtime("bad host \(host)") }
        defer { freeaddrinfo(list) }
        fd = socket(first.pointee.ai_family, Int32(SOCK_DGRAM.rawValue), 0)
        address = Array(UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { data in
            address.withUnsafeBytes {
                sendto(fd, data.baseAddress, data.count, 0, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
            }
        }
    }

    /// The next datagram (nil: none within 10 s).
    func receive() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n >= 0 ? Array(buffer[0..<n]) : nil
    }
}

/// Lines a listener's handlers saw, from the loop's thread.
final class Seen: Sendable {
    private let lines = Locked<[String]>([])
    func add(_ line: String) { lines.update { $0.append(line) } }
    var all: [String] { lines.value }

    /// Waits (polling every 10 ms, at most `seconds`) until `done` holds for what was seen.
    func wait(_ seconds: Double = 10, until done: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !done(all) {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}
