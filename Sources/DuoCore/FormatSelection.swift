/// Choosing a camera format: pure functions over format lists, shared by single-camera selection and the
/// virtual camera's intersection.
///
/// Thread: stateless; any thread.
public enum FormatSelection {
    /// Orders formats best first: more pixels, then higher frame rate.
    public static func isBetter(_ a: VideoFormat, than b: VideoFormat) -> Bool {
        if a.pixels != b.pixels { return a.pixels > b.pixels }
        return a.frameRate > b.frameRate
    }

    /// The best format in `offered` that fits within `limit` (all of them when `limit` is nil).
    public static func best(of offered: [VideoFormat], upTo limit: VideoFormat?) -> VideoFormat? {
        offered.filter { limit.map($0.fits(within:)) ?? true }.max { isBetter($1, than: $0) }
    }

    /// Formats both cameras offer after decoding (size × frame rate; pixel format is normalised), best first.
    public static func intersection(_ a: [VideoFormat], _ b: [VideoFormat]) -> [VideoFormat] {
        let bSet = Set(b)
        var seen = Set<VideoFormat>()
        return a.filter { bSet.contains($0) && seen.insert($0).inserted }.sorted { isBetter($0, than: $1) }
    }

    /// Picks the format a camera runs at, or explains in one line why none fits.
    public static func choose(for camera: String, offered: [VideoFormat], upTo limit: VideoFormat?) throws(DuoError) -> VideoFormat {
        if let f = best(of: offered, upTo: limit) { return f }
        let list = offered.sorted { isBetter($0, than: $1) }.map(\.description)
        let shown = list.prefix(12).joined(separator: ", ") + (list.count > 12 ? ", …" : "")
        if let limit {
            throw .usage("camera \(camera) offers no format at or below \(limit); pick one of: \(shown)")
        }
        throw .input("camera \(camera) offers no video formats")
    }
}
