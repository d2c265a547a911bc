import DuoCore
import DuoPlatform
import Foundation

/// The OSC port (`--osc [ADDRESS:]PORT`): UDP on the network loop (DuoPlatform's `DatagramListener`),
/// IPv4 and IPv6. Each datagram is handed to `received` with who sent it; `reply` sends a datagram back
/// (OSC feedback, `/duo/state`). The packets are parsed in DuoCore (`OSCMessage`), not here.
///
/// Without an address it listens on this machine only, 127.0.0.1 and ::1 (as the web remote does);
/// `0.0.0.0` is every IPv4 interface, `::` every interface of both families.
///
/// Thread: `received` runs on the network loop's thread; `reply` and `close` from any thread.
public final class OSCSocket: Sendable {
    /// Who sent a datagram: its address (to reply to) and how the log names it.
    public typealias Peer = DatagramListener.Peer

    private let listener: DatagramListener
    /// Where the socket listens, such as `127.0.0.1:9000` (the first address; `addresses` has them all).
    public var listening: String { listener.listening.first ?? "" }
    /// Every address listened on, such as `127.0.0.1:9000` and `[::1]:9000`.
    public var addresses: [String] { listener.listening }

    /// Binds `host` (an IPv4 or IPv6 address; nil: 127.0.0.1 and ::1) and `port` (0: any free one).
    public init(host: String?, port: Int, received: @escaping @Sendable ([UInt8], Peer) -> Void) throws(DuoError) {
        let given = "\(host.map { $0.contains(":") ? "[\($0)]:" : "\($0):" } ?? "")\(port)"
        listener = try DatagramListener(hosts: host.map { [$0] } ?? ["127.0.0.1", "::1"], optional: host == nil ? ["::1"] : [],
                                        port: port, longest: OSCMessage.maximumSize, failure: { bad, reason in
            if let bad, reason == "no IP address" {
                return .usage(.text("--osc %s: %s is no IP address; give one such as 0.0.0.0 (every interface), :: or 192.168.1.20", given, bad))
            }
            return .usage(.text("--osc %s: cannot listen (%s); give another port", given, reason))
        }, received: received)
    }

    /// Sends one datagram to `peer`, never waiting (a full buffer drops it: feedback is refreshed anyway).
    public func reply(_ bytes: [UInt8], to peer: Peer) { listener.reply(bytes, to: peer) }

    /// Stops reading and closes the sockets.
    public func close() { listener.close() }
}
