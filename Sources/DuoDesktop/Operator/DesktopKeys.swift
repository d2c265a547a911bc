import CGtk
import DuoCore

/// The keys of the operator window: each is a binding to a run command (the same commands the control
/// socket and timelines speak), never a language of its own. `--help` lists them.
///
/// Thread: immutable; any thread.
public enum DesktopKeys {
    /// The command a key stands for. `countingDown` and `fullscreen` let Esc mean "cancel the countdown"
    /// while one runs and "leave fullscreen" otherwise.
    public static func command(forKey keyval: Int32, countingDown: Bool, fullscreen: Bool) -> ControlCommand? {
        switch keyval {
        case GDK_KEY_space: .toggleRecord
        case GDK_KEY_t, GDK_KEY_T: .accessory(on: nil)
        case GDK_KEY_F11: .fullscreen(on: nil)
        case GDK_KEY_Escape: countingDown ? .cancelCountdown : fullscreen ? .fullscreen(on: false) : nil
        case GDK_KEY_Up: .speedStep(1)
        case GDK_KEY_Down: .speedStep(-1)
        case GDK_KEY_p, GDK_KEY_P: .pause
        case GDK_KEY_Home: .jump(.start)
        case GDK_KEY_Page_Up: .jump(.previous)
        case GDK_KEY_Page_Down: .jump(.next)
        case GDK_KEY_m, GDK_KEY_M: .mirror
        case GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add: .fontStep(1)
        case GDK_KEY_minus, GDK_KEY_KP_Subtract: .fontStep(-1)
        case GDK_KEY_s, GDK_KEY_S: .swap
        case GDK_KEY_f, GDK_KEY_F: .fold
        case GDK_KEY_u, GDK_KEY_U: .unfold
        case GDK_KEY_w, GDK_KEY_W: .restartSwap(nil)
        case GDK_KEY_v, GDK_KEY_V: .follow(voice: nil)
        // The shot list (--shots): next, back, good, no good (X), again (re-take; R is reverse).
        case GDK_KEY_n, GDK_KEY_N: .shot(next: true, id: nil)
        case GDK_KEY_b, GDK_KEY_B: .shot(next: false, id: nil)
        case GDK_KEY_g, GDK_KEY_G: .mark(good: true, take: nil)
        case GDK_KEY_x, GDK_KEY_X: .mark(good: false, take: nil)
        case GDK_KEY_a, GDK_KEY_A: .retake
        case GDK_KEY_i, GDK_KEY_I: .selfView(nil)
        case GDK_KEY_y, GDK_KEY_Y: .saveReplay
        case GDK_KEY_l, GDK_KEY_L: .remoteLink(on: nil)
        // Notes (issue 39): K drops a flag; Return opens the control bar's note field (DesktopUI+Notes).
        case GDK_KEY_k, GDK_KEY_K: .flag
        case GDK_KEY_q, GDK_KEY_Q: .quit
        case GDK_KEY_r, GDK_KEY_R: .reverse
        case GDK_KEY_1...GDK_KEY_9: .speedPreset(Int(keyval - GDK_KEY_0))
        case GDK_KEY_KP_1...GDK_KEY_KP_9: .speedPreset(Int(keyval - GDK_KEY_KP_0))
        default: nil
        }
    }

    /// Each key and what it does (English, marked for translation: `--help` and the HUD translate it).
    public static let help: [(key: String, does: String)] = [
        ("Space", N_("record / stop (a countdown runs first)")),
        ("T", N_("accessory (subject view) on / off")),
        ("F11", N_("fullscreen on / off (the subject view needs it); during a take, off needs two presses in 3 s")),
        ("Esc", N_("cancel a countdown, else leave fullscreen (during a take: Esc again within 3 s)")),
        ("Up / Down", N_("teleprompter faster / slower")),
        ("P", N_("pause / resume scrolling (following the voice: hold / follow again)")),
        ("R", N_("reverse scrolling (back over what was read; again: forward)")),
        ("1 … 9", N_("teleprompter speed presets, slow to fast")),
        ("V", N_("teleprompter follows the voice / time (--follow voice)")),
        ("Home", N_("restart the script")),
        ("PgUp / PgDn", N_("previous / next marker (heading)")),
        ("M", N_("mirror the subject view")),
        ("I", N_("the subject's self-view (their own picture with the safe frame) on / off")),
        ("+ / -", N_("teleprompter text larger / smaller (remembered with the script)")),
        ("O", N_("open another script (file chooser); a saved script reloads by itself")),
        ("C", N_("cue the talent: a preset, a line of text (at most 40 characters) or clear, chosen on this screen")),
        ("S / F / U", N_("two cameras: swap, fold (the camera facing the subject), unfold (the one facing the operator)")),
        ("W", N_("two cameras: stop, then switch (the take ends, the camera changes, a new take after the countdown)")),
        ("N / B", N_("shot list (--shots): next / previous shot; N shows private items the HUD hid")),
        ("G / X / A", N_("shot list: mark the latest take good / no good; A re-takes (again)")),
        ("Y", N_("save the replay buffer (--replay SECONDS) as a replay of its own")),
        ("L", N_("the phone remote's address and QR code on / off (--remote-control; else how to turn it on)")),
        ("Return", N_("a note on the take's clock: type it, Up / Down choose the code, Enter saves, Esc cancels (never on the subject view)")),
        ("K", N_("drop a flag (an unnamed mark on the take's clock)")),
        ("Q", N_("quit (a running take is finalised first)")),
        ("?", N_("this key list on the operator's screen on / off (Esc closes it)")),
    ]

    /// The key list the HUD shows over the operator picture (?, the control bar's keys button), in the
    /// operator's language.
    public static var keyHelp: [KeyHelp] {
        help.map { KeyHelp(key: $0.key, does: tr($0.does)) }
    }
}
