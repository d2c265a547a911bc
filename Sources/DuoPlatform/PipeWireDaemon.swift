import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a PipeWire daemon is listening for this user: its socket (`$PIPEWIRE_REMOTE`, default
/// `pipewire-0`, in `$PIPEWIRE_RUNTIME_DIR` or `$XDG_RUNTIME_DIR`) accepts a connection. Asked before
/// listing or opening microphones by name, so a daemon that is not running is one clear line, not a
/// silent empty list or a source that never starts.
///
/// Thread: any; one connect(2), no state.
public enum PipeWireDaemon {
    /// The socket the PipeWire clients would connect to, or nil when no runtime folder is set.
    public static func socketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let name = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        if name.hasPrefix("/") { return name }
        guard let dir = [environment["PIPEWIRE_RUNTIME_DIR"], environment["XDG_RUNTIME_DIR"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
            return nil
        }
        return (dir as NSString).appendingPathComponent(name)
    }

    /// Nil when the daemon answers; else why not, as the end of a sentence ("nothing listens at …").
    public static func problem(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let path = socketPath(environment: environment) else {
            return tr("XDG_RUNTIME_DIR is not set, so there is no PipeWire socket to connect to")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return tr("no socket could be made to reach %s", path) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return tr("the socket path %s is too long", path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0 ? nil : tr("nothing listens at %s", path)
    }
}
