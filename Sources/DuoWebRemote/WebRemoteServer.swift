import CSoup
import DuoCore
import DuoPlatform
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The web remote's server (`--remote-control`): one page and one WebSocket, served by libsoup 3 on the
/// network loop (DuoPlatform's `NetworkLoop`: one GLib main context and thread for every listener; the
/// headless run has no GLib main loop, and the desktop's GTK loop must not wait on the network). Every
/// soup_*/g_* call of the remote is in this file.
///
/// `GET /?token=T` is the page; `GET /ws?token=T` opens the WebSocket. Without the right token both are
/// answered 401 before anything else happens (`authorize` decides, and says so in the log). The browser's
/// own `GET /favicon.ico` is answered 204, without a token and without a word in the log.
///
/// Thread: `broadcast` and `close` from any thread; the handlers run on the network loop's thread
/// ("duo-capture network"), one at a time.
public final class WebRemoteServer: Sendable {
    /// What the server asks of its owner, on the network loop's thread.
    public struct Handlers: Sendable {
        /// Whether a request from `address` with this token may go on (false: it is answered 401).
        public var authorize: @Sendable (_ token: String?, _ address: String) -> Bool
        /// One text message from a page; the reply (an error line) goes to that page only.
        public var message: @Sendable (_ text: String, _ address: String) -> String?
        /// The lines a newly connected page gets first (the run's state so far).
        public var opened: @Sendable () -> [String]
        /// Something a client did wrong (a binary or malformed frame), to be said in one line.
        public var problem: @Sendable (_ what: String, _ address: String) -> Void
        public init(authorize: @escaping @Sendable (String?, String) -> Bool, message: @escaping @Sendable (String, String) -> String?,
                    opened: @escaping @Sendable () -> [String], problem: @escaping @Sendable (String, String) -> Void) {
            self.authorize = authorize; self.message = message; self.opened = opened; self.problem = problem
        }
    }

    /// The addresses listened on (`http://127.0.0.1:PORT/`), without the token.
    public let listening: [String]
    private let loop = NetworkLoop.shared
    private let state: NetworkLoop.Resident
    /// Lines waiting for the network loop to send them to every page.
    private let outbox = LoopOutbox(limit: WebRemoteServer.outboxLimit)
    /// Lines kept at most while the network loop is busy: a page that falls this far behind skips some.
    static let outboxLimit = 1_000
    /// The largest message a page may send.
    static let maximumMessage: UInt64 = 16_384

    /// Starts listening on `host` (an IP address; nil: loopback, IPv4 and IPv6) and `port` (0: any free
    /// one). Throws a usage error saying what to change when it cannot. `language` is the language of a
    /// request's `Accept-Language` (issue 41): the page (`page`) and the refusals a browser shows are in it.
    public init(host: String?, port: Int, page: @escaping @Sendable (Translator) -> [UInt8],
                language: @escaping @Sendable (_ acceptLanguage: String?) -> Translator = { _ in .english },
                handlers: Handlers) throws(DuoError) {
        let loop = self.loop
        let started = loop.sync { () -> Result<(NetworkLoop.Resident, [String]), DuoError> in
            let state = LoopState(page: page, language: language, handlers: handlers)
            switch state.start(host: host, port: port) {
            case .success(let uris): return .success((loop.keep(state), uris))
            case .failure(let error):
                state.stop()
                return .failure(error)
            }
        }
        switch started {
        case .success(let (state, uris)):
            self.state = state
            listening = uris
            // Connections that never send a complete request are closed (`IdleConnections`).
            loop.every(0.25) { [loop] in loop.resident(state, as: LoopState.self)?.sweep() != nil }
        case .failure(let error): throw error
        }
    }

    /// Sends one text line to every connected page. Never waits.
    public func broadcast(_ line: String) {
        let loop = self.loop, state = self.state
        outbox.post(line, on: loop) { lines in loop.resident(state, as: LoopState.self)?.drain(lines) }
    }

