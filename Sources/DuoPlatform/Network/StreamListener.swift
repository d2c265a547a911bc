import CGLib
import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stream listener on the network loop (`NetworkLoop`): TCP (IPv4 and IPv6 on one socket) or a Unix
/// socket, speaking lines. Every client is admitted by the listener's `Admission` (clients at once, per
/// address), its bytes cut into lines by a `LineFramer` (a line longer than `ListenLimits.longest` is
/// reported once and skipped), each line handed to `Handlers.line` on the loop's thread (beyond the
/// limits' rate per address, dropped).
///
/// Sending never waits: a client with no room for a line has fallen behind and is dropped (with
/// `fellBehind`, when there is room for that); one that took part of a line gets the rest (within
/// 500 ms) first, so it never reads half a line.
///
/// Thread: `broadcast`, `stop` and `StreamClient`'s calls from any thread; the handlers run on the
/// network loop's thread, one at a time.
public final class StreamListener: Sendable {
    /// What the listener asks of its owner, on the loop's thread.
    public struct Handlers: Sendable {
        public var opened: @Sendable (StreamClient) -> Void
        public var line: @Sendable (StreamClient, String) -> Void
        /// A line longer than the limit (its rest is skipped).
        public var tooLong: @Sendable (StreamClient) -> Void
        public init(opened: @escaping @Sendable (StreamClient) -> Void = { _ in },
                    line: @escaping @Sendable (StreamClient, String) -> Void,
                    tooLong: @escaping @Sendable (StreamClient) -> Void = { _ in }) {
            self.opened = opened
            self.line = line
            self.tooLong = tooLong
        }
    }

    /// The TCP port listened on (0 for a Unix socket).
    public let port: Int
    private let loop: NetworkLoop
    private let server: NetworkLoop.Resident
    /// Lines for every client waiting for the loop (at most 10,000 while it is busy).
    private let outbox = LoopOutbox(limit: 10_000)

    /// Listens on TCP `port` on every address, IPv4 and IPv6 (0: any free port), or on `host` only (an IP
    /// address; nil when it is none). `failure` makes the error from the system's reason. `emptyLines`:
    /// empty lines reach `Handlers.line` too.
    public static func tcp(host: String? = nil, port: Int, limits: ListenLimits, backlog: Int = 32, fellBehind: String? = nil,
                           emptyLines: Bool = false, handlers: Handlers,
                           failure: @escaping @Sendable (String) -> DuoError) throws(DuoError) -> StreamListener {
        let loop = NetworkLoop.shared
        let made = loop.sync { () -> Result<(NetworkLoop.Resident, Int), DuoError> in
            var error: UnsafeMutablePointer<GError>?
            let inet: UnsafeMutablePointer<GInetAddress>?
            if let host {
                guard let given = g_inet_address_new_from_string(host) else { return .failure(failure("\(host) is no IP address")) }
                inet = given
            } else {
                inet = g_inet_address_new_any(G_SOCKET_FAMILY_IPV6)
            }
            let family = g_inet_address_get_family(inet)
            guard let socket = g_socket_new(family, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error) else {
                g_object_unref(inet)
                return .failure(failure(GIO.message(&error)))
            }
            // One socket for both families (IPv4 peers arrive as ::ffff:a.b.c.d).
            if host == nil { g_socket_set_option(socket, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0, nil) }
            let address = g_inet_socket_address_new(inet, guint16(port))!
            g_object_unref(inet)
            defer { g_object_unref(address) }
            g_socket_set_listen_backlog(socket, gint(backlog))
            guard g_socket_bind(socket, address, 1, &error) != 0,
                  g_socket_listen(socket, &error) != 0 else {
                let reason = GIO.message(&error)
                g_object_unref(socket)
                return .failure(failure(reason))
            }
            let local = g_socket_get_local_address(socket, nil)
            let actual = GIO.describe(local).port
            if let local { g_object_unref(local) }
            return .success((StreamServer.start(socket, limits: limits, fellBehind: fellBehind, emptyLines: emptyLines, handlers: handlers,
                                                on: loop), actual))
        }
        switch made {
        case .success(let (server, actual)): return StreamListener(loop: loop, server: server, port: actual)
        case .failure(let error): throw error
        }
    }

    /// Serves a Unix socket already bound and listening (`fd`, which the listener owns from now on).
    public static func unix(fd: Int32, limits: ListenLimits, fellBehind: String? = nil, handlers: Handlers) throws(DuoError) -> StreamListener {
        let loop = NetworkLoop.shared
        let made = loop.sync { () -> Result<NetworkLoop.Resident, DuoError> in
            var error: UnsafeMutablePointer<GError>?
            guard let socket = g_socket_new_from_fd(fd, &error) else {
                return .failure(.runtime(.text("cannot serve the socket (%s)", GIO.message(&error))))
            }
            return .success(StreamServer.start(socket, limits: limits, fellBehind: fellBehind, handlers: handlers, on: loop))
        }
        switch made {
        case .success(let server): return StreamListener(loop: loop, server: server, port: 0)
        case .failure(let error): throw error
        }
    }

