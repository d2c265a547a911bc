/// One Open Sound Control 1.0 message (`--osc PORT`): an address such as `/duo/speed` and its typed
/// arguments. Parsed from, and encoded to, the bytes of one UDP datagram; a bundle (`#bundle`) is
/// unpacked into its messages (time tags are ignored: every message is carried out on arrival).
///
/// Only OSC 1.0's types are read: `i` int32, `f` float32, `s` string, `b` blob, `h` int64, `d` double,
/// `T` `F` `N` `I` (no data). Every problem is one line saying what a good packet looks like.
///
/// Thread: value type, Sendable; parsed on the network loop's thread (the OSC port).
public struct OSCMessage: Sendable, Equatable {
    public enum Argument: Sendable, Equatable {
        case int(Int32), float(Float), string(String), blob([UInt8]), int64(Int64), double(Double), bool(Bool), null, impulse

        /// A number of any numeric type (ints, floats, doubles), for arguments Companion may send either way.
        public var number: Double? {
            switch self {
            case .int(let v): Double(v)
            case .float(let v): v.isFinite ? Double(v) : nil
            case .int64(let v): Double(v)
            case .double(let v): v.isFinite ? v : nil
            default: nil
            }
        }
        var tag: UInt8 {
            switch self {
            case .int: UInt8(ascii: "i")
            case .float: UInt8(ascii: "f")
            case .string: UInt8(ascii: "s")
            case .blob: UInt8(ascii: "b")
            case .int64: UInt8(ascii: "h")
            case .double: UInt8(ascii: "d")
            case .bool(let on): on ? UInt8(ascii: "T") : UInt8(ascii: "F")
            case .null: UInt8(ascii: "N")
            case .impulse: UInt8(ascii: "I")
            }
        }
    }

    public var address: String
    public var arguments: [Argument]

    public init(_ address: String, _ arguments: [Argument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// The largest datagram read: bigger ones are refused whole.
    public static let maximumSize = 65_507

    /// The messages in one datagram (one, or a bundle's). Throws a usage error naming the problem.
    public static func parse(_ bytes: [UInt8]) throws(DuoError) -> [OSCMessage] {
        guard !bytes.isEmpty else { throw .usage(.text("osc: empty packet; send an OSC 1.0 message such as /duo/record")) }
        var out: [OSCMessage] = []
        try parsePacket(bytes[...], depth: 0, into: &out)
        return out
    }

    /// How many messages a packet holds (one, or a bundle's, nested ones counted), read from the bundle's
    /// element sizes only: cheap enough to ask before parsing, so a 4,000-message bundle beyond the rate is
    /// refused without being read. A malformed packet counts what it can (parsing then says what is wrong).
    public static func count(_ bytes: [UInt8]) -> Int {
        func count(_ bytes: ArraySlice<UInt8>, depth: Int) -> Int {
            guard bytes.first == UInt8(ascii: "#"), depth < 4, bytes.count >= 16 else { return 1 }
            var at = bytes.startIndex + 16, total = 0
            while at + 4 <= bytes.endIndex {
                let size = Int(UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3]))
                at += 4
                guard size > 0, at + size <= bytes.endIndex else { return total + 1 }
                total += count(bytes[at..<(at + size)], depth: depth + 1)
                at += size
            }
            return max(total, 1)
        }
        return count(bytes[...], depth: 0)
    }

    private static func parsePacket(_ bytes: ArraySlice<UInt8>, depth: Int, into out: inout [OSCMessage]) throws(DuoError) {
        if bytes.first == UInt8(ascii: "#") {
            guard depth < 4 else { throw .usage(.text("osc: bundles nested more than 4 deep; send plain messages")) }
            var reader = Reader(bytes)
            guard try reader.string() == "#bundle" else { throw .usage(.text("osc: a packet starting with # must be a #bundle")) }
            _ = try reader.take(8)   // time tag: carried out on arrival
            while !reader.isAtEnd {
                let size = Int(try reader.int32())
                guard size > 0, size % 4 == 0 else { throw .usage(.text("osc: bundle element size %s is not a positive multiple of 4", size)) }
                try parsePacket(try reader.take(size), depth: depth + 1, into: &out)
            }
            return
        }
        out.append(try parseMessage(bytes))
    }

