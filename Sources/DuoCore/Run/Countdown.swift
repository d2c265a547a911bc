/// The countdown before a take: 0–10 seconds, 3 by default. Recording (and scrolling) starts when it ends.
///
/// Thread: value type, Sendable; evaluated on any thread against pipeline time.
public struct Countdown: Sendable, Hashable {
    public static let allowed = 0...10
    public static let defaultSeconds = 3

    public let seconds: Int

    public init(seconds: Int = Countdown.defaultSeconds) throws(DuoError) {
        guard Countdown.allowed.contains(seconds) else {
            throw .usage(.text("countdown %s s is out of range; give 0 to 10 seconds (default 3)", seconds))
        }
        self.seconds = seconds
    }

    public static func parse(_ text: String) throws(DuoError) -> Countdown {
        guard let n = Int(text) else {
            throw .usage(.text("countdown '%s' is not a whole number of seconds; give 0 to 10 (default 3)", text))
        }
        return try Countdown(seconds: n)
    }

    /// The number to show `elapsed` nanoseconds after the countdown started: `seconds` … 1, then nil
    /// once it has ended (and for a 0 s countdown, nil at once).
    public func displayedValue(elapsed: Int64) -> Int? {
        let total = Int64(seconds) * nanosecondsPerSecond
        guard elapsed >= 0 else { return seconds == 0 ? nil : seconds }
        guard elapsed < total else { return nil }
        let remaining = total - elapsed
        return Int((remaining + nanosecondsPerSecond - 1) / nanosecondsPerSecond)
    }

    /// True once the countdown is over and the take must start.
    public func hasEnded(elapsed: Int64) -> Bool {
        elapsed >= Int64(seconds) * nanosecondsPerSecond
    }
}