    private init(loop: NetworkLoop, server: NetworkLoop.Resident, port: Int) {
        self.loop = loop
        self.server = server
        self.port = port
    }

    /// Sends one line to every connected client, in the order given. Never waits.
    public func broadcast(_ line: String) {
        let loop = self.loop, server = self.server
        outbox.post(line, on: loop) { lines in loop.resident(server, as: StreamServer.self)?.broadcast(lines) }
    }

    /// Stops listening and closes every client; the port (or socket) is closed when it returns.
    public func stop() {
        outbox.close()
        let loop = self.loop, server = self.server
        loop.sync {
            loop.resident(server, as: StreamServer.self)?.stop()
            loop.evict(server)
        }
    }

    /// Number of clients connected now (for tests and the log).
    public var clients: Int {
        let loop = self.loop, server = self.server
        return loop.sync { loop.resident(server, as: StreamServer.self)?.connections.count ?? 0 }
    }
}

/// One client of a `StreamListener`: its address and what may be done with it, from any thread.
///
/// Thread: value type; its calls run on the network loop (at once when made there).
public struct StreamClient: Sendable, Hashable {
    public let id: Int
    /// Its IP address ("local" for a Unix socket's clients).
    public let address: String
    let loop: NetworkLoop
    let server: NetworkLoop.Resident

    public static func == (a: StreamClient, b: StreamClient) -> Bool { a.id == b.id && a.server == b.server }
    public func hash(into hasher: inout Hasher) { hasher.combine(id); hasher.combine(server) }

    /// Sends one line (a newline is added). Never waits.
    public func send(_ line: String) { onLoop { $0.send(Array((line + "\n").utf8), to: id) } }

    /// Closes the connection (after what was sent).
    public func close() { onLoop { $0.close(id) } }

    /// Whether it is still connected; on the loop's thread.
    public var isOpen: Bool { loop.resident(server, as: StreamServer.self)?.connections[id] != nil }

    /// Runs `work` on the loop after `seconds`, if the client is still connected then.
    public func after(_ seconds: Double, _ work: @escaping @Sendable (StreamClient) -> Void) {
        let me = self
        loop.after(seconds) { if me.isOpen { work(me) } }
    }

    private func onLoop(_ work: @escaping @Sendable (StreamServer) -> Void) {
        let loop = self.loop, server = self.server
        if loop.isCurrent {
            if let s = loop.resident(server, as: StreamServer.self) { work(s) }
        } else {
            loop.async { if let s = loop.resident(server, as: StreamServer.self) { work(s) } }
        }
    }
}

/// The listener's state on the loop: its socket, its clients, its admission.
///
/// Thread: the network loop's only (kept by `NetworkLoop.keep`).
final class StreamServer {
    final class Connection {
        let socket: UnsafeMutablePointer<GSocket>
        let client: StreamClient
        var framer: LineFramer
        var reading: SocketWatch?
        /// The rest of a line that went in part: sent as room comes, then the client is dropped.
        var rest: [UInt8]?
        var writing: SocketWatch?
        init(socket: UnsafeMutablePointer<GSocket>, client: StreamClient, longest: Int, emptyLines: Bool) {
            self.socket = socket
            self.client = client
            framer = LineFramer(longest: longest, keepsEmptyLines: emptyLines)
        }
    }

    private let socket: UnsafeMutablePointer<GSocket>
    private let loop: NetworkLoop
    private let handlers: StreamListener.Handlers
    private let fellBehind: String?
    private let emptyLines: Bool
    private var admission: Admission
    private var accepting: SocketWatch?
    private(set) var connections: [Int: Connection] = [:]
    private var resident: NetworkLoop.Resident?
    private var nextID = 0

    private init(_ socket: UnsafeMutablePointer<GSocket>, limits: ListenLimits, fellBehind: String?, emptyLines: Bool,
                 handlers: StreamListener.Handlers, loop: NetworkLoop) {
        self.socket = socket
        self.loop = loop
        self.handlers = handlers
        self.fellBehind = fellBehind
        self.emptyLines = emptyLines
        admission = Admission(limits)
    }

    static func start(_ socket: UnsafeMutablePointer<GSocket>, limits: ListenLimits, fellBehind: String?, emptyLines: Bool = false,
                      handlers: StreamListener.Handlers, on loop: NetworkLoop) -> NetworkLoop.Resident {
        g_socket_set_blocking(socket, 0)
        let server = StreamServer(socket, limits: limits, fellBehind: fellBehind, emptyLines: emptyLines, handlers: handlers, loop: loop)
        let resident = loop.keep(server)
        server.resident = resident
        server.accepting = SocketWatch(socket, GIO.readable, on: loop) { [unowned server] _ in server.acceptAll() }
        return resident
    }

