import Foundation

/// The top-level boxes of an MP4/MOV file, read from their headers only (issue 35: an MP4 whose `moov`
/// index was never written, a recording cut short, was reported as "has no video stream"). Says how a
/// file is cut short, in the user's words, or nil when its layout is whole.
///
/// Thread: stateless; any thread (reads a few bytes per box).
public enum MP4Layout {
    /// Whether `path` is named like an MP4 or QuickTime file.
    public static func applies(to path: String) -> Bool {
        ["mp4", "m4v", "mov"].contains((path as NSString).pathExtension.lowercased())
    }

    /// How the file at `path` is cut short ("is cut short: …"), or nil (whole, or not an MP4 at all).
    public static func problem(_ path: String) -> String? {
        guard applies(to: path), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        var at: UInt64 = 0
        var names: Set<String> = []
        while at + 8 <= size {
            try? handle.seek(toOffset: at)
            guard let head = try? handle.read(upToCount: 16), head.count >= 8 else { break }
            let bytes = [UInt8](head)
            var length = UInt64(bytes[0]) << 24 | UInt64(bytes[1]) << 16 | UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            let name = String(decoding: bytes[4..<8], as: UTF8.self)
            if length == 1, bytes.count >= 16 {
                length = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
            } else if length == 0 {
                length = size - at   // runs to the end of the file
            }
            guard length >= 8 else { return nil }   // not an MP4 layout: let the decoder say
            names.insert(name)
            if at + length > size {
                if name == "moov" || !names.contains("moov") && !names.contains("moof") {
                    return cut(names, truncated: name == "moov")
                }
                return "is cut short: its \(name) box runs \(at + length - size) bytes past the end of the file (it was truncated)"
            }
            at += length
        }
        guard names.contains("ftyp") || names.contains("mdat") else { return nil }
        if !names.contains("moov") { return cut(names) }
        return nil
    }

    /// One top-level box of a file: its type, where it starts and its length in bytes (header included).
    ///
    /// Thread: value type, Sendable.
    public struct TopBox: Sendable, Equatable {
        public var type: String
        public var offset: UInt64
        public var length: UInt64
        public var end: UInt64 { offset + length }
        public init(type: String, offset: UInt64, length: UInt64) { self.type = type; self.offset = offset; self.length = length }
    }

    /// The top-level boxes of the file behind `handle` (`size` bytes long), in order; nil when they do not
    /// tile the file exactly (not an MP4, or cut short: see `problem`).
    public static func topLevelBoxes(_ handle: FileHandle, size: UInt64) -> [TopBox]? {
        var boxes: [TopBox] = []
        var at: UInt64 = 0
        while at < size {
            guard at + 8 <= size else { return nil }
            try? handle.seek(toOffset: at)
            guard let head = try? handle.read(upToCount: 16), head.count >= 8 else { return nil }
            let bytes = [UInt8](head)
            var length = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if length == 1 {
                guard bytes.count >= 16 else { return nil }
                length = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
            } else if length == 0 {
                length = size - at
            }
            guard length >= 8, at + length <= size else { return nil }
            boxes.append(TopBox(type: String(decoding: bytes[4..<8], as: UTF8.self), offset: at, length: length))
            at += length
        }
        return boxes
    }

    private static func cut(_ names: Set<String>, truncated: Bool = false) -> String {
        "is cut short: its index (the MP4 moov box) "
            + (truncated ? "is cut off, so the file was truncated" : "was never written, so the recording stopped before it was finished")
            + (names.contains("mdat") ? " (its frames are there, but cannot be found without it)" : "")
            + "; record with --container mkv, which a cut leaves playable"
    }
}
