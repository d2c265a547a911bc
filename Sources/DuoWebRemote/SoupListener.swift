import CSoup
import DuoCore
import DuoPlatform
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One libsoup server and the HTTP connections it accepted, shared by the web remote's page server and
/// obs-websocket: listening on an IP address or on loopback (IPv4 and IPv6), a deeper backlog, the URIs
/// listened on, and the admission policy (`IdleConnections`) that closes connections which send no
/// complete request in time or go over the caps. The owner adds its handlers to `server` and stops this
/// before it goes.
///
/// Thread: the network loop's only; its C callbacks reach it through an unretained pointer, valid until
/// `stop`.
final class SoupListener {
    let server: UnsafeMutablePointer<SoupServer>
    /// Every connection soup accepted, by its socket (kept referenced while tracked).
    private var sockets: [UInt: UnsafeMutablePointer<GSocket>] = [:]
    private var idle: IdleConnections<UInt>
    private let limits: ListenLimits
    /// Who listens ("the web remote") and what a connection owes it ("request"), for the problem lines.
    private let name: String, awaited: String
    private let problem: (String, String) -> Void
    /// Connections the kernel holds for the server before it takes them.
    static let backlog: Int32 = 256

    /// A new server; nil when libsoup cannot make one.
    init?(limits: ListenLimits, name: String, awaited: String, problem: @escaping (_ what: String, _ address: String) -> Void) {
        guard let made = g_object_new_with_properties(soup_server_get_type(), 0, nil, nil) else { return nil }
        server = UnsafeMutablePointer<SoupServer>(OpaquePointer(made))
        self.limits = limits
        idle = IdleConnections<UInt>(limits)
        self.name = name
        self.awaited = awaited
        self.problem = problem
        let unmanaged = Unmanaged.passUnretained(self).toOpaque()
        let onRequest: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, message, data in
            SoupListener.from(data).awaiting(message)
        }
        let onRead: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, message, data in
            SoupListener.from(data).requestRead(message)
        }
        g_signal_connect_data(gpointer(server), "request-started", unsafeBitCast(onRequest, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gpointer(server), "request-read", unsafeBitCast(onRead, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
    }

    private static func from(_ pointer: gpointer?) -> SoupListener { Unmanaged<SoupListener>.fromOpaque(pointer!).takeUnretainedValue() }

    /// Listens on `host` (nil: loopback) and `port` (0: any free one); `option` names the option in errors.
    /// Returns each URI listened on with its port.
    func listen(option: String, host: String?, port: Int) -> Result<[(uri: String, port: Int)], DuoError> {
        var error: UnsafeMutablePointer<GError>?
        if let host {
            guard let address = g_inet_socket_address_new_from_string(host, guint(port)) else {
                return .failure(.usage(tr("%s %s:%s: %s is no IP address; give one such as 0.0.0.0 (every interface) or 192.168.1.20",
                                          option, host, port, host)))
            }
            soup_server_listen(server, address, SoupServerListenOptions(rawValue: 0), &error)
            g_object_unref(address)
        } else {
            soup_server_listen_local(server, guint(port), SoupServerListenOptions(rawValue: 0), &error)
        }
        if let error {
            let reason = String(cString: error.pointee.message)
            g_error_free(error)
            let place = host.map { "\($0):\(port)" } ?? "\(port)"
            return .failure(.usage(tr("%s %s: cannot listen (%s); give another port", option, place, reason)))
        }
        // GIO listens with a backlog of 10: a burst of connections (a browser's, or a flood of idle ones)
        // overflows it and the next client's SYN waits a second for its retry. Linux takes listen() again
        // on a listening socket as a new backlog.
        var listeners = soup_server_get_listeners(server)
        let first = listeners
        while let node = listeners {
            if let socket = node.pointee.data { _ = Glibc.listen(g_socket_get_fd(socket.assumingMemoryBound(to: GSocket.self)), Self.backlog) }
            listeners = node.pointee.next
        }
        g_slist_free(first)
        var uris: [(uri: String, port: Int)] = []
        var list = soup_server_get_uris(server)
        let head = list
        while let node = list {
            if let uri = node.pointee.data, let text = g_uri_to_string(OpaquePointer(uri)) {
                uris.append((String(cString: text), Int(g_uri_get_port(OpaquePointer(uri)))))
                g_free(text)
            }
            list = node.pointee.next
        }
        g_slist_free_full(head, { g_uri_unref(OpaquePointer($0)) })
        return .success(uris)
    }

    /// Forgets every connection and ends the server; no callback reaches the owner or this afterwards.
    /// `owner`: the pointer the owner's own signal handlers carry, disconnected too.
    func stop(owner: gpointer) {
        for socket in sockets.values { g_object_unref(gpointer(socket)) }
        sockets.removeAll()
        g_signal_handlers_disconnect_matched(gpointer(server), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, owner)
        g_signal_handlers_disconnect_matched(gpointer(server), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, Unmanaged.passUnretained(self).toOpaque())
        soup_server_disconnect(server)
        g_object_unref(server)
    }

    // MARK: Connections waiting for a request

    private static func key(_ socket: UnsafeMutablePointer<GSocket>) -> UInt { UInt(bitPattern: socket) }
    private static var now: Int64 { Int64(DispatchTime.now().uptimeNanoseconds) }

    /// soup waits for a request on a connection (a new one, or a kept-alive one between requests).
    private func awaiting(_ message: OpaquePointer?) {
        guard let message, let socket = soup_server_message_get_socket(message) else { return }
        let id = Self.key(socket)
        if sockets[id] == nil {
            g_object_ref(gpointer(socket))
            sockets[id] = socket
        }
        let address = soup_server_message_get_remote_host(message).map { String(cString: $0) } ?? "?"
        for gone in idle.awaiting(id, from: address, at: Self.now) {
            problem(tr("more connections than %s takes at once (%s from one address, %s in all); the oldest idle one is closed",
                       name, limits.perAddress ?? 0, limits.clients ?? 0), address)
            shut(gone)
        }
    }

    /// A complete request arrived: served, no deadline.
    private func requestRead(_ message: OpaquePointer?) {
        guard let message, let socket = soup_server_message_get_socket(message) else { return }
        idle.served(Self.key(socket))
    }

    /// Every quarter second: connections soup closed are forgotten, overdue ones closed.
    func sweep() {
        for (id, socket) in sockets where g_socket_is_closed(socket) != 0 {
            idle.closed(id)
            sockets[id] = nil
            g_object_unref(gpointer(socket))
        }
        for id in idle.overdue(at: Self.now) {
            if let socket = sockets[id] {
                problem(tr("no complete %s within %s s; the connection is closed", awaited, idle.patience / 1_000_000_000), Self.host(of: socket))
            }
            shut(id)
        }
    }

    /// Ends a connection under soup's feet: soup reads its end, closes it and frees its descriptor.
    private func shut(_ id: UInt) {
        guard let socket = sockets.removeValue(forKey: id) else { return }
        idle.closed(id)
        g_socket_shutdown(socket, 1, 1, nil)
        g_object_unref(gpointer(socket))
    }

    private static func host(of socket: UnsafeMutablePointer<GSocket>) -> String {
        guard let address = g_socket_get_remote_address(socket, nil) else { return "?" }
        defer { g_object_unref(address) }
        guard let inet = g_inet_socket_address_get_address(UnsafeMutableRawPointer(address).assumingMemoryBound(to: GInetSocketAddress.self)),
              let text = g_inet_address_to_string(inet) else { return "?" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
