/// Steers the teleprompter's scroll after the voice: the scroll stays a piecewise-linear `ScrollModel`
/// (what the renderer draws from, frame by frame), and each steer sets its speed so it reaches where
/// voice-follow will want it a moment later, so the text glides rather than jumping every hypothesis.
/// A speaker far ahead (a skipped paragraph) is jumped to; the scroll never runs backwards to meet the
/// voice (voice-follow never goes back) and stands still when the voice holds.
///
/// Thread: pure functions over values; the presenter's actor calls them.
public enum VoiceSteering {
    /// How far ahead the steer aims: the scroll reaches the wanted position this much later.
    public static let lookahead: Int64 = 400_000_000
    /// Farther than this behind the voice (words), the scroll jumps instead of hurrying.
    public static let jumpDistance: Double = 8
    /// The fastest the scroll hurries to catch up, words per second.
    public static let fastest: Double = 8

    /// `wantedNow` and `wantedSoon`: where voice-follow wants the line now and `lookahead` from now.
    public static func steer(_ scroll: inout ScrollModel, wantedNow: Double, wantedSoon: Double, at time: Int64) {
        if wantedNow - scroll.position(at: time) > jumpDistance { scroll.jump(to: wantedNow, at: time) }
        let current = scroll.position(at: time)
        let rate = (wantedSoon - current) / (Double(lookahead) / 1e9)
        guard rate > 0.05 else {
            if !scroll.isPaused { scroll.pause(at: time) }
            return
        }
        scroll.setSpeed(.wordsPerMinute(min(rate, fastest) * 60), at: time)
        // Resuming releases a [PAUSE] cue the scroll is held at: the speaker has gone on past it.
        if scroll.isPaused || scroll.isHeldAtCue(at: time) { scroll.resume(at: time) }
    }
}
