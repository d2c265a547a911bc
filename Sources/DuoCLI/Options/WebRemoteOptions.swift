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
    /// `--obs-websocket [ADDRESS:]PORT`: an obs-websocket 5 server.
    public var obsWebSocket: Listen?
    /// `--obs-websocket-password-file FILE`: its password (else one is made and printed at start).
    public var obsPasswordFile: String?
    /// `--hyperdeck [ADDRESS:]PORT` (or ADDRESS: port 9993): a HyperDeck Ethernet protocol server.
    public var hyperDeck: Listen?

    public init() {}

    static let names: Set<String> = ["--remote-control", "--remote-token-file", "--osc", "--osc-allow", "--obs-websocket",
                                     "--obs-websocket-password-file", "--hyperdeck"]
    /// HyperDeck's own port.
    public static let hyperDeckPort = 9993

    mutating func parse(_ name: String, _ value: String) throws(DuoError) {
        switch name {
        case "--remote-control": web = try Self.listen(value, option: name)
        case "--osc": osc = try Self.listen(value, option: name)
        case "--remote-token-file": tokenFile = value
        case "--osc-allow": oscAllow.append(try AddressRange(parsing: value))
        case "--obs-websocket": obsWebSocket = try Self.listen(value, option: name)
        case "--obs-websocket-password-file": obsPasswordFile = value
        case "--hyperdeck":
            // An address alone (0.0.0.0, [::]) listens on HyperDeck's own port.
            let bare = value.hasPrefix("[") && value.hasSuffix("]") || (value.contains(".") && !value.contains(":"))
            hyperDeck = try Self.listen(bare ? "\(value):\(Self.hyperDeckPort)" : value, option: name)
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
            throw .usage(tr("%s %s: expected [ADDRESS:]PORT, such as 8080 (this machine only) or 0.0.0.0:8080 (the LAN)", option, value))
        }
        return Listen(host: host, port: port)
    }
}
