/// The teleprompter's speed: words per minute for scripts with spaces, lines per minute for scripts
/// without (Chinese, Japanese), where "words" means nothing to a reader.
///
/// Thread: value type, Sendable.
public enum ScrollSpeed: Sendable, Hashable, CustomStringConvertible {
    case wordsPerMinute(Double)
    case linesPerMinute(Double)

    /// Presets on the number keys 1–9, slow to fast (Up / Down step through them).
    public static let wordPresets: [Double] = [100, 130, 160, 190, 220, 250, 280, 310, 340]
    public static let linePresets: [Double] = [6, 9, 12, 15, 18, 21, 24, 27, 30]

    public static func preset(_ number: Int, separatesWords: Bool) -> ScrollSpeed? {
        let presets = separatesWords ? wordPresets : linePresets
        guard (1...presets.count).contains(number) else { return nil }
        return separatesWords ? .wordsPerMinute(presets[number - 1]) : .linesPerMinute(presets[number - 1])
    }

    /// The default for a script: 160 wpm (a calm presenter), or 12 lines per minute.
    public static func defaultFor(separatesWords: Bool) -> ScrollSpeed {
        separatesWords ? .wordsPerMinute(160) : .linesPerMinute(12)
    }

    /// The speed the user asked for, checked against the script: words per minute only make sense for a
    /// script with spaces, lines per minute for one without. Nil values take the defaults.
    public static func requested(wordsPerMinute: Double?, linesPerMinute: Double?, separatesWords: Bool) throws(DuoError) -> ScrollSpeed {
        if separatesWords {
            if linesPerMinute != nil {
                throw .usage(.text("--lines-per-minute is for scripts without spaces; this script has words, use --wpm N"))
            }
            return wordsPerMinute.map { .wordsPerMinute($0) } ?? defaultFor(separatesWords: true)
        }
        if wordsPerMinute != nil {
            throw .usage(.text("this script has no spaces between words, so words per minute mean nothing; use --lines-per-minute N"))
        }
        return linesPerMinute.map { .linesPerMinute($0) } ?? defaultFor(separatesWords: false)
    }

    /// Scroll units (words or lines) per second.
    public var unitsPerSecond: Double {
        switch self {
        case .wordsPerMinute(let v), .linesPerMinute(let v): v / 60
        }
    }

    public var description: String {
        switch self {
        case .wordsPerMinute(let v): "\(Int(v)) wpm"
        case .linesPerMinute(let v): "\(Int(v)) lines/min"
        }
    }
}

/// Where the teleprompter is, in scroll units (words, or lines for scripts without spaces), as a pure
/// function of time. Time is the pipeline's running time in nanoseconds, so the position never depends on
/// the frame rate: frames at 24, 30 or 60 fps that share a timestamp see the same position.
///
/// The model is a list of anchors: each command settles the position at its time and sets a new rate.
/// Forward scrolling stops at `[PAUSE]` cues until `resume`. Position is clamped to `0...length`.
///
/// Thread: value type; the owner (the capture-session actor or the UI) applies commands and hands a copy
/// to the streaming thread, which only calls `position(at:)`.
public struct ScrollModel: Sendable, Hashable {
    public enum Direction: Sendable, Hashable { case forward, reverse }

    /// Length of the script in scroll units.
    public let length: Double
    /// Positions of `[PAUSE]` cues in scroll units, ascending.
    public let cues: [Double]
    public private(set) var speed: ScrollSpeed
    public private(set) var direction: Direction = .forward
    /// True while the operator has paused scrolling (or before the take starts).
    public private(set) var isPaused: Bool = true

    private var anchorTime: Int64 = 0
    private var anchorPosition: Double = 0
    /// Cues at or below this position have been released by `resume`, so they no longer stop scrolling.
    private var releasedThrough: Double = -1

    public init(length: Double, cues: [Double] = [], speed: ScrollSpeed) {
        precondition(length >= 0)
        self.length = length
        self.cues = cues.sorted()
        self.speed = speed
    }

    /// The position at `time` (nanoseconds, the same timeline the commands used).
    public func position(at time: Int64) -> Double {
        guard !isPaused else { return anchorPosition }
        let elapsed = Double(max(time - anchorTime, 0)) / Double(nanosecondsPerSecond)
        switch direction {
        case .forward:
            var p = anchorPosition + elapsed * speed.unitsPerSecond
            if let cue = cues.first(where: { $0 > releasedThrough && $0 >= anchorPosition }), p >= cue { p = cue }
            return min(p, length)
        case .reverse:
            return max(anchorPosition - elapsed * speed.unitsPerSecond, 0)
        }
    }