    private static func parseMessage(_ bytes: ArraySlice<UInt8>) throws(DuoError) -> OSCMessage {
        var reader = Reader(bytes)
        let raw = try reader.string()
        // Said in errors as it can be shown on one line: control characters escaped, at most 80 characters.
        let address = TerminalText.escaped(raw, limit: 80)
        guard address.hasPrefix("/") else {
            throw .usage(.text("osc: the address must start with /, such as /duo/record"))
        }
        // OSC 1.0 allows a message without type tags (old senders): no arguments then.
        guard !reader.isAtEnd else { return OSCMessage(raw) }
        let tags = try reader.string()
        guard tags.hasPrefix(",") else { throw .usage(.text("osc: %s: the type tags must start with a comma", address)) }
        var arguments: [Argument] = []
        for tag in tags.utf8.dropFirst() {
            switch tag {
            case UInt8(ascii: "i"): arguments.append(.int(try reader.int32()))
            case UInt8(ascii: "f"): arguments.append(.float(Float(bitPattern: UInt32(bitPattern: try reader.int32()))))
            case UInt8(ascii: "s"), UInt8(ascii: "S"): arguments.append(.string(try reader.string()))
            case UInt8(ascii: "b"):
                let size = Int(try reader.int32())
                guard size >= 0 else { throw .usage(.text("osc: %s: a blob has a negative size", address)) }
                arguments.append(.blob(Array(try reader.take(size))))
                try reader.skipPadding(size)
            case UInt8(ascii: "h"): arguments.append(.int64(try reader.int64()))
            case UInt8(ascii: "t"): arguments.append(.int64(try reader.int64()))
            case UInt8(ascii: "d"): arguments.append(.double(Double(bitPattern: UInt64(bitPattern: try reader.int64()))))
            case UInt8(ascii: "T"): arguments.append(.bool(true))
            case UInt8(ascii: "F"): arguments.append(.bool(false))
            case UInt8(ascii: "N"): arguments.append(.null)
            case UInt8(ascii: "I"): arguments.append(.impulse)
            default:
                throw .usage(.text("osc: %s: unknown type tag '%s'; use i, f, s, b, h, d, T, F, N or I", address, Character(Unicode.Scalar(tag))))
            }
        }
        guard reader.isAtEnd else { throw .usage(.text("osc: %s: bytes left over after the arguments the type tags name", address)) }
        return OSCMessage(raw, arguments)
    }

    /// The message as one datagram.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        Self.put(address, into: &out)
        Self.put("," + String(decoding: arguments.map(\.tag), as: UTF8.self), into: &out)
        for argument in arguments {
            switch argument {
            case .int(let v): Self.put(UInt32(bitPattern: v), into: &out)
            case .float(let v): Self.put(v.bitPattern, into: &out)
            case .string(let s): Self.put(s, into: &out)
            case .blob(let b):
                Self.put(UInt32(b.count), into: &out)
                out += b
                out += [UInt8](repeating: 0, count: (4 - b.count % 4) % 4)
            case .int64(let v): Self.put(UInt64(bitPattern: v), into: &out)
            case .double(let v): Self.put(v.bitPattern, into: &out)
            case .bool, .null, .impulse: break
            }
        }
        return out
    }

    private static func put(_ s: String, into out: inout [UInt8]) {
        let bytes = Array(s.utf8.filter { $0 != 0 })
        out += bytes
        out += [UInt8](repeating: 0, count: 4 - bytes.count % 4)
    }
    private static func put(_ v: UInt32, into out: inout [UInt8]) {
        out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    private static func put(_ v: UInt64, into out: inout [UInt8]) {
        put(UInt32(v >> 32), into: &out)
        put(UInt32(v & 0xFFFF_FFFF), into: &out)
    }

    /// Reads OSC's 4-byte-aligned fields, refusing anything cut short.
    private struct Reader {
        var bytes: ArraySlice<UInt8>
        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
        var isAtEnd: Bool { bytes.isEmpty }

        mutating func take(_ count: Int) throws(DuoError) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count >= count else { throw .usage(.text("osc: the packet is cut short; send whole OSC 1.0 messages")) }
            let part = bytes.prefix(count)
            bytes = bytes.dropFirst(count)
            return part
        }
        mutating func skipPadding(_ size: Int) throws(DuoError) { _ = try take((4 - size % 4) % 4) }

        mutating func string() throws(DuoError) -> String {
            guard let end = bytes.firstIndex(of: 0) else { throw .usage(.text("osc: a string is not terminated; OSC strings end with a zero byte")) }
            let text = bytes[bytes.startIndex..<end]
            let length = text.count
            guard let decoded = String(validating: text, as: UTF8.self) else { throw .usage(.text("osc: a string is not UTF-8")) }
            _ = try take(length + 4 - length % 4)
            return decoded
        }
        mutating func int32() throws(DuoError) -> Int32 {
            let b = Array(try take(4))
            return Int32(bitPattern: UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]))
        }
        mutating func int64() throws(DuoError) -> Int64 {
            let high = UInt64(UInt32(bitPattern: try int32())), low = UInt64(UInt32(bitPattern: try int32()))
            return Int64(bitPattern: high << 32 | low)
        }
    }
}
