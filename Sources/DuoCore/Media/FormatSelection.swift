/// Choosing a camera format: pure functions over format lists, shared by single-camera selection and the
/// virtual camera's intersection.
///
/// Thread: stateless; any thread.
public enum FormatSelection {
    /// The frame rate below which a format only wins when nothing reaches it (`--min-fps`).
    public static let defaultMinimumRate = 24.0

    /// Orders formats best first: among formats of at least `minimumRate` frames a second, more pixels,
    /// then a higher rate; any such format beats one below it; below it, a higher rate, then more pixels
    /// (a 2 fps still-camera mode never wins over 1080p30 for its size).
    public static func isBetter(_ a: VideoFormat, than b: VideoFormat, minimumRate: Double = defaultMinimumRate) -> Bool {
        let aSmooth = a.frameRate.value >= minimumRate - 0.001, bSmooth = b.frameRate.value >= minimumRate - 0.001
        if aSmooth != bSmooth { return aSmooth }
        if aSmooth {
            if a.pixels != b.pixels { return a.pixels > b.pixels }
            return a.frameRate > b.frameRate
        }
        if a.frameRate != b.frameRate { return a.frameRate > b.frameRate }
        return a.pixels > b.pixels
    }

    /// The best format in `offered` that fits within `limit` (all of them when `limit` is nil). Formats
    /// duo-capture cannot record (`VideoFormat.isRecordable`: a camera that claims 65534x65534) are skipped.
    public static func best(of offered: [VideoFormat], upTo limit: VideoFormat?, minimumRate: Double = defaultMinimumRate) -> VideoFormat? {
        offered.filter { $0.isRecordable && (limit.map($0.fits(within:)) ?? true) }.max { isBetter($1, than: $0, minimumRate: minimumRate) }
    }

    /// What a list of formats says in a message: the first 12, best first, then "…".
    static func shown(_ formats: [VideoFormat]) -> String {
        let list = formats.sorted { isBetter($0, than: $1) }.map(\.description)
        return list.prefix(12).joined(separator: ", ") + (list.count > 12 ? ", …" : "")
    }

    /// Formats both cameras offer after decoding (size × frame rate; pixel format is normalised), best first.
    public static func intersection(_ a: [VideoFormat], _ b: [VideoFormat]) -> [VideoFormat] {
        let bSet = Set(b)
        var seen = Set<VideoFormat>()
        return a.filter { bSet.contains($0) && seen.insert($0).inserted }.sorted { isBetter($0, than: $1) }
    }

    /// Picks the format a camera runs at, or explains in one line why none fits.
    public static func choose(for camera: String, offered: [VideoFormat], upTo limit: VideoFormat?,
                              minimumRate: Double = defaultMinimumRate) throws(DuoError) -> VideoFormat {
        if let f = best(of: offered, upTo: limit, minimumRate: minimumRate) { return f }
        let recordable = offered.filter(\.isRecordable)
        if recordable.isEmpty && !offered.isEmpty {
            throw .input(.text("camera %s offers only formats duo-capture cannot record (%s); it records %s to %s pixels a side at 1 to 1000 fps: give another camera", camera, Self.shown(offered), VideoFormat.sides.lowerBound, VideoFormat.sides.upperBound))
        }
        let shown = Self.shown(recordable)
        if let limit {
            throw .usage(.text("camera %s offers no format at or below %s; pick one of: %s", camera, limit, shown))
        }
        throw .input(.text("camera %s offers no video formats", camera))
    }
}