    /// Estimated reading time left at `time`, in seconds, at the current speed (the operator view's "time
    /// left"; time held at cues is not counted). Never shown to the subject.
    public func secondsLeft(at time: Int64) -> Double {
        (length - position(at: time)) / speed.unitsPerSecond
    }

    /// True when forward scrolling is held at a `[PAUSE]` cue at `time`.
    public func isHeldAtCue(at time: Int64) -> Bool {
        guard !isPaused, direction == .forward else { return false }
        let p = position(at: time)
        return cues.contains { $0 == p && $0 > releasedThrough }
    }

    // MARK: Commands (each settles the position at `time` first)

    public mutating func start(at time: Int64) {
        settle(at: time)
        isPaused = false
    }

    public mutating func pause(at time: Int64) {
        settle(at: time)
        isPaused = true
    }

    /// Resumes after a pause or a `[PAUSE]` cue: a cue the position is held at is released.
    public mutating func resume(at time: Int64) {
        settle(at: time)
        if let cue = cues.last(where: { $0 <= anchorPosition }), cue > releasedThrough { releasedThrough = cue }
        isPaused = false
    }

    public mutating func togglePause(at time: Int64) {
        if isPaused || isHeldAtCue(at: time) { resume(at: time) } else { pause(at: time) }
    }

    public mutating func reverse(at time: Int64) {
        settle(at: time)
        direction = direction == .forward ? .reverse : .forward
        if direction == .forward {
            // Scrolling back over a cue arms it again.
            releasedThrough = cues.last(where: { $0 < anchorPosition }) ?? -1
        }
    }

    public mutating func setSpeed(_ newSpeed: ScrollSpeed, at time: Int64) {
        settle(at: time)
        speed = newSpeed
    }

    /// Moves to `position` (for example a marker); cues before it are released.
    public mutating func jump(to position: Double, at time: Int64) {
        settle(at: time)
        anchorPosition = min(max(position, 0), length)
        releasedThrough = cues.last(where: { $0 < anchorPosition }) ?? -1
    }

    /// Jumps to the first marker (heading position, in scroll units) after the current position.
    /// Returns false, and changes nothing, when there is none.
    @discardableResult
    public mutating func jumpToNextMarker(_ markers: [Double], at time: Int64) -> Bool {
        let p = position(at: time)
        guard let next = markers.sorted().first(where: { $0 > p + 1e-9 }) else { return false }
        jump(to: next, at: time)
        return true
    }

    /// Jumps to the marker before the current position; within one unit after a marker it goes to the one
    /// before that, so pressing it twice walks back. Returns false when there is none.
    @discardableResult
    public mutating func jumpToPreviousMarker(_ markers: [Double], at time: Int64) -> Bool {
        let p = position(at: time)
        guard let previous = markers.sorted().last(where: { $0 < p - 1 }) else { return false }
        jump(to: previous, at: time)
        return true
    }

    private mutating func settle(at time: Int64) {
        anchorPosition = position(at: time)
        anchorTime = time
    }

    /// The markers (`position` in scroll units, as `SubjectOverlay.markerUnits` gives them) the position
    /// moved past between `start` and `end` (ns), each with the time after `start` at which it first did
    /// (the sidecar's "markers passed"). A marker counts once the position is beyond it; markers already
    /// behind the position at `start` do not count.
    public func markersPassed(_ markers: [(position: Double, title: String)], from start: Int64, to end: Int64) -> [TakeSidecar.Marker] {
        guard end > start else { return [] }
        let startPosition = position(at: start)
        var pending = markers.filter { $0.position >= startPosition }[...]
        var passed: [TakeSidecar.Marker] = []
        // The position is piecewise linear with pauses and reversals; sampling every 20 ms finds each first
        // crossing to within one frame at 50 fps, at a cost of microseconds per minute of take.
        let step: Int64 = 20_000_000
        var t = start
        while !pending.isEmpty {
            let now = position(at: t)
            while let next = pending.first, now > next.position {
                passed.append(TakeSidecar.Marker(title: next.title, atSeconds: Double(t - start) / 1e9))
                pending.removeFirst()
            }
            if t >= end { break }
            t = min(end, t + step)
        }
        return passed
    }
}
