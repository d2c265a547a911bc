import Foundation

/// MessagePack (msgpack.org's format), the values JSON has: obs-websocket's `obswebsocket.msgpack`
/// subprotocol (simpleobsws speaks only it). Messages are turned into JSON text and back at the
/// WebSocket's edge, so the protocol itself is handled once (`ObsWebSocketSession`).
///
/// Thread: pure functions; any thread.
public enum MessagePack {
    /// MessagePack bytes as JSON text, or why not (one line).
    public static func json(_ bytes: [UInt8]) throws(DuoError) -> String {
        var reader = Reader(bytes: bytes)
        let value = try reader.value(depth: 0)
        guard reader.at == bytes.count else { throw .input(.text("msgpack: %s bytes after the value", bytes.count - reader.at)) }
        guard JSONSerialization.isValidJSONObject(value), let data = try? JSONSerialization.data(withJSONObject: value) else {
            throw .input(.text("msgpack: the message is not a map of JSON values"))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// JSON text as MessagePack bytes (nil: not JSON).
    public static func bytes(json text: String) -> [UInt8]? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
        var out: [UInt8] = []
        encode(value, into: &out)
        return out
    }

    static func encode(_ value: Any, into out: inout [UInt8]) {
        func big<T: FixedWidthInteger>(_ n: T) { withUnsafeBytes(of: n.bigEndian) { out.append(contentsOf: $0) } }
        func header(_ count: Int, fix: UInt8, fixLimit: Int, _ codes: (UInt8, UInt8, UInt8?)) {
            if count < fixLimit { out.append(fix | UInt8(count)) }
            else if let c8 = codes.2, count < 256 { out.append(c8); out.append(UInt8(count)) }
            else if count < 65_536 { out.append(codes.0); big(UInt16(count)) }
            else { out.append(codes.1); big(UInt32(count)) }
        }
        switch value {
        case let s as String:
            let utf8 = Array(s.utf8)
            header(utf8.count, fix: 0xa0, fixLimit: 32, (0xda, 0xdb, 0xd9))
            out += utf8
        case let array as [Any]:
            header(array.count, fix: 0x90, fixLimit: 16, (0xdc, 0xdd, nil))
            for item in array { encode(item, into: &out) }
        case let map as [String: Any]:
            header(map.count, fix: 0x80, fixLimit: 16, (0xde, 0xdf, nil))
            for (key, item) in map.sorted(by: { $0.key < $1.key }) {
                encode(key, into: &out)
                encode(item, into: &out)
            }
        case is NSNull: out.append(0xc0)
        case let n as NSNumber:
            let type = String(cString: n.objCType)
            if type == "c" || type == "B" {
                out.append(n.boolValue ? 0xc3 : 0xc2)
            } else if type == "d" || type == "f" {
                out.append(0xcb)
                big(n.doubleValue.bitPattern)
            } else {
                let i = n.int64Value
                if (0...127).contains(i) { out.append(UInt8(i)) }
                else if (-32 ..< 0).contains(i) { out.append(UInt8(bitPattern: Int8(i))) }
                else { out.append(0xd3); big(i) }
            }
        default: out.append(0xc0)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func take(_ n: Int) throws(DuoError) -> ArraySlice<UInt8> {
            guard n >= 0, at + n <= bytes.count else { throw .input(.text("msgpack: the message ends inside a value")) }
            defer { at += n }
            return bytes[at..<(at + n)]
        }

        mutating func uint(_ n: Int) throws(DuoError) -> UInt64 {
            try take(n).reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func string(_ n: Int) throws(DuoError) -> String {
            let slice = try take(n)
            guard let s = String(bytes: slice, encoding: .utf8) else { throw .input(.text("msgpack: a string is not UTF-8")) }
            return s
        }

        mutating func value(depth: Int) throws(DuoError) -> Any {
            guard depth < 64 else { throw .input(.text("msgpack: nested more than 64 deep")) }
            let code = try uint(1)
            switch code {
            case 0x00...0x7f: return Int(code)
            case 0xe0...0xff: return Int(Int8(bitPattern: UInt8(code)))
            case 0x80...0x8f: return try map(Int(code & 0x0f), depth)
            case 0x90...0x9f: return try array(Int(code & 0x0f), depth)
            case 0xa0...0xbf: return try string(Int(code & 0x1f))
            case 0xc0: return NSNull()
            case 0xc2: return false
            case 0xc3: return true
            case 0xca: return Double(Float(bitPattern: UInt32(try uint(4))))
            case 0xcb: return Double(bitPattern: try uint(8))
            case 0xcc: return Int(try uint(1))
            case 0xcd: return Int(try uint(2))
            case 0xce: return Int(try uint(4))
            case 0xcf:
                let n = try uint(8)
                guard n <= UInt64(Int.max) else { throw .input(.text("msgpack: a number too large")) }
                return Int(n)
            case 0xd0: return Int(Int8(truncatingIfNeeded: try uint(1)))
            case 0xd1: return Int(Int16(truncatingIfNeeded: try uint(2)))
            case 0xd2: return Int(Int32(truncatingIfNeeded: try uint(4)))
            case 0xd3: return Int(Int64(bitPattern: try uint(8)))
            case 0xd9: return try string(Int(try uint(1)))
            case 0xda: return try string(Int(try uint(2)))
            case 0xdb: return try string(Int(try uint(4)))
            case 0xdc: return try array(Int(try uint(2)), depth)
            case 0xdd: return try array(Int(try uint(4)), depth)
            case 0xde: return try map(Int(try uint(2)), depth)
            case 0xdf: return try map(Int(try uint(4)), depth)
            default: throw .input(String(format: "msgpack: type 0x%02x (binary or extension) has no JSON value", Int(code)))
            }
        }

        mutating func array(_ count: Int, _ depth: Int) throws(DuoError) -> [Any] {
            guard count <= bytes.count - at else { throw .input(.text("msgpack: the message ends inside an array")) }
            var items: [Any] = []
            for _ in 0..<count { items.append(try value(depth: depth + 1)) }
            return items
        }

        mutating func map(_ count: Int, _ depth: Int) throws(DuoError) -> [String: Any] {
            guard count <= bytes.count - at else { throw .input(.text("msgpack: the message ends inside a map")) }
            var items: [String: Any] = [:]
            for _ in 0..<count {
                guard let key = try value(depth: depth + 1) as? String else { throw .input(.text("msgpack: a map key is not a string")) }
                items[key] = try value(depth: depth + 1)
            }
            return items
        }
    }
}
