/// Whether camera frames are flowing, the fact the subject view's availability rests on, with hysteresis
/// so a loaded machine does not make the view flap: frames stop *flowing* only after a real stall (no new
/// frame for `stallAfter`), and after one they flow again only once they have kept coming for `steadyFor`.
/// The first frames of a run count at once.
///
/// Thread: value type; owned by the run director's actor. Time is a parameter (nanoseconds, any clock
/// that only moves forward); the frame count is the camera's running total.
public struct FrameFlow: Sendable, Equatable {
    public let stallAfter: Int64
    public let steadyFor: Int64
    public private(set) var flowing = false
    private var frames: Int64 = 0
    private var lastFrameAt: Int64?
    /// Since when frames have kept coming (each observed within `steadyFor` of the one before).
    private var runSince: Int64?
    private var everFlowed = false

    public init(stallAfter: Int64 = 1_000_000_000, steadyFor: Int64 = 500_000_000) {
        self.stallAfter = stallAfter
        self.steadyFor = steadyFor
    }

    /// Takes the camera's frame count at `now`; returns the new state when it changed.
    public mutating func observe(frames count: Int64, at now: Int64) -> Bool? {
        if count > frames {
            if runSince == nil || lastFrameAt.map({ now - $0 > steadyFor }) ?? true { runSince = now }
            frames = count
            lastFrameAt = now
        }
        let recent = lastFrameAt.map { now - $0 < stallAfter } ?? false
        if !recent { runSince = nil }
        let next: Bool
        if flowing || !everFlowed {
            next = recent
        } else {
            next = recent && runSince.map { now - $0 >= steadyFor } ?? false
        }
        guard next != flowing else { return nil }
        flowing = next
        if next { everFlowed = true }
        return next
    }
}
