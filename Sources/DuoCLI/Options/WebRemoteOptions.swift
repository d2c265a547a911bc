import DuoCore
import Foundation

/// The remote control's options (`--remote-control`, `--remote-token-file`, `--osc`), kept apart from
/// `Options` so both evolve without colliding.
///
/// Thread: value type; parsed on the main thread at start-up.
public struct WebRemoteOptions: Sendable {
    /// An address to listen on: an IP (nil: loopback only) and a port (0: any free one).
    public struct Listen: Sendable, Equatable {
        public var host: String?
        public var port: Int
    }
    /// `--remote-control [ADDRESS:]PORT`: the web remote (page and WebSocket).
    public var web: Listen?
    /// `--remote-token-file FILE`: the pairing token, instead of a random one.
    public var tokenFile: String?
    /// `--allow-readable-passphrase`, which also takes a token file others can read (refused otherwise).
    public var allowReadableTokenFile = false
    /// `--osc [ADDRESS:]PORT`: OSC over UDP.
    public var osc: Listen?
    /// `--osc-allow ADDRESS[/BITS]` (repeatable): the only senders OSC takes (empty: any that can reach it).
    public var oscAllow: [AddressRange] = []

    public init() {}

    static let names: Set<String> = ["--remote-control", "--remote-token-file", "--osc", "--osc-allow"]

    mutating func parse(_ name: String, _ value: String) throws(DuoError) {
        switch name {
        case "--remote-control": web = try Self.listen(value, option: name)
        case "--osc": osc = try Self.listen(value, option: name)
        case "--remote-token-file": tokenFile = value
        case "--osc-allow": oscAllow.append(try AddressRange(parsing: value))
        default: preconditionFailure("not a remote option: \(name)")
        }
    }

    /// `PORT`, `ADDRESS:PORT` or `[IPv6]:PORT`.
    static func listen(_ value: String, option: String) throws(DuoError) -> Listen {
        var host: String?
        var portText = value
        if let colon = value.lastIndex(of: ":") {
            host = String(value[..<colon])
            portText = String(value[value.index(after: colon)...])
            if let h = host, h.hasPrefix("["), h.hasSuffix("]") { host = String(h.dropFirst().dropLast()) }
        }
        guard let port = Int(portText), (0...65535).contains(port), host.map({ !$0.isEmpty }) ?? true else {
            throw .usage("\(option) \(value): expected [ADDRESS:]PORT, such as 8080 (this machine only) or 0.0.0.0:8080 (the LAN)")
        }
        return Listen(host: host, port: port)
    }
}
