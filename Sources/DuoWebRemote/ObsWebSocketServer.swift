import CSoup
import DuoCore
import DuoPlatform
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The obs-websocket 5 server's transport (`--obs-websocket`): WebSocket connections on `/` (subprotocol
/// `obswebsocket.json`, none, or `obswebsocket.msgpack`, whose binary MessagePack frames are turned into
/// JSON text and back here), served by libsoup 3 on the network loop as the web remote's are. What the
/// messages say is the owner's (`ObsWebSocketSession`, `ObsRequests`). Every
/// soup_*/g_* call of obs-websocket is in this file.
///
/// Thread: `send`, `close(_:code:reason:)` and `close()` from any thread; the handlers run on the network
/// loop's thread, one at a time.
public final class ObsWebSocketServer: Sendable {
    /// What the server asks of its owner, on the network loop's thread.
    public struct Handlers: Sendable {
        /// A new connection (`id`) from `address`: the lines it gets first (Hello), or nil to refuse it.
        public var opened: @Sendable (_ id: Int, _ address: String) -> [String]?
        /// One text message; the owner answers with `send` / `close`.
        public var message: @Sendable (_ id: Int, _ text: String, _ address: String) -> Void
        public var closed: @Sendable (_ id: Int) -> Void
        /// Something a client did wrong, to be said in one line.
        public var problem: @Sendable (_ what: String, _ address: String) -> Void
        public init(opened: @escaping @Sendable (Int, String) -> [String]?, message: @escaping @Sendable (Int, String, String) -> Void,
                    closed: @escaping @Sendable (Int) -> Void, problem: @escaping @Sendable (String, String) -> Void) {
            self.opened = opened; self.message = message; self.closed = closed; self.problem = problem
        }
    }

    /// The addresses listened on (`ws://127.0.0.1:PORT/`).
    public let listening: [String]
    /// The port listened on.
    public let port: Int
    private let loop = NetworkLoop.shared
    private let state: NetworkLoop.Resident
    /// The largest message a client may send.
    static let maximumMessage: UInt64 = 65_536

    /// Starts listening on `host` (an IP address; nil: loopback, IPv4 and IPv6) and `port` (0: any free one).
    public init(host: String?, port: Int, handlers: Handlers) throws(DuoError) {
        let loop = self.loop
        let started = loop.sync { () -> Result<(NetworkLoop.Resident, [String], Int), DuoError> in
            let state = ObsLoopState(handlers: handlers)
            switch state.start(host: host, port: port) {
            case .success(let (uris, actual)): return .success((loop.keep(state), uris, actual))
            case .failure(let error):
                state.stop()
                return .failure(error)
            }
        }
        switch started {
        case .success(let (state, uris, actual)):
            self.state = state
            listening = uris
            self.port = actual
            // Connections that never finish the WebSocket handshake are closed (`IdleConnections`).
            loop.every(0.25) { [loop] in loop.resident(state, as: ObsLoopState.self)?.sweep() != nil }
        case .failure(let error): throw error
        }
    }

    /// Sends one text message to connection `id` (nothing if it is gone). Never waits.
    public func send(_ line: String, to id: Int) {
        let loop = self.loop, state = self.state
        loop.async { loop.resident(state, as: ObsLoopState.self)?.send(line, to: id) }
    }

    /// Closes connection `id` with a WebSocket close code (obs-websocket's 40xx) and reason.
    public func close(_ id: Int, code: Int, reason: String) {
        let loop = self.loop, state = self.state
        loop.async { loop.resident(state, as: ObsLoopState.self)?.close(id, code: code, reason: reason) }
    }

    /// Stops listening and closes every connection (the port is free when it returns).
    public func close() {
        let loop = self.loop, state = self.state
        loop.sync {
            loop.resident(state, as: ObsLoopState.self)?.stop()
            loop.evict(state)
        }
    }
}

