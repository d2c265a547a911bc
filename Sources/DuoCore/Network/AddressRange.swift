//  Which senders a listener takes (`--osc-allow ADDRESS[/BITS]`): IPv4 and IPv6 addresses and prefixes,
//  parsed and matched in pure Swift (an IPv4 sender seen on an IPv6 socket, ::ffff:a.b.c.d, is matched
//  as IPv4). Pure: the OSC port asks before it reads a datagram.

/// One address or prefix, such as `192.168.1.20`, `192.168.1.0/24`, `::1` or `fd00::/8`.
///
/// Thread: value type, Sendable.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The address's bytes: 4 (IPv4) or 16 (IPv6).
    public let bytes: [UInt8]
    /// How many leading bits must match.
    public let bits: Int

    public var description: String { "\(Self.text(bytes))/\(bits)" }

    /// Parses `ADDRESS` or `ADDRESS/BITS`; a bad one is a usage error naming `option`.
    public init(parsing text: String, option: String = "--osc-allow") throws(DuoError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = Self.parse(String(parts[0])) else {
            throw .usage(.text("%s %s: expected an IP address or a prefix such as 192.168.1.20, 192.168.1.0/24 or fd00::/8", option, TerminalText.escaped(text, limit: 80)))
        }
        let most = address.count * 8
        var bits = most
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...most).contains(given) else {
                throw .usage(.text("%s %s: the prefix length must be a number from 0 to %s", option, TerminalText.escaped(text, limit: 80), most))
            }
            bits = given
        }
        self.bytes = address
        self.bits = bits
    }

    /// Whether `address` (an IP address as text, as the socket names the sender) is in the range.
    public func contains(_ address: String) -> Bool {
        guard var other = Self.parse(address) else { return false }
        // An IPv4 sender on an IPv6 socket: ::ffff:a.b.c.d.
        if other.count == 16, bytes.count == 4, other.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) {
            other = Array(other.suffix(4))
        }
        guard other.count == bytes.count else { return false }
        for bit in 0..<bits where (other[bit / 8] ^ bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 { return false }
        return true
    }

    /// Whether `host` (an IP address as text) is a loopback one: 127.0.0.0/8 or ::1.
    public static func isLoopback(_ host: String) -> Bool {
        guard let bytes = parse(host) else { return host == "localhost" }
        if bytes.count == 4 { return bytes[0] == 127 }
        return bytes == [UInt8](repeating: 0, count: 15) + [1]
            || (bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]) && bytes[12] == 127)
    }

    /// The bytes of an IPv4 (`a.b.c.d`) or IPv6 address (with `::` and an IPv4 tail), or nil.
    public static func parse(_ text: String) -> [UInt8]? {
        if !text.contains(":") { return ipv4(Substring(text)) }
        var text = Substring(text)
        if let percent = text.firstIndex(of: "%") { text = text[..<percent] }   // a zone (fe80::1%eth0)
        // Split at "::" (at most one).
        var halves = [String(text)]
        let chars = Array(text)
        if let at = chars.indices.dropLast().first(where: { chars[$0] == ":" && chars[$0 + 1] == ":" }) {
            halves = [String(chars[..<at]), String(chars[(at + 2)...])]
            if halves[1].hasPrefix(":") || halves[1].contains("::") { return nil }
        }
        func groups(_ part: String) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var out: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (i, piece) in pieces.enumerated() {
                if i == pieces.count - 1, piece.contains(".") {
                    guard let v4 = ipv4(piece) else { return nil }
                    out += v4
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    out += [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 4 else { return nil }
        var out: [UInt8] = []
        for piece in pieces {
            guard (1...3).contains(piece.count), piece.allSatisfy(\.isASCIIDigit), let value = UInt8(piece) else { return nil }
            out.append(value)
        }
        return out
    }

    private static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
