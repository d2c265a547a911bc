/// `duo-capture formats`: what each camera offers, what two cameras share after decoding (size × rate;
/// the pixel format is normalised), what their intersection drops, and the format a session would run at.
/// Pure: the cameras come in as profiles (a simulated camera's, a probed device's, a caps file's).
///
/// Thread: value type; any thread.
public struct FormatReport: Sendable {
    public let lines: [String]
    /// nil: no format fits (the report's last line says `choice: none`).
    public let choice: VideoFormat?

    public init(cameras: [(label: String, profile: CameraProfile)], upTo limit: VideoFormat?, minimumRate: Double) {
        var lines: [String] = []
        func sorted(_ formats: [VideoFormat]) -> [VideoFormat] {
            var seen = Set<VideoFormat>()
            return formats.filter { seen.insert($0).inserted }.sorted { FormatSelection.isBetter($0, than: $1, minimumRate: minimumRate) }
        }
        func list(_ formats: [VideoFormat]) -> String { formats.isEmpty ? "none" : formats.map(Self.exact).joined(separator: ", ") }
        for (i, camera) in cameras.enumerated() {
            let role = cameras.count > 1 ? (i == 0 ? "A" : "B") : "camera"
            lines.append("\(role): \(camera.label): \(list(sorted(camera.profile.formats)))" + (camera.profile.depth ? "; depth" : "; no depth"))
        }
        var offered = sorted(cameras.first?.profile.formats ?? [])
        if cameras.count == 2 {
            let a = sorted(cameras[0].profile.formats), b = sorted(cameras[1].profile.formats)
            offered = sorted(FormatSelection.intersection(a, b))
            lines.append("common (after decoding): \(list(offered))")
            let dropped = sorted((a + b).filter { !offered.contains($0) })
            var drops = dropped.isEmpty ? [] : [list(dropped)]
            let withDepth = cameras.filter(\.profile.depth).count
            if withDepth == 1 {
                drops.append("depth (camera \(cameras[0].profile.depth ? "B" : "A") has none: no depth)")
            } else if withDepth == 2 {
                drops.append("depth (the virtual camera carries none)")
            }
            lines.append("dropped by the intersection: " + (drops.isEmpty ? "nothing" : drops.joined(separator: "; ")))
        }
        let unrecordable = offered.filter { !$0.isRecordable }
        if !unrecordable.isEmpty {
            lines.append("skipped (beyond \(VideoFormat.sides.upperBound) pixels a side or 1 to 1000 fps, which duo-capture records): \(list(unrecordable))")
        }
        let limitText = limit.map { " within \($0)" } ?? ""
        choice = FormatSelection.best(of: offered, upTo: limit, minimumRate: minimumRate)
        lines.append("rule: formats of at least \(OptionReader.clean(minimumRate)) fps first, the most pixels, then the highest rate\(limitText)")
        lines.append("choice: \(choice.map(Self.exact) ?? "none")")
        self.lines = lines
    }

    public var text: String { lines.joined(separator: "\n") }

    /// `WxH@FPS`, FPS an integer or a fraction such as 15/2.
    public static func exact(_ f: VideoFormat) -> String { "\(f.width)x\(f.height)@\(f.frameRate.exact)" }
}
