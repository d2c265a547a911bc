/// The operator's cue chooser (issue 37): the C key or the control bar's cue button opens it on the
/// operator's monitor; its buttons are the presets, a line of free text (at most 40 characters) and
/// clear. What each answer sends is the control socket's own `cue` command, never a language of its own.
///
/// Thread: stateless; any thread.
public enum CueChooser {
    /// The dialog's answers: a preset's is its place in `presets` from 1; `send` the free text's.
    public static let send = 100
    public static let clear = 101

    /// The preset buttons, in order, with their mnemonics (Alt+W is "wrap up"); marked for translation,
    /// translated where the dialog shows them.
    public static let presets: [(preset: CuePreset, label: String)] = [
        (.wrap, N_("_Wrap up")), (.thirtySeconds, N_("_30 seconds")), (.slower, N_("S_lower")), (.faster, N_("_Faster")),
        (.lens, N_("Look at the l_ens")),
    ]

    /// The command for the dialog's answer `response` with `text` in its entry: nil for any other
    /// answer (closed, cancelled); a usage error (one line, shown in the dialog) for text that is no cue.
    public static func command(response: Int, text: String) throws(DuoError) -> ControlCommand? {
        switch response {
        case 1...presets.count: return .cue(.preset(presets[response - 1].preset), seconds: nil)
        case send: return .cue(try SubjectCue.text(text), seconds: nil)
        case clear: return .cue(nil, seconds: nil)
        default: return nil
        }
    }
}
