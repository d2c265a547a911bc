import Foundation

/// How a stream of frames kept time: the one reading of a `FrameCount` that every report shares — the run
/// summary and its takes, a take's sidecar and events, the HUD's figures and `inspect`'s decode of a file.
/// Before it, the summary and `inspect` each defined their own gap fields and the drop count was computed
/// in four places.
///
/// Encodes flat (`dropped`, `maxGapMs`, `minGapMs`) so its owner can encode it into its own JSON object
/// (`try timing.encode(to: encoder)` next to the owner's fields): scripts read those keys at the top level.
///
/// Thread: value type, Sendable.
public struct FrameTiming: Sendable, Equatable, Encodable {
    /// Frames missing from the timestamp sequence, against the nominal interval (nil when no interval is
    /// known, as for a file decoded by `inspect`). Time the branch was shut on purpose counts as none.
    public let dropped: Int64?
    /// Largest step between consecutive frames' timestamps, ms (one frame interval when nothing was lost).
    public let maxGapMs: Double
    /// Smallest step, ms (nil before the second frame; under half an interval: two frames nearly at once).
    public let minGapMs: Double?

    /// `interval`: the nominal frame interval, ns, when the rate is known.
    public init(_ count: FrameCount, interval: Int64?) {
        maxGapMs = Double(count.maxGap) / 1e6
        minGapMs = count.minGap.map { Double($0) / 1e6 }
        dropped = interval.map { Self.dropped(count, interval: $0) }
    }

    /// A timing told whole (a joined take's, from its segments').
    public init(dropped: Int64?, maxGapMs: Double, minGapMs: Double?) {
        self.dropped = dropped; self.maxGapMs = maxGapMs; self.minGapMs = minGapMs
    }

    /// Frames the sequence should hold between its first and last timestamp, less those it holds.
    public static func dropped(_ c: FrameCount, interval: Int64) -> Int64 {
        guard let first = c.firstPTS, let last = c.lastPTS, c.frames > 0, interval > 0 else { return 0 }
        let expected = Int64((Double(max(0, last - first - c.shutSpan)) / Double(interval)).rounded()) + 1
        return max(0, expected - c.frames)
    }

    /// The span the frames cover, s: first to last timestamp plus one average step (0 for one frame or none).
    public static func spanSeconds(_ c: FrameCount) -> Double {
        guard let first = c.firstPTS, let last = c.lastPTS, c.frames > 1 else { return 0 }
        return Double(last - first) / 1e9 * Double(c.frames) / Double(c.frames - 1)
    }
}

extension FrameCount {
    /// This count's timing against a nominal frame interval (ns).
    public func timing(interval: Int64?) -> FrameTiming { FrameTiming(self, interval: interval) }
    /// Frames missing from the sequence against a nominal frame interval (ns).
    public func dropped(interval: Int64) -> Int64 { FrameTiming.dropped(self, interval: interval) }
}