    private func acceptAll() -> Bool {
        while true {
            var error: UnsafeMutablePointer<GError>?
            guard let client = g_socket_accept(socket, nil, &error) else {
                return GIO.wouldBlock(&error) || error == nil
            }
            g_socket_set_blocking(client, 0)
            let remote = g_socket_get_remote_address(client, nil)
            let address = GIO.describe(remote).host
            if let remote { g_object_unref(remote) }
            // Too many at once (from anywhere, or from this address): closed at once, tried again later.
            guard admission.connect(address) else {
                g_socket_close(client, nil)
                g_object_unref(client)
                continue
            }
            nextID += 1
            let connection = Connection(socket: client, client: StreamClient(id: nextID, address: address, loop: loop, server: resident!),
                                        longest: admission.limits.longest, emptyLines: emptyLines)
            connections[nextID] = connection
            let id = nextID
            connection.reading = SocketWatch(client, GIO.readable, on: loop) { [unowned self] _ in read(id) }
            handlers.opened(connection.client)
        }
    }

    /// Reads what a client sent (at most 16 × 64 KiB at a time, so a flood shares the loop).
    private func read(_ id: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<16 {
            guard let connection = connections[id] else { return false }
            var error: UnsafeMutablePointer<GError>?
            let n = buffer.withUnsafeMutableBytes { Int(g_socket_receive(connection.socket, $0.baseAddress, gsize($0.count), nil, &error)) }
            if n < 0, GIO.wouldBlock(&error) { return true }
            guard n > 0 else {
                close(id)
                return false
            }
            for piece in connection.framer.feed(buffer[0..<n]) {
                guard connections[id] != nil else { return false }
                switch piece {
                case .line(let line):
                    // The listener's rate per address (none for the control socket and the handshake).
                    let now = Int64(DispatchTime.now().uptimeNanoseconds)
                    switch admission.message(from: connection.client.address, size: line.utf8.count, at: now) {
                    case .accept: handlers.line(connection.client, line)
                    case .tooLong: handlers.tooLong(connection.client)
                    case .tooFast, .tooMany: break
                    }
                case .tooLong: handlers.tooLong(connection.client)
                }
            }
        }
        return true
    }

    func broadcast(_ lines: [String]) {
        for line in lines {
            let bytes = Array((line + "\n").utf8)
            for id in connections.keys.sorted() { send(bytes, to: id) }
        }
    }

    func send(_ bytes: [UInt8], to id: Int) {
        guard let connection = connections[id], connection.rest == nil else { return }
        var error: UnsafeMutablePointer<GError>?
        let sent = bytes.withUnsafeBytes { Int(g_socket_send(connection.socket, $0.baseAddress, gsize($0.count), nil, &error)) }
        if sent == bytes.count { return }
        if sent > 0 {
            // Part of the line went: the rest follows (as room comes, within 500 ms) before the client is
            // dropped, so it never reads half a line.
            connection.rest = Array(bytes[sent...])
            connection.writing = SocketWatch(connection.socket, GIO.writable, on: loop) { [unowned self] _ in finish(id) }
            let resident = self.resident!, loop = self.loop
            loop.after(0.5) { loop.resident(resident, as: StreamServer.self)?.close(id) }
            return
        }
        let full = GIO.wouldBlock(&error)
        if full, let fellBehind {
            let last = Array((fellBehind + "\n").utf8)
            _ = last.withUnsafeBytes { g_socket_send(connection.socket, $0.baseAddress, gsize($0.count), nil, nil) }
        }
        close(id)
    }

    private func finish(_ id: Int) -> Bool {
        guard let connection = connections[id], let rest = connection.rest else { return false }
        var error: UnsafeMutablePointer<GError>?
        let sent = rest.withUnsafeBytes { Int(g_socket_send(connection.socket, $0.baseAddress, gsize($0.count), nil, &error)) }
        if sent < 0, GIO.wouldBlock(&error) { return true }
        if sent > 0, sent < rest.count {
            connection.rest = Array(rest[sent...])
            return true
        }
        close(id)
        return false
    }

    func close(_ id: Int) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        connection.reading?.cancel()
        connection.writing?.cancel()
        connection.reading = nil
        connection.writing = nil
        g_socket_shutdown(connection.socket, 1, 1, nil)
        g_socket_close(connection.socket, nil)
        g_object_unref(connection.socket)
        admission.leave(connection.client.address)
    }

    func stop() {
        accepting?.cancel()
        accepting = nil
        g_socket_close(socket, nil)
        g_object_unref(socket)
        for id in connections.keys.sorted() { close(id) }
    }
}