    /// Stops listening and closes every page's socket (the port is free when it returns).
    public func close() {
        guard outbox.close() else { return }
        let loop = self.loop, state = self.state
        loop.sync {
            loop.resident(state, as: LoopState.self)?.stop()
            loop.evict(state)
        }
    }
}

/// Everything on the network loop: the soup server and the connected pages. Kept by the loop
/// (`NetworkLoop.keep`); its C callbacks reach it through an unretained pointer, valid until `stop`.
///
/// Thread: the network loop's only.
private final class LoopState {
    let page: @Sendable (Translator) -> [UInt8]
    let language: @Sendable (String?) -> Translator
    let handlers: WebRemoteServer.Handlers
    /// One open WebSocket: its peer's address, its socket's descriptor (-1: unknown) and since when
    /// (monotonic nanoseconds) it has had no room for more.
    struct Page {
        let connection: OpaquePointer
        let address: String
        let fd: Int32
        var stalledSince: UInt64?
    }
    var connections: [Page] = []
    /// The server and its connections' admission (shared with obs-websocket).
    var listener: SoupListener?
    /// A page whose socket has had no room for this long has stopped reading: it is closed, as the control
    /// socket drops a client that falls behind, so it cannot make the server hold ever more for it.
    static let stallLimit: UInt64 = 3_000_000_000

    init(page: @escaping @Sendable (Translator) -> [UInt8], language: @escaping @Sendable (String?) -> Translator,
         handlers: WebRemoteServer.Handlers) {
        self.page = page
        self.language = language
        self.handlers = handlers
    }

