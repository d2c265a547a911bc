/// Whether a take's camera kept up (issue 37): a 4K120 take asked for 2 s came out 0.86 s with
/// "0 dropped", because a machine that cannot make the frames delivers fewer, each on time, with no gap
/// in their timestamps to count. The frames a take should hold are its length times its rate; a take
/// that holds fewer than `share` of them (and at least `fewestMissing` fewer) says so, in the summary,
/// the sidecar and on the HUD.
///
/// Thread: value type, Sendable; pure.
public struct KeepUp: Sendable, Equatable {
    /// Frames the record branch got, and the take's length × its rate.
    public let delivered: Int64
    public let expected: Int64
    /// The format asked of the camera, e.g. `3840x2160@120`.
    public let format: String

    /// Below this share of the expected frames the take did not keep up.
    public static let share = 0.9
    /// A few frames short is a start or stop's rounding, not a machine that falls behind.
    public static let fewestMissing: Int64 = 5

    /// The line said: "the camera delivered 103 of 240 frames: this machine could not keep up with 3840x2160@120".
    public var message: String {
        "the camera delivered \(delivered) of \(expected) frames: this machine could not keep up with \(format)"
            + "; try a smaller --format"
    }

    /// The same for the operator to read (the HUD and the log), in their language; `message` stays
    /// English for the summary's JSON.
    public var shown: String {
        tr("the camera delivered %1$d of %2$d frames: this machine could not keep up with %3$s; try a smaller --format",
           delivered, expected, format)
    }

    /// The shortfall of a take of `frames` frames over `lengthNanoseconds` at `format`, or nil when it kept up.
    public static func check(frames: Int64, lengthNanoseconds: Int64, format: VideoFormat) -> KeepUp? {
        let rate = format.frameRate.value
        guard rate > 0, lengthNanoseconds > 0 else { return nil }
        // Whole frames in the length (a hair over, so 7.5 s at 24 fps is 180, not 179.99…).
        let expected = Int64((Double(lengthNanoseconds) / 1e9 * rate + 1e-6).rounded(.down))
        guard expected - frames >= fewestMissing, Double(frames) < share * Double(expected) else { return nil }
        return KeepUp(delivered: frames, expected: expected, format: format.description)
    }

    public init(delivered: Int64, expected: Int64, format: String) {
        self.delivered = delivered; self.expected = expected; self.format = format
    }
}

extension TakeResult {
    /// The take's shortfall (`KeepUp`) at its own format (else `fallback`), or nil: when it kept up, and for a
    /// take that failed or swapped cameras (its frames are missing for that reason, said already).
    public func keepUp(format fallback: VideoFormat) -> KeepUp? {
        guard failure == nil, swaps.isEmpty, !empty else { return nil }
        return KeepUp.check(frames: frames.frames, lengthNanoseconds: endRunningTime - startRunningTime, format: format ?? fallback)
    }
}
