/// An honest, smooth operator preview. A machine that cannot draw every camera frame on the operator
/// monitor (1080p60 on two cores without a GPU) used to drop them in bursts (the leaky queue, the sink's
/// QoS), which stutters and reads like a broken take. Instead the preview branch shows an even share of
/// the frames from the start (`videorate` with a ceiling: every second frame of 60 fps), the HUD says
/// "preview 30 of 60 fps" apart from the take's dropped count, and takes always get every frame.
///
/// Thread: stateless; any thread.
public enum PreviewPacing {
    /// The most frames per second the operator preview shows.
    public static let ceiling = 30.0

    /// The operator preview's frame rate cap for a camera at `rate`: nil (every frame) up to the
    /// ceiling; above it, the camera rate over the smallest whole step that reaches the ceiling (60 and
    /// 59.94 → 30, 50 → 25, 120 → 30), so the frames shown are evenly spaced.
    public static func maxRate(camera rate: Double) -> Int? {
        guard rate > ceiling + 0.5 else { return nil }
        let step = (rate / ceiling).rounded(.up)
        return Int((rate / step).rounded())
    }
}

/// Frames the operator preview showed per second, measured over the last few seconds from the preview
/// sink's counts (frames reaching it, less those it dropped late).
///
/// Thread: value type; owned by the desktop face (GTK thread). Time is a parameter (nanoseconds).
public struct PreviewMeter: Sendable, Equatable {
    public let window: Int64
    private var samples: [(time: Int64, shown: Int64)] = []

    public init(window: Int64 = 2_000_000_000) { self.window = window }

    public static func == (a: PreviewMeter, b: PreviewMeter) -> Bool {
        a.window == b.window && a.samples.map(\.time) == b.samples.map(\.time) && a.samples.map(\.shown) == b.samples.map(\.shown)
    }

    /// A reading at `now`: `shown` frames so far. Returns frames per second over the window (nil until
    /// it spans at least half of it).
    public mutating func add(at now: Int64, shown: Int64) -> Double? {
        if let last = samples.last, shown < last.shown { samples.removeAll() }   // a new graph: start again
        samples.append((now, shown))
        while samples.count > 2, now - samples[1].time >= window { samples.removeFirst() }
        guard let first = samples.first, now - first.time >= window / 2 else { return nil }
        return Double(shown - first.shown) * 1e9 / Double(now - first.time)
    }
}
