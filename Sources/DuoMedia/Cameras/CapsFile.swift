import CDuoShim
import DuoCore
import Foundation

/// `caps:FILE`: a camera described by its caps, as `gst-device-monitor-1.0` prints them (`caps  : …;`
/// then one structure per line) and `gst_caps_from_string` reads them: raw, `image/jpeg` and
/// `video/x-h264` mixed, rate lists `{ 30/1, 15/1 }`, duplicates allowed. For `duo-capture formats`.
///
/// Thread: any (GStreamer's caps parser is thread-safe).
public enum CapsFile {
    public static func profile(path: String) throws(DuoError) -> CameraProfile {
        try InputFile.requireRegular(path, .text("caps file"), hint: .text("give the caps gst-device-monitor-1.0 printed for the camera, saved to a file"))
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(.text("caps file %s does not exist or cannot be read", path))
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .input(.text("caps file %s is not UTF-8 text", path)) }
        let modes = try parse(text, source: path)
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return CameraProfile(id: name, name: name, modes: modes)
    }

    /// The modes of a caps text (pixel format `jpeg` for image/jpeg, `h264` for video/x-h264).
    public static func parse(_ text: String, source: String) throws(DuoError) -> [CameraProfile.Mode] {
        GStreamer.initialize()
        // gst-device-monitor-1.0 prefixes the first structure with "caps  :"; comments start with #.
        let body = text.split(separator: "\n", omittingEmptySubsequences: true).map { line -> String in
            var l = line.trimmingCharacters(in: .whitespaces)
            if l.hasPrefix("#") { return "" }
            if l.hasPrefix("caps"), let colon = l.firstIndex(of: ":") { l = String(l[l.index(after: colon)...]) }
            return l.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.joined(separator: " ")
        var buffer = [DuoCapsMode](repeating: DuoCapsMode(), count: 4096)
        let n = Int(duo_caps_modes(body, &buffer, Int32(buffer.count)))
        guard n >= 0 else { throw .input(.text("caps file %s is not a caps description (gst_caps_from_string refused it); write structures such as video/x-raw, format=YUY2, width=1280, height=720, framerate=30/1;", source)) }
        guard n > 0 else { throw .input(.text("caps file %s has no video mode with a fixed width, height and frame rate", source)) }
        var seen = Set<String>()
        var modes: [CameraProfile.Mode] = []
        for m in buffer.prefix(n) {
            let media = Self.string(m.media), format = Self.string(m.format)
            let pixel = media == "image/jpeg" ? "jpeg" : media == "video/x-h264" ? "h264" : (format.isEmpty ? media : format)
            let mode = CameraProfile.Mode(pixelFormat: pixel, format: VideoFormat(width: Int(m.width), height: Int(m.height),
                                                                                   frameRate: FrameRate(Int(m.rate_num), Int(m.rate_den))))
            if seen.insert("\(pixel) \(mode.format)").inserted { modes.append(mode) }
        }
        return modes
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