/// base64(SHA-256(text)), obs-websocket's authentication hash, with GLib's GChecksum and base64.
///
/// Thread: pure; any thread.
public enum ObsDigest {
    public static func sha256Base64(_ text: String) -> String {
        guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else { return "" }
        defer { g_checksum_free(checksum) }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, gssize($0.count)) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(32)
        g_checksum_get_digest(checksum, &digest, &length)
        guard let encoded = g_base64_encode(digest, length) else { return "" }
        defer { g_free(encoded) }
        return String(cString: encoded)
    }
}

/// The soup server and its connections. Kept by the loop; its C callbacks reach it through an unretained
/// pointer, valid until `stop`.
///
/// Thread: the network loop's only.
private final class ObsLoopState {
    let handlers: ObsWebSocketServer.Handlers
    struct Connection {
        let socket: OpaquePointer
        let address: String
        let fd: Int32
        /// The client chose `obswebsocket.msgpack`: binary MessagePack frames both ways.
        let msgpack: Bool
        var stalledSince: UInt64?
    }
    var connections: [Int: Connection] = [:]
    var nextID = 0
    /// The server and its connections' admission (shared with the web remote).
    var listener: SoupListener?
    /// A client whose socket has had no room for this long has stopped reading: it is closed.
    static let stallLimit: UInt64 = 3_000_000_000

    init(handlers: ObsWebSocketServer.Handlers) { self.handlers = handlers }

