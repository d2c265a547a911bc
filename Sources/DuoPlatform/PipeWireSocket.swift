import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a PipeWire daemon answers on its socket (`PipeWireDaemonLocation` says which): a plain
/// `connect` on the Unix socket, closed at once. A socket file a dead daemon left behind refuses it.
///
/// Thread: any; synchronous, returns at once (a local socket connects or is refused without waiting).
public enum PipeWireSocket {
    public static func isReachable(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let path = PipeWireDaemonLocation.socketPath(environment) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }
}
