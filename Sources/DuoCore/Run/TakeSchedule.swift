/// The take schedule: the countdown, the take recording, their numbering, the run's end for `--record
/// --duration`, and the segments of a take split by camera (individual mode). Facts in (commands, time,
/// what the media did), decisions out; the run director carries the decisions out through its capture
/// port and reports back with `began`, `beginFailed` and `ended`.
///
/// Thread: value type; owned by the run director's actor. Time is a parameter (pipeline running time, ns).
public struct TakeSchedule: Sendable {
    /// A countdown running for take `take`, which starts at `end`.
    public struct Countdown: Sendable, Equatable {
        public let take: Int
        public let startedAt: Int64
        public let end: Int64
        /// The `--record` take, whose start `--duration` counts from.
        public let endsRun: Bool
    }
    /// The take recording since `start`.
    public struct Current: Sendable, Equatable {
        public let take: Int
        public let start: Int64
        public init(take: Int, start: Int64) { self.take = take; self.start = start }
    }

    /// What the director does next.
    public enum Decision: Sendable, Equatable {
        case nothing
        /// Said to the operator (an `error` event); nothing changes.
        case refuse(String)
        /// A countdown of `seconds` for `take` began; wake the director at `attachAt` to begin it.
        case countdown(take: Int, seconds: Int, attachAt: Int64)
        case cancelCountdown(take: Int)
        /// Attach take `take`'s branch so that frames from `at` on go into it.
        case begin(take: Int, at: Int64, endsRun: Bool)
        case stop(take: Int)
    }

    public let countdown: DuoCore.Countdown
    /// How long before the countdown's end the take's branch is attached, so the encoder is ready.
    public let attachLead: Int64
    /// `--duration`, seconds: with the `--record` take, counted from its start; else from the run's.
    public let duration: Double?

    public private(set) var pending: Countdown?
    public private(set) var current: Current?
    public private(set) var nextTake = 1
    /// When the run ends by itself (`--duration`), once known.
    public private(set) var runEnd: Int64?
    /// A take split by camera: its id and its segments' files so far.
    public private(set) var group: (id: String, files: [String])?
    /// True while a swap in individual mode ends one segment and starts the next.
    public private(set) var splitting = false

    public init(countdown: DuoCore.Countdown, attachLead: Int64 = 150_000_000, duration: Double? = nil) {
        self.countdown = countdown
        self.attachLead = attachLead
        self.duration = duration
    }

    public var isBusy: Bool { pending != nil || current != nil }

    /// A resumed session (`--resume`): take numbers go on after `last`, the last take it recorded.
    public mutating func continueNumbering(after last: Int) { nextTake = max(nextTake, last + 1) }

    // MARK: Facts in

    /// The run started at `now`: without `--record`, `--duration` counts from here.
    public mutating func runStarted(at now: Int64, recording: Bool) {
        if !recording, let seconds = duration { runEnd = now + Self.nanoseconds(seconds) }
    }

    public mutating func record(at now: Int64, endsRun: Bool = false) -> Decision {
        guard !isBusy else { return .refuse("a take is already recording or counting down; send stop first") }
        let length = Int64(countdown.seconds) * nanosecondsPerSecond
        guard length > 0 else { return .begin(take: nextTake, at: now, endsRun: endsRun) }
        pending = Countdown(take: nextTake, startedAt: now, end: now + length, endsRun: endsRun)
        return .countdown(take: nextTake, seconds: countdown.seconds, attachAt: now + length - attachLead)
    }

    public mutating func stop() -> Decision {
        if let p = pending { pending = nil; return .cancelCountdown(take: p.take) }
        if let c = current { return .stop(take: c.take) }
        return .refuse("nothing is recording")
    }

    public mutating func toggle(at now: Int64) -> Decision {
        if let c = current { return .stop(take: c.take) }
        if let p = pending { pending = nil; return .cancelCountdown(take: p.take) }
        return record(at: now)
    }

    public mutating func cancel() -> Decision {
        guard let p = pending else { return .refuse("no countdown is running") }
        pending = nil
        return .cancelCountdown(take: p.take)
    }

    /// Any countdown whose take must be attached by `now` (a little early; it still starts at the end).
    public mutating func due(at now: Int64) -> Decision {
        guard let p = pending, now >= p.end - attachLead else { return .nothing }
        pending = nil
        return .begin(take: p.take, at: p.end, endsRun: p.endsRun)
    }

    /// Whether the run's time is up at `now`.
    public func runIsOver(at now: Int64) -> Bool { runEnd.map { now >= $0 } ?? false }

    /// The media began take `take` at `start` (the later of the asked start and now).
    public mutating func began(take: Int, at start: Int64, endsRun: Bool) {
        nextTake = take + 1
        current = Current(take: take, start: start)
        if endsRun, let seconds = duration { runEnd = start + Self.nanoseconds(seconds) }
    }

    /// Take `take` ended (stopped, failed by itself, or finalised at the end).
    public mutating func ended(take: Int) {
        if current?.take == take { current = nil }
    }

    // MARK: Segments (individual mode)

    /// A swap in individual mode under `--swap-policy segment` with a take running ends this segment and
    /// starts the next: call before the swap, and `swapDone()` after.
    public mutating func swapStarting(individual: Bool, segmentPolicy: Bool) { splitting = individual && segmentPolicy && current != nil }
    public mutating func swapDone() { splitting = false }

    /// The segment a take's file is (individual mode): its take id and number, counted across a split.
    public mutating func segment(forFile file: String) -> (id: String, number: Int) {
        let name = String(file.split(separator: "/").last ?? Substring(file))
        let stem = name.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let id = splitting ? (group?.id ?? stem) : stem
        let files = (splitting ? group?.files ?? [] : []) + [name]
        group = (id, files)
        return (id, files.count)
    }

    /// The last segment's list of every segment's file (nil unless the take was split).
    public var finishedSegments: [String]? {
        guard !splitting, let files = group?.files, files.count > 1 else { return nil }
        return files
    }

    /// The countdown's number on screen at `now` (nil with none).
    public func displayedCountdown(at now: Int64) -> Int? {
        pending.map { countdown.displayedValue(elapsed: now - $0.startedAt) ?? 1 }
    }

    static func nanoseconds(_ seconds: Double) -> Int64 {
        let ns = seconds * 1e9
        return ns >= Double(Int64.max) ? Int64.max : Int64(ns)
    }
}
