import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This machine's addresses on its networks, for the pairing address a phone can open: a server bound to
/// every interface (0.0.0.0) is reached at one of these, never at 0.0.0.0 itself.
///
/// Thread: stateless; any thread.
public enum LocalAddresses {
    /// The IPv4 addresses of the interfaces that are up, loopback left out, in the system's order.
    public static func ipv4() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var node = list
        while let entry = node {
            defer { node = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
            }
            let shown = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !found.contains(shown) { found.append(shown) }
        }
        return found
    }
}