    var unmanaged: gpointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ pointer: gpointer?) -> ObsLoopState { Unmanaged<ObsLoopState>.fromOpaque(pointer!).takeUnretainedValue() }

    func start(host: String?, port: Int) -> Result<([String], Int), DuoError> {
        let handlers = self.handlers
        listener = SoupListener(limits: ListenLimits.obsWebSocket, name: "obs-websocket", awaited: tr("WebSocket handshake"),
                                problem: { handlers.problem($0, $1) })
        guard let server = listener?.server else { return .failure(.runtime(tr("obs-websocket: libsoup could not make a server"))) }
        // Only WebSocket handshakes are served (soup answers anything else 404 or 400).
        let protocols: [UnsafeMutablePointer<CChar>?] = [strdup("obswebsocket.json"), strdup("obswebsocket.msgpack"), nil]
        defer { protocols.forEach { free($0) } }
        protocols.withUnsafeBufferPointer { list in
            soup_server_add_websocket_handler(server, "/", nil, UnsafeMutablePointer(mutating: list.baseAddress), { _, message, _, connection, data in
                ObsLoopState.from(data).opened(connection, message: message)
            }, unmanaged, nil)
        }
        return listener!.listen(option: "--obs-websocket", host: host, port: port).map { listened in
            (listened.map { $0.uri.replacingOccurrences(of: "http://", with: "ws://") }, listened.last?.port ?? port)
        }
    }

    func stop() {
        for (_, c) in connections {
            g_signal_handlers_disconnect_matched(gpointer(c.socket), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, unmanaged)
            if soup_websocket_connection_get_state(c.socket) == SOUP_WEBSOCKET_STATE_OPEN {
                soup_websocket_connection_close(c.socket, 1001, "duo-capture ended")
            }
            g_object_unref(gpointer(c.socket))
        }
        connections.removeAll()
        listener?.stop(owner: unmanaged)
        listener = nil
    }

    /// Every quarter second: connections soup closed are forgotten, overdue ones closed.
    func sweep() { listener?.sweep() }

    private func opened(_ connection: OpaquePointer?, message: OpaquePointer?) {
        guard let connection else { return }
        let address = message.flatMap { soup_server_message_get_remote_host($0) }.map { String(cString: $0) } ?? "?"
        let fd = message.flatMap { soup_server_message_get_socket($0) }.map { g_socket_get_fd($0) } ?? -1
        nextID += 1
        let id = nextID
        guard let first = handlers.opened(id, address) else {
            soup_websocket_connection_close(connection, 1013, "too many connections")
            return
        }
        if fd >= 0 {
            // A small, fixed send buffer: a controller that stops reading is noticed in seconds (stallLimit).
            var size: Int32 = 65_536
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        g_object_ref(gpointer(connection))
        soup_websocket_connection_set_max_incoming_payload_size(connection, guint64(ObsWebSocketServer.maximumMessage))
        soup_websocket_connection_set_keepalive_interval(connection, 0)
        let chosen = soup_websocket_connection_get_protocol(connection).map { String(cString: $0) }
        connections[id] = Connection(socket: connection, address: address, fd: fd, msgpack: chosen == "obswebsocket.msgpack")
        let onMessage: @convention(c) (OpaquePointer?, Int32, OpaquePointer?, gpointer?) -> Void = { connection, type, bytes, data in
            ObsLoopState.from(data).received(connection, type: type, bytes: bytes)
        }
        let onError: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { connection, error, data in
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            let me = ObsLoopState.from(data)
            me.handlers.problem("a bad WebSocket frame (\(reason))", me.find(connection)?.1.address ?? "?")
        }
        let onClosed: @convention(c) (OpaquePointer?, gpointer?) -> Void = { connection, data in
            ObsLoopState.from(data).closed(connection)
        }
        g_signal_connect_data(gpointer(connection), "message", unsafeBitCast(onMessage, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gpointer(connection), "error", unsafeBitCast(onError, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gpointer(connection), "closed", unsafeBitCast(onClosed, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
        for line in first { send(line, to: id) }
    }

    private func find(_ connection: OpaquePointer?) -> (Int, Connection)? {
        connections.first { $0.value.socket == connection }.map { ($0.key, $0.value) }
    }

    private func received(_ connection: OpaquePointer?, type: Int32, bytes: OpaquePointer?) {
        guard let bytes, let (id, c) = find(connection) else { return }
        var size: gsize = 0
        let data = g_bytes_get_data(bytes, &size)
        let raw = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(size))) } ?? []
        guard type == Int32(SOUP_WEBSOCKET_DATA_TEXT.rawValue) else {
            guard c.msgpack else {
                handlers.problem("a binary message on a JSON connection (send JSON text, or connect with obswebsocket.msgpack)", c.address)
                return close(id, code: ObsCloseCode.messageDecodeError.rawValue, reason: "binary message on a JSON connection")
            }
            do throws(DuoError) {
                return handlers.message(id, try MessagePack.json(raw), c.address)
            } catch {
                handlers.problem(error.message, c.address)
                return close(id, code: ObsCloseCode.messageDecodeError.rawValue, reason: error.message)
            }
        }
        handlers.message(id, String(decoding: raw, as: UTF8.self), c.address)
    }

    func send(_ line: String, to id: Int) {
        guard let c = connections[id], soup_websocket_connection_get_state(c.socket) == SOUP_WEBSOCKET_STATE_OPEN else { return }
        if c.fd >= 0 {
            let now = DispatchTime.now().uptimeNanoseconds
            var ready = pollfd(fd: c.fd, events: Int16(POLLOUT), revents: 0)
            if poll(&ready, 1, 0) <= 0 || ready.revents & Int16(POLLOUT) == 0 {
                let since = c.stalledSince ?? now
                connections[id]?.stalledSince = since
                if now - since > Self.stallLimit {
                    handlers.problem("nothing read for \(Self.stallLimit / 1_000_000_000) s (the controller stopped reading); closed", c.address)
                    soup_websocket_connection_close(c.socket, 1008, "fell behind reading")
                }
                return
            }
            connections[id]?.stalledSince = nil
        }
        if c.msgpack, let packed = MessagePack.bytes(json: line) {
            packed.withUnsafeBytes { soup_websocket_connection_send_binary(c.socket, $0.baseAddress, gsize($0.count)) }
        } else {
            soup_websocket_connection_send_text(c.socket, line)
        }
    }

    func close(_ id: Int, code: Int, reason: String) {
        guard let c = connections[id], soup_websocket_connection_get_state(c.socket) == SOUP_WEBSOCKET_STATE_OPEN else { return }
        soup_websocket_connection_close(c.socket, gushort(code), reason)
    }

    private func closed(_ connection: OpaquePointer?) {
        guard let (id, c) = find(connection) else { return }
        connections[id] = nil
        g_signal_handlers_disconnect_matched(gpointer(c.socket), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, unmanaged)
        g_object_unref(gpointer(c.socket))
        handlers.closed(id)
    }
}
