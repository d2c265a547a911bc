import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The OSC port (`--osc [ADDRESS:]PORT`): a UDP socket read by a thread of its own. Each datagram is
/// handed to `received` with who sent it; `reply` sends a datagram back (OSC feedback, `/duo/state`).
/// The packets are parsed in DuoCore (`OSCMessage`), not here.
///
/// Thread: one reader thread ("duo-capture osc") calls `received`; `reply` and `close` from any thread.
public final class OSCSocket: Sendable {
    /// Who sent a datagram: its socket address (to reply to) and how the log names it.
    ///
    /// Thread: value type, Sendable.
    public struct Peer: Sendable, Equatable {
        let raw: [UInt8]
        public let description: String
    }

    private let fd: Int32
    private let stopped = Locked(false)
    /// Where the socket listens, such as `127.0.0.1:9000`.
    public let listening: String

    /// Binds `host` (an IPv4 address; nil: 127.0.0.1) and `port` (0: any free one).
    public init(host: String?, port: Int, received: @escaping @Sendable ([UInt8], Peer) -> Void) throws(DuoError) {
        let given = "\(host.map { "\($0):" } ?? "")\(port)"
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host ?? "127.0.0.1", &address.sin_addr) == 1 else {
            throw .usage("--osc \(given): \(host ?? "") is no IPv4 address; give one such as 0.0.0.0 (every interface) or 192.168.1.20")
        }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { Glibc.close(fd) }
            throw .usage("--osc \(given): cannot listen (\(reason)); give another port")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        listening = "\(host ?? "127.0.0.1"):\(UInt16(bigEndian: actual.sin_port))"
        let stopped = self.stopped
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: OSCMessage.maximumSize + 1)
            while !stopped.value {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 200) > 0 else { continue }
                var peer = sockaddr_storage()
                var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let n = buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &peer) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT), $0, &peerLength) }
                    }
                }
                guard n >= 0 else { continue }
                let raw = withUnsafeBytes(of: &peer) { Array($0.prefix(Int(peerLength))) }
                received(Array(buffer[0..<n]), Peer(raw: raw, description: Self.describe(peer)))
            }
            Glibc.close(fd)
        }
        reader.name = "duo-capture osc"
        reader.start()
    }

    private static func describe(_ peer: sockaddr_storage) -> String {
        guard peer.ss_family == sa_family_t(AF_INET) else { return "?" }
        var copy = peer
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                var address = p.pointee.sin_addr
                inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return "\(host):\(UInt16(bigEndian: p.pointee.sin_port))"
            }
        }
    }

    /// Sends one datagram to `peer`, never waiting (a full buffer drops it: feedback is refreshed anyway).
    public func reply(_ bytes: [UInt8], to peer: Peer) {
        guard !stopped.value else { return }
        _ = bytes.withUnsafeBytes { data in
            peer.raw.withUnsafeBytes { address in
                sendto(fd, data.baseAddress, data.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL),
                       address.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
            }
        }
    }

    /// Stops reading; the reader closes the socket within 200 ms.
    public func close() { stopped.set(true) }
}
