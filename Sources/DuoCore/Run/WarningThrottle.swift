/// Keeps a repeated warning from flooding the terminal: the first of each kind is shown at once, the same
/// one again within `window` is only counted, and the next after the window is shown with that count.
/// GStreamer sinks repeat their QoS warning ("A lot of buffers are being dropped") every few seconds on a
/// machine that cannot draw every preview frame; one line a minute says as much.
///
/// Thread: value type; owned by the run director's actor. Time is a parameter (nanoseconds).
public struct WarningThrottle: Sendable {
    public let window: Int64
    private var lastShown: [String: Int64] = [:]
    private var held: [String: Int] = [:]

    public init(window: Int64 = 60_000_000_000) { self.window = window }

    /// Whether to show a warning of kind `key` now; `held` is how many of it were kept back since it was
    /// last shown (say so with it).
    public mutating func admit(_ key: String, at now: Int64) -> (show: Bool, held: Int) {
        if let last = lastShown[key], now - last < window {
            held[key, default: 0] += 1
            return (false, 0)
        }
        lastShown[key] = now
        let count = held.removeValue(forKey: key) ?? 0
        return (true, count)
    }

    /// The warnings kept back and never shown since, by kind (said once at the end of a run).
    public var pending: [(key: String, count: Int)] {
        held.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
