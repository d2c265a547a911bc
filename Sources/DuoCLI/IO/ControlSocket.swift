import DuoCore
import DuoPlatform
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
/// The socket is served on the network loop (DuoPlatform's `StreamListener`, one thread for every
/// listener): lines up to 64 KiB (`ListenLimits.control`), and a client that falls behind reading
/// events is dropped rather than waited for. This type is the policy glue: lines to commands, errors back.
///
/// Thread: `broadcast` and `close` from any thread; `handler` runs on the network loop's thread.
final class ControlSocket: Sendable {
    let path: String
    private let listener: StreamListener

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
        if !requested.contains("/") {
            // Our own folders: made 0700, and refused unless they are ours and private, since another
            // local user could have made them first.
            for folder in Self.ownFolders() {
                mkdir(folder, 0o700)
                try Self.checkPrivate(folder, requested)
            }
        }
        let fd = try UnixSocketFile.listen(path: path, option: "--control \(requested)")
        let fellBehind = Self.errorLine("control: this client fell behind reading events and was disconnected")
        listener = try StreamListener.unix(fd: fd, limits: .control, fellBehind: fellBehind, handlers: .init(line: { client, line in
            do throws(DuoError) {
                handler(try ControlCommand.parse(line))
            } catch {
                client.send(Self.errorLine(error.message))
            }
        }, tooLong: { client in
            client.send(Self.errorLine("control: line longer than 64 KiB; send one JSON object per line"))
        }))
    }

    private static func checkPrivate(_ folder: String, _ requested: String) throws(DuoError) {
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .runtime(tr("--control %s: %s is not a folder; remove it or give a full socket path", requested, folder))
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw .runtime(tr("--control %s: %s must belong to you with mode 0700 (it is owned by uid %s, mode %s); remove it or give a full socket path", requested, folder, info.st_uid, String(info.st_mode & 0o777, radix: 8)))
        }
    }

    /// Sends one JSON line to every connected client (never waiting: see `StreamListener`).
    func broadcast(_ line: String) {
        listener.broadcast(line)
    }

    /// Closes the socket and every client, and removes the socket's file.
    func close() {
        listener.stop()
        unlink(path)
    }
}
