import CGLib
import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// UDP on the network loop (`NetworkLoop`), IPv4 and IPv6: one socket per address listened on, each
/// datagram handed to `received` with who sent it (on the loop's thread); `reply` sends one back from the
/// socket it came in on. Datagrams longer than `longest` are cut by the kernel and reach `received` one
/// byte longer than `longest` (so the caller can tell).
///
/// Thread: `reply` and `close` from any thread; `received` on the network loop's thread.
public final class DatagramListener: Sendable {
    /// Who sent a datagram: its socket address (to reply to) and how the log names it.
    ///
    /// Thread: value type, Sendable.
    public struct Peer: Sendable, Equatable {
        let native: [UInt8]
        let socket: Int
        /// Its IP address, such as `127.0.0.1` or `::1`.
        public let address: String
        /// Address and port, such as `127.0.0.1:53000` or `[::1]:53000`.
        public let description: String
    }

    /// The addresses listened on, such as `127.0.0.1:9000` and `[::1]:9000`.
    public let listening: [String]
    private let loop: NetworkLoop
    private let state: NetworkLoop.Resident

    /// Binds each of `hosts` (IP addresses) on `port` (0: one free port, the same for all). A host that is
    /// not an IP address, or a port in use, is `failure`'s error; `optional` hosts (loopback IPv6 on a
    /// machine without IPv6) are left out when they cannot be bound.
    public init(hosts: [String], optional: Set<String> = [], port: Int, longest: Int,
                failure: @escaping @Sendable (_ host: String?, _ reason: String) -> DuoError,
                received: @escaping @Sendable ([UInt8], Peer) -> Void) throws(DuoError) {
        let loop = NetworkLoop.shared
        self.loop = loop
        var outcome: Result<(NetworkLoop.Resident, [String]), DuoError> = .failure(failure(nil, "no address"))
        // With port 0 the first socket picks the port; another program may hold it on the other family.
        for _ in 0..<(port == 0 ? 5 : 1) {
            outcome = loop.sync { DatagramSockets.open(hosts: hosts, optional: optional, port: port, longest: longest, failure: failure,
                                                        received: received, on: loop) }
            if case .success = outcome { break }
        }
        switch outcome {
        case .success(let (state, listening)):
            self.state = state
            self.listening = listening
        case .failure(let error): throw error
        }
    }

    /// Sends one datagram to `peer`, never waiting (a full buffer drops it).
    public func reply(_ bytes: [UInt8], to peer: Peer) {
        let loop = self.loop, state = self.state
        loop.async { loop.resident(state, as: DatagramSockets.self)?.send(bytes, to: peer) }
    }

    /// Stops listening; the sockets are closed when it returns.
    public func close() {
        let loop = self.loop, state = self.state
        loop.sync {
            loop.resident(state, as: DatagramSockets.self)?.close()
            loop.evict(state)
        }
    }
}

/// The sockets of one `DatagramListener` on the loop.
///
/// Thread: the network loop's only.
final class DatagramSockets {
    private var sockets: [UnsafeMutablePointer<GSocket>] = []
    private var watches: [SocketWatch] = []
    private let received: @Sendable ([UInt8], DatagramListener.Peer) -> Void
    private let longest: Int

    private init(longest: Int, received: @escaping @Sendable ([UInt8], DatagramListener.Peer) -> Void) {
        self.longest = longest
        self.received = received
    }

    static func open(hosts: [String], optional: Set<String>, port: Int, longest: Int,
                     failure: @Sendable (String?, String) -> DuoError,
                     received: @escaping @Sendable ([UInt8], DatagramListener.Peer) -> Void,
                     on loop: NetworkLoop) -> Result<(NetworkLoop.Resident, [String]), DuoError> {
        let state = DatagramSockets(longest: longest, received: received)
        var listening: [String] = []
        var port = port
        for host in hosts {
            guard let address = g_inet_address_new_from_string(host) else {
                state.close()
                return .failure(failure(host, "no IP address"))
            }
            let family = g_inet_address_get_family(address)
            var error: UnsafeMutablePointer<GError>?
            let socket = g_socket_new(family, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, &error)
            if family == G_SOCKET_FAMILY_IPV6, let socket, g_inet_address_get_is_any(address) != 0 {
                // "::" takes IPv4 senders too.
                g_socket_set_option(socket, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0, nil)
            }
            let socketAddress = g_inet_socket_address_new(address, guint16(port))!
            g_object_unref(address)
            defer { g_object_unref(socketAddress) }
            // No reuse: a port another program holds is refused, not shared.
            guard let socket, g_socket_bind(socket, socketAddress, 0, &error) != 0 else {
                let reason = GIO.message(&error)
                if let socket { g_object_unref(socket) }
                if optional.contains(host) { continue }
                state.close()
                return .failure(failure(host, reason))
            }
            g_socket_set_blocking(socket, 0)
            let local = g_socket_get_local_address(socket, nil)
            let (_, actual) = GIO.describe(local)
            if let local { g_object_unref(local) }
            port = actual
            listening.append(host.contains(":") ? "[\(host)]:\(actual)" : "\(host):\(actual)")
            let index = state.sockets.count
            state.sockets.append(socket)
            state.watches.append(SocketWatch(socket, GIO.readable, on: loop) { [unowned state] _ in state.read(index) })
        }
        return .success((loop.keep(state), listening))
    }

    /// Reads the datagrams waiting (at most 64 at a time, so a flood shares the loop).
    private func read(_ index: Int) -> Bool {
        guard index < sockets.count else { return false }
        var buffer = [UInt8](repeating: 0, count: longest + 1)
        for _ in 0..<64 {
            var from: UnsafeMutablePointer<GSocketAddress>?
            var error: UnsafeMutablePointer<GError>?
            let n = buffer.withUnsafeMutableBytes { Int(g_socket_receive_from(sockets[index], &from, $0.baseAddress, gsize($0.count), nil, &error)) }
            if n < 0 {
                if let from { g_object_unref(from) }
                // Would block: all read. Another error (an ICMP "port unreachable" of an earlier reply): next.
                if GIO.wouldBlock(&error) { return true }
                continue
            }
            let (host, port) = GIO.describe(from)
            var native = [UInt8]()
            if let from {
                native = [UInt8](repeating: 0, count: Int(g_socket_address_get_native_size(from)))
                native.withUnsafeMutableBytes { _ = g_socket_address_to_native(from, $0.baseAddress, gsize($0.count), nil) }
                g_object_unref(from)
            }
            let peer = DatagramListener.Peer(native: native, socket: index, address: host,
                                             description: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
            received(Array(buffer[0..<n]), peer)
        }
        return true
    }

    func send(_ bytes: [UInt8], to peer: DatagramListener.Peer) {
        guard peer.socket < sockets.count, !peer.native.isEmpty else { return }
        let address = peer.native.withUnsafeBytes { g_socket_address_new_from_native(UnsafeMutableRawPointer(mutating: $0.baseAddress), gsize($0.count)) }
        guard let address else { return }
        defer { g_object_unref(address) }
        _ = bytes.withUnsafeBytes { g_socket_send_to(sockets[peer.socket], address, $0.baseAddress, gsize($0.count), nil, nil) }
    }

    func close() {
        for watch in watches { watch.cancel() }
        watches.removeAll()
        for socket in sockets {
            g_socket_close(socket, nil)
            g_object_unref(socket)
        }
        sockets.removeAll()
    }
}
