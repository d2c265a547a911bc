import Foundation

/// Reads the video modes out of a caps string as GStreamer prints it (`gst_caps_to_string`), so a real
/// camera's probed caps become the same `CameraProfile.Mode` list a profile file gives. Pure Swift, so the
/// parsing is unit-tested without a device.
///
/// Handles fixed values, lists (`{ 30/1, 15/1 }`) and ranges (`[ 1/1, 30/1 ]`, whose maximum is taken).
/// Structures whose size is a range (a scaler, not a camera) are skipped.
///
/// Thread: stateless; any thread.
public enum CapsDescription {
    public static func modes(from caps: String) -> [CameraProfile.Mode] {
        var modes: [CameraProfile.Mode] = []
        for structure in split(caps, on: ";") {
            let fields = split(structure, on: ",")
            guard let media = fields.first?.trimmingSpaces else { continue }
            let pixels: [String]
            var values: [String: String] = [:]
            for field in fields.dropFirst() {
                guard let eq = field.firstIndex(of: "=") else { continue }
                let key = field[..<eq].trimmingSpaces
                var value = field[field.index(after: eq)...].trimmingSpaces
                if value.hasPrefix("("), let close = value.firstIndex(of: ")") {  // strip (type)
                    value = String(value[value.index(after: close)...]).trimmingSpaces
                }
                values[key] = value
            }
            switch media {
            // A structure that names no pixel format (a PipeWire node can offer one) is kept as such: no
            // graph can convert it, and `cameras` says so.
            case "video/x-raw": pixels = values["format"].map(listItems) ?? [CameraProfile.Mode.unnamedPixelFormat]
            case "image/jpeg": pixels = ["jpeg"]
            default: continue
            }
            guard let w = values["width"].flatMap({ Int($0) }), let h = values["height"].flatMap({ Int($0) }) else { continue }
            let rates = frameRates(values["framerate"] ?? "30/1")
            for pixel in pixels {
                for rate in rates where rate.numerator > 0 {
                    modes.append(.init(pixelFormat: pixel, format: VideoFormat(width: w, height: h, frameRate: rate)))
                }
            }
        }
        return modes
    }

    /// The raw pixel formats caps accept (`format` of each `video/x-raw` structure, lists expanded); nil
    /// when any goes (`ANY`, or a raw structure without a `format`).
    public static func pixelFormats(from caps: String) -> Set<String>? {
        if caps.trimmingSpaces == "ANY" { return nil }
        var formats = Set<String>()
        for structure in split(caps, on: ";") {
            let fields = split(structure, on: ",")
            guard let media = fields.first?.trimmingSpaces, media.hasPrefix("video/x-raw") else { continue }
            guard let field = fields.dropFirst().first(where: { $0.split(separator: "=").first?.trimmingSpaces == "format" }),
                  let eq = field.firstIndex(of: "=") else { return nil }
            formats.formUnion(listItems(String(field[field.index(after: eq)...])))
        }
        return formats
    }

    /// A field's values: `(string)YUY2`, or each item of `{ (string)YUY2, (string)NV12 }`, unquoted.
    static func listItems(_ value: String) -> [String] {
        var v = stripType(value.trimmingSpaces)
        if v.hasPrefix("{") && v.hasSuffix("}") { v = String(v.dropFirst().dropLast()) }
        return split(v, on: ",").map { stripType($0.trimmingSpaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            .filter { !$0.isEmpty }
    }

    static func frameRates(_ value: String) -> [FrameRate] {
        let v = value.trimmingSpaces
        if v.hasPrefix("{") || v.hasPrefix("[") {
            let inner = String(v.dropFirst().dropLast())
            let items = split(inner, on: ",").compactMap { FrameRate.parse(stripType($0.trimmingSpaces)) }
            return v.hasPrefix("[") ? (items.max().map { [$0] } ?? []) : items
        }
        return FrameRate.parse(v).map { [$0] } ?? []
    }

    private static func stripType(_ s: String) -> String {
        if s.hasPrefix("("), let close = s.firstIndex(of: ")") { return String(s[s.index(after: close)...]) }
        return s
    }

    /// Splits on `separator` outside brackets, braces and quotes.
    static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var depth = 0
        var quoted = false
        var current = ""
        for ch in text {
            if ch == "\"" { quoted.toggle() }
            if !quoted {
                if ch == "{" || ch == "[" || ch == "<" { depth += 1 }
                if ch == "}" || ch == "]" || ch == ">" { depth -= 1 }
                if ch == separator && depth == 0 {
                    parts.append(current)
                    current = ""
                    continue
                }
            }
            current.append(ch)
        }
        if !current.trimmingSpaces.isEmpty { parts.append(current) }
        return parts
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" }).reversed())
    }
}
