import DuoCore
import Foundation

//  The talent's clock (`--talent-clock`): its rows are evaluated per frame from the view model; the wall
//  clock's row needs the local time at pipeline time 0, set here from the system's clock.

extension SubjectPresenter {
    /// Anchors the talent's wall clock: the local time now is pipeline time `time`. Publishes only when
    /// the anchor moved by a quarter of a second or more (the system's clock was set, or the time zone).
    public func anchorWallClock(at time: Int64, now: Date = Date()) {
        guard state.talentClock.items.contains(.clock) else { return }
        let local = (now.timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT(for: now))) * 1e9
        let atZero = Int64(local.rounded()) - time
        if let old = state.localTimeAtZero, abs(old - atZero) < 250_000_000 { return }
        state.localTimeAtZero = atZero
        publish(at: time)
    }

    /// The talent's clock on the subject view, physical pixels (nil when it shows nothing at `time`).
    public func talentClockRectangle(at time: Int64) -> (x: Int, y: Int, width: Int, height: Int)? {
        overlay.currentScene?.talentClockRectangle(at: time)
    }
}
