import DuoCore

//  Cues to the talent (`{"cmd":"cue"}`, OSC `/duo/cue`): shown large beside the reading line until cleared
//  or for a set time. The cue is whitelisted subject content (`SubjectCue`).

extension SubjectPresenter {
    /// The cue on the subject view at `time` (nil: none).
    public func shownCue(at time: Int64) -> SubjectCue? {
        SubjectViewModel.whitelisted(from: state).cueShown(at: time) ? state.cue : nil
    }

    /// Shows `cue` from `time` for `seconds` (nil: until cleared), or clears it (nil cue).
    public func setCue(_ cue: SubjectCue?, seconds: Double?, at time: Int64) {
        state.cue = cue
        state.cueUntil = cue == nil ? nil : seconds.map { time + Int64(($0 * 1e9).rounded()) }
        publish(at: time)
    }
}

extension SubjectPresenter {
    /// The cue's box on the subject view at `time`, physical pixels (nil when none shows): for tests that
    /// read the cue back from the frames.
    public func cueRectangle(at time: Int64) -> (x: Int, y: Int, width: Int, height: Int)? {
        overlay.currentScene?.cueRectangle(at: time)
    }
}
