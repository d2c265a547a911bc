/// Keeps something repeated from flooding the terminal or the log: per kind (`key`), the first `burst`
/// in a window are shown and the rest only counted. A window starts at the first one of its kind and lasts
/// `window` ticks; the next one after it starts a new window. What was held back is either said with the
/// next one shown (`Verdict.held`) or, when `summarize` is set, summed up once its window is over
/// (`due`). At most `capacity` kinds are remembered, so many senders cannot grow it without bound.
///
/// The one throttle: the run's repeated GStreamer warnings (`WarningThrottle`, shown once a minute with
/// how many were held back), a remote's refusals (one line per kind and address every 10 s: `line`), the
/// remote display's wrong passphrases (`HandshakeRefusals`: three a minute said, the rest summed up).
///
/// Thread: value type; its owner keeps it on one actor or behind a lock. Time is a parameter, in any
/// unit (ticks): the director passes nanoseconds, the handshake milliseconds.
public struct Throttle: Sendable {
    /// What to do with one occurrence.
    public struct Verdict: Sendable, Equatable {
        /// Whether to show it now.
        public let show: Bool
        /// How many of its kind were held back since the last one shown (say so with it); 0 when summing up.
        public let held: Int
        /// Which one it is in its window (1: the first; 0: not counted, the throttle being full).
        public let attempt: Int
    }

    public let window: Int64
    public let burst: Int
    public let capacity: Int
    public let summarize: Bool
    private struct Kind: Sendable {
        var start: Int64
        var attempts: Int
        var held: Int
    }
    private var kinds: [String: Kind] = [:]
    /// Held back in windows that are over, not yet summed up (`summarize`).
    private var summaries: [String: Int] = [:]

    public init(window: Int64 = 60_000_000_000, burst: Int = 1, capacity: Int = 1_024, summarize: Bool = false) {
        self.window = window
        self.burst = max(1, burst)
        self.capacity = max(1, capacity)
        self.summarize = summarize
    }

    /// Whether to show an occurrence of kind `key` now, and how many of it were held back since the last
    /// one shown (say so with it).
    public mutating func admit(_ key: String, at now: Int64) -> (show: Bool, held: Int) {
        let verdict = record(key, at: now)
        return (verdict.show, verdict.held)
    }

    /// Records one occurrence of kind `key` at `now`.
    public mutating func record(_ key: String, at now: Int64) -> Verdict {
        if var kind = kinds[key], now - kind.start < window {
            kind.attempts += 1
            if kind.attempts > burst { kind.held += 1 }
            kinds[key] = kind
            return Verdict(show: kind.attempts <= burst, held: 0, attempt: kind.attempts)
        }
        if kinds[key] == nil, kinds.count >= capacity {
            // Forget the kinds whose window has passed; if all are recent, this one is not even counted.
            for (other, kind) in kinds where now - kind.start >= window { retire(other, kind) }
            guard kinds.count < capacity else { return Verdict(show: false, held: 0, attempt: 0) }
        }
        let held = kinds[key]?.held ?? 0
        if summarize, held > 0 { summaries[key, default: 0] += held }
        kinds[key] = Kind(start: now, attempts: 1, held: 0)
        return Verdict(show: true, held: summarize ? 0 : held, attempt: 1)
    }

    /// `line` to show now for an occurrence of kind `key`, with how many like it were held back, or nil.
    public mutating func line(_ key: String, _ line: String, at now: Int64) -> String? {
        let verdict = record(key, at: now)
        guard verdict.show else { return nil }
        return verdict.held > 0 ? tr("%s (%s more like it since the last such line)", line, verdict.held) : line
    }

    /// The kinds held back whose window is over at `now` (every one when `flush`), with how many; each
    /// said once. Kinds whose window is over are forgotten.
    public mutating func due(at now: Int64, flush: Bool = false) -> [(key: String, count: Int)] {
        for (key, kind) in kinds {
            if now - kind.start >= window {
                retire(key, kind)
            } else if flush, kind.held > 0 {
                summaries[key, default: 0] += kind.held
                kinds[key]?.held = 0
            }
        }
        defer { summaries.removeAll() }
        return summaries.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The occurrences held back in the current windows and never shown since, by kind (said once at the
    /// end of a run).
    public var pending: [(key: String, count: Int)] {
        kinds.filter { $0.value.held > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value.held) }
    }

    private mutating func retire(_ key: String, _ kind: Kind) {
        if summarize, kind.held > 0 { summaries[key, default: 0] += kind.held }
        kinds[key] = nil
    }
}

/// A repeated warning (a sink's QoS "A lot of buffers are being dropped"): shown once a minute, with how
/// many were held back. The run director's name for the one `Throttle`.
public typealias WarningThrottle = Throttle
