import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--control PATH`: a Unix socket (mode 0600) speaking JSON lines. Each line a client sends is parsed
/// into a `ControlCommand` and handed to `handler`; a bad line gets `{"event":"error","message":…}` back
/// on that connection only. Every event the run emits goes to every connected client.
///
/// A bare name (`--control studio`) lives under `$XDG_RUNTIME_DIR/duo-capture/studio.sock`.
///
/// Thread: one thread accepts, one thread per client reads; `broadcast` may be called from any thread
/// (a lock guards the client list). `handler` runs on the client's reader thread.
final class ControlSocket: Sendable {
    let path: String
    private let listener: Int32
    private let handler: @Sendable (ControlCommand) -> Void
    /// The connected clients, and whether the socket was closed, behind a mutex (`Locked`).
    private struct Clients: Sendable {
        var fds: [Int32] = []
        var closed = false
    }
    private let clients = Locked(Clients())

    static func resolve(_ name: String) -> String {
        if name.contains("/") { return name }
        return "\(ownFolders().last!)/\(name).sock"
    }

    /// The folders a bare socket name lives in that duo-capture makes itself: `duo-capture/` under
    /// `$XDG_RUNTIME_DIR` (the session's own, private folder), or the `/tmp/duo-capture-UID` fallback
    /// and `duo-capture/` under it.
    static func ownFolders() -> [String] {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return ["\(runtime)/duo-capture"]
        }
        let fallback = "/tmp/duo-capture-\(getuid())"
        return [fallback, "\(fallback)/duo-capture"]
    }

    init(path requested: String, handler: @escaping @Sendable (ControlCommand) -> Void) throws(DuoError) {
        let path = Self.resolve(requested)
        self.path = path
        self.handler = handler
        if !requested.contains("/") {
            // Our own folders: made 0700, and refused unless they are ours and private, since another
            // local user could have made them first.
            for folder in Self.ownFolders() {
                mkdir(folder, 0o700)
                try Self.checkPrivate(folder, requested)
            }
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let pathBytes = Array(path.utf8) + [0]
        guard pathBytes.count <= capacity else {
            throw .usage("--control \(requested): the socket path is longer than \(capacity - 1) bytes; give a shorter one")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            // Only a socket is ever removed: anything else at the path is the user's.
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw .usage("--control \(requested): \(path) exists and is not a socket; give another path")
            }
            // A live socket belongs to another run; a dead one is left over from a crash and goes.
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { Glibc.close(probe) }
            if Self.connectOrBind(probe, &address, bind: false) == 0 {
                throw .runtime("control socket \(path) is in use by another duo-capture; give another --control")
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        // The socket's mode is set before bind, so the file is never there with the umask's wider mode
        // (Linux creates it from the socket's own mode; a test saw 0755 between bind and chmod).
        guard fd >= 0, fchmod(fd, 0o600) == 0, Self.connectOrBind(fd, &address, bind: true) == 0, chmod(path, 0o600) == 0,
              listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { Glibc.close(fd) }
            throw .usage("--control \(requested): cannot open the socket \(path) (\(reason)); give a writable path")
        }
        listener = fd
        let acceptor = Thread { [self] in acceptLoop() }
        acceptor.name = "duo-capture control"
        acceptor.start()
    }

    private static func checkPrivate(_ folder: String, _ requested: String) throws(DuoError) {
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .runtime("--control \(requested): \(folder) is not a folder; remove it or give a full socket path")
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw .runtime("--control \(requested): \(folder) must belong to you with mode 0700 (it is owned by uid \(info.st_uid), mode \(String(info.st_mode & 0o777, radix: 8))); remove it or give a full socket path")
        }
    }

    private static func connectOrBind(_ fd: Int32, _ address: inout sockaddr_un, bind: Bool) -> Int32 {
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind ? Glibc.bind(fd, $0, length) : Glibc.connect(fd, $0, length)
            }
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return  // closed
            }
            var keep = false
            clients.update { c in
                guard !c.closed else { return }
                c.fds.append(client)
                keep = true
            }
            guard keep else { Glibc.close(client); return }
            let reader = Thread { [self] in readLoop(client) }
            reader.name = "duo-capture control client"
            reader.start()
        }
    }

    private func readLoop(_ fd: Int32) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        /// Inside a line already reported as too long: dropped up to its end.
        var discarding = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            pending.append(contentsOf: buffer[0..<n])
            if discarding {
                guard let newline = pending.firstIndex(of: 10) else { pending.removeAll(); continue }
                pending.removeSubrange(...newline)
                discarding = false
            }
            if pending.count > 65_536 && !pending.contains(10) {
                send(line: Self.errorLine("control: line longer than 64 KiB; send one JSON object per line"), to: fd)
                pending.removeAll()
                discarding = true
            }
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                pending.removeSubrange(...newline)
                if line.isEmpty { continue }
                do {
                    handler(try ControlCommand.parse(line))
                } catch {
                    send(line: Self.errorLine(error.message), to: fd)
                }
            }
        }
        clients.update { $0.fds.removeAll { $0 == fd } }
        Glibc.close(fd)
    }

    /// Sends one line without ever waiting: a client whose socket buffer (its outgoing queue, a few
    /// hundred kilobytes) is full has fallen behind and is dropped with a last error line, so one client
    /// that never reads cannot stall the run, the events file or the other clients.
    private func send(line: String, to fd: Int32) {
        let bytes = Array((line + "\n").utf8)
        // MSG_NOSIGNAL: a client that went away must not kill the run with SIGPIPE.
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        guard sent != bytes.count else { return }
        if sent > 0 {
            // Part of the line went: the rest follows (waiting briefly for room) before the client is
            // dropped, so it never reads half an event. Only a client that reads nothing at all for half a
            // second mid-line is cut there.
            finish(Array(bytes[sent...]), to: fd)
            return drop(fd)
        }
        if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK { return drop(fd) }   // gone: its reader ends it
        let last = Array((Self.errorLine("control: this client fell behind reading events and was disconnected") + "\n").utf8)
        if sent < 0 { _ = last.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
        drop(fd)
    }

    /// Sends what is left of a line, waiting at most 500 ms in all for the client to make room.
    private func finish(_ rest: [UInt8], to fd: Int32) {
        var rest = rest[...]
        let deadline = DispatchTime.now().uptimeNanoseconds + 500_000_000
        while !rest.isEmpty, DispatchTime.now().uptimeNanoseconds < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&ready, 1, 50) >= 0 else { return }
            let n = rest.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 { rest = rest.dropFirst(n) } else if n < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return }
        }
    }

    /// Stops sending to `fd` and wakes its reader, which closes it.
    private func drop(_ fd: Int32) {
        // Under the lock: the reader closes `fd` only after taking it out of `clients`, so it is still open.
        clients.update { c in
            guard c.fds.contains(fd) else { return }
            c.fds.removeAll { $0 == fd }
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    /// Sends one JSON line to every connected client.
    func broadcast(_ line: String) {
        for fd in clients.value.fds { send(line: line, to: fd) }
    }

    /// Sends an error event to every client (a command that could not be carried out).
    func close() {
        var fds: [Int32] = []
        clients.update { c in
            if !c.closed { fds = c.fds }
            c.closed = true
            c.fds.removeAll()
        }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
        unlink(path)
    }
}