    var unmanaged: gpointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ pointer: gpointer?) -> LoopState { Unmanaged<LoopState>.fromOpaque(pointer!).takeUnretainedValue() }

    func start(host: String?, port: Int) -> Result<[String], DuoError> {
        // On the loop's thread, whose default context the loop's is: the server's sources go there.
        let handlers = self.handlers
        listener = SoupListener(limits: ListenLimits.webRemote, name: tr("the web remote"), awaited: tr("request"), problem: { handlers.problem($0, $1) })
        guard let server = listener?.server else { return .failure(.runtime(tr("remote control: libsoup could not make a server"))) }
        // Refused before the WebSocket handshake: a page or socket without the token gets 401 at once.
        // Handlers are kept per path: "/ws" (the WebSocket's) needs its own early handler.
        for path in [nil, "/ws"] as [String?] {
            soup_server_add_early_handler(server, path, { _, message, path, query, data in
                LoopState.from(data).early(message, path: path.map { String(cString: $0) } ?? "/", query: query)
            }, unmanaged, nil)
        }
        soup_server_add_handler(server, nil, { _, message, path, _, data in
            LoopState.from(data).serve(message, path: path.map { String(cString: $0) } ?? "/")
        }, unmanaged, nil)
        soup_server_add_websocket_handler(server, "/ws", nil, nil, { _, message, _, connection, data in
            LoopState.from(data).opened(connection, message: message, address: LoopState.remoteHost(message))
        }, unmanaged, nil)
        return listener!.listen(option: "--remote-control", host: host, port: port).map { $0.map(\.uri) }
    }

    /// Closes every page's socket and the server; no callback reaches this object afterwards.
    func stop() {
        for c in connections {
            g_signal_handlers_disconnect_matched(gpointer(c.connection), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, unmanaged)
            if soup_websocket_connection_get_state(c.connection) == SOUP_WEBSOCKET_STATE_OPEN {
                soup_websocket_connection_close(c.connection, 1001, "duo-capture ended")
            }
            g_object_unref(gpointer(c.connection))
        }
        connections.removeAll()
        listener?.stop(owner: unmanaged)
        listener = nil
    }

    /// Every quarter second: connections soup closed are forgotten, overdue ones closed.
    func sweep() { listener?.sweep() }

    func drain(_ lines: [String]) {
        let now = DispatchTime.now().uptimeNanoseconds
        for index in connections.indices {
            let page = connections[index]
            if page.fd >= 0 {
                var ready = pollfd(fd: page.fd, events: Int16(POLLOUT), revents: 0)
                if poll(&ready, 1, 0) <= 0 || ready.revents & Int16(POLLOUT) == 0 {
                    // No room: nothing more is queued for it; past the limit it goes.
                    let since = page.stalledSince ?? now
                    connections[index].stalledSince = since
                    if now - since > Self.stallLimit, soup_websocket_connection_get_state(page.connection) == SOUP_WEBSOCKET_STATE_OPEN {
                        handlers.problem("nothing read for \(Self.stallLimit / 1_000_000_000) s (the page fell behind reading events); its socket is closed", page.address)
                        soup_websocket_connection_close(page.connection, 1008, "fell behind reading events")
                    }
                    continue
                }
                connections[index].stalledSince = nil
            }
            for line in lines { send(line, on: page.connection) }
        }
    }

    private func send(_ line: String, on connection: OpaquePointer) {
        guard soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN else { return }
        soup_websocket_connection_send_text(connection, line)
    }

    /// The port the request came in on.
    static func localPort(_ message: OpaquePointer) -> Int {
        guard let address = soup_server_message_get_local_address(message) else { return 0 }
        return Int(g_inet_socket_address_get_port(UnsafeMutableRawPointer(address).assumingMemoryBound(to: GInetSocketAddress.self)))
    }

    static func remoteHost(_ message: OpaquePointer?) -> String {
        guard let message, let host = soup_server_message_get_remote_host(message) else { return "?" }
        return String(cString: host)
    }

    private static func token(_ query: OpaquePointer?) -> String? {
        guard let query, let value = g_hash_table_lookup(query, "token") else { return nil }
        return String(cString: value.assumingMemoryBound(to: CChar.self))
    }

    /// The language of the request's browser (its `Accept-Language`).
    private func phone(_ message: OpaquePointer) -> Translator {
        let headers = soup_server_message_get_request_headers(message)
        return language(soup_message_headers_get_one(headers, "Accept-Language").map { String(cString: $0) })
    }

    private func early(_ message: OpaquePointer?, path: String, query: OpaquePointer?) {
        guard let message else { return }
        // Host and Origin first: a DNS name pointed here, or another site's page, gets 403 (`WebRemoteOrigin`).
        let headers = soup_server_message_get_request_headers(message)
        let host = soup_message_headers_get_one(headers, "Host").map { String(cString: $0) }
        let origin = soup_message_headers_get_one(headers, "Origin").map { String(cString: $0) }
        if let why = WebRemoteOrigin.refusal(host: host, origin: origin, port: Self.localPort(message), webSocket: path == "/ws") {
            handlers.problem("refused: \(why)", Self.remoteHost(message))
            // The browser is told in its own language (the terminal's line above is as the log has it).
            let shown = WebRemoteOrigin.refusal(host: host, origin: origin, port: Self.localPort(message), webSocket: path == "/ws",
                                                in: phone(message)) ?? why
            return respond(message, 403, "text/plain; charset=utf-8", Array((phone(message).text("duo-capture: refused: %s", [shown]) + "\n").utf8))
        }
        // The browser asks for the page's icon by itself, without the token (issue 37: it was logged as a
        // refused "no token" on every page load): answered 204 No Content, nothing said, nothing served.
        if path == "/favicon.ico" {
            soup_server_message_set_status(message, 204, nil)
            soup_message_headers_replace(soup_server_message_get_response_headers(message), "Cache-Control", "max-age=86400")
            return
        }
        guard handlers.authorize(Self.token(query), Self.remoteHost(message)) else {
            return respond(message, 401, "text/plain; charset=utf-8",
                           Array((phone(message).text("duo-capture: this remote needs its token: open the URL duo-capture printed at start (…/?token=…)") + "\n").utf8))
        }
    }

    private func serve(_ message: OpaquePointer?, path: String) {
        guard let message else { return }
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? ""
        guard method == "GET" || method == "HEAD" else {
            return respond(message, 405, "text/plain; charset=utf-8", Array((phone(message).text("duo-capture: only GET is served here") + "\n").utf8))
        }
        guard path == "/" || path == "/index.html" else {
            return respond(message, 404, "text/plain; charset=utf-8", Array((phone(message).text("duo-capture: not here; the remote is at /?token=…") + "\n").utf8))
        }
        respond(message, 200, "text/html; charset=utf-8", page(phone(message)))
    }

    private func respond(_ message: OpaquePointer, _ status: UInt32, _ type: String, _ body: [UInt8]) {
        soup_server_message_set_status(message, status, nil)
        let headers = soup_server_message_get_response_headers(message)
        // The token is in the URL: no cache and no Referer keep it from going further than the page.
        soup_message_headers_replace(headers, "Cache-Control", "no-store")
        soup_message_headers_replace(headers, "Referrer-Policy", "no-referrer")
        soup_message_headers_replace(headers, "Content-Security-Policy", "default-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
        body.withUnsafeBufferPointer { raw in
            soup_server_message_set_response(message, type, SOUP_MEMORY_COPY, raw.baseAddress, gsize(raw.count))
        }
    }

    private func opened(_ connection: OpaquePointer?, message: OpaquePointer?, address: String) {
        guard let connection else { return }
        let fd = message.flatMap { soup_server_message_get_socket($0) }.map { g_socket_get_fd($0) } ?? -1
        if fd >= 0 {
            // A small, fixed send buffer (the kernel doubles it): events are a few hundred bytes, a page that
            // reads never fills it, and one that stops is noticed in seconds (stallLimit), not megabytes.
            var size: Int32 = 32_768
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        g_object_ref(gpointer(connection))
        soup_websocket_connection_set_max_incoming_payload_size(connection, guint64(WebRemoteServer.maximumMessage))
        soup_websocket_connection_set_keepalive_interval(connection, 0)
        connections.append(Page(connection: connection, address: address, fd: fd))
        let onMessage: @convention(c) (OpaquePointer?, Int32, OpaquePointer?, gpointer?) -> Void = { connection, type, bytes, data in
            LoopState.from(data).received(connection, type: type, bytes: bytes)
        }
        let onError: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { connection, error, data in
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            LoopState.from(data).failed(connection, reason: reason)
        }
        let onClosed: @convention(c) (OpaquePointer?, gpointer?) -> Void = { connection, data in
            LoopState.from(data).closed(connection)
        }
        g_signal_connect_data(gpointer(connection), "message", unsafeBitCast(onMessage, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gpointer(connection), "error", unsafeBitCast(onError, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gpointer(connection), "closed", unsafeBitCast(onClosed, to: GCallback.self), unmanaged, nil, GConnectFlags(rawValue: 0))
        for line in handlers.opened() { send(line, on: connection) }
    }

    private func address(of connection: OpaquePointer?) -> String {
        connections.first { $0.connection == connection }?.address ?? "?"
    }

    private func received(_ connection: OpaquePointer?, type: Int32, bytes: OpaquePointer?) {
        guard let connection, let bytes else { return }
        let from = address(of: connection)
        var size: gsize = 0
        let data = g_bytes_get_data(bytes, &size)
        guard type == Int32(SOUP_WEBSOCKET_DATA_TEXT.rawValue) else {
            return handlers.problem("a binary WebSocket message (send JSON text such as {\"cmd\":\"record\"})", from)
        }
        let text = data.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(size)), as: UTF8.self) } ?? ""
        if let reply = handlers.message(text, from) { send(reply, on: connection) }
    }

    private func failed(_ connection: OpaquePointer?, reason: String) {
        handlers.problem("a bad WebSocket frame (\(reason)); the page reconnects by itself", address(of: connection))
    }

    private func closed(_ connection: OpaquePointer?) {
        guard let index = connections.firstIndex(where: { $0.connection == connection }) else { return }
        let gone = connections.remove(at: index)
        g_object_unref(gpointer(gone.connection))
    }
}
