/// Whether a request to leave fullscreen is carried out now or asked again: during a take or a countdown
/// the operator window leaving fullscreen takes the teleprompter and the recording light away from the
/// subject, and Esc is a reflex. So there the first request (Esc, F11, the control bar's button, the
/// `fullscreen` command) only says so on the HUD; a second one within `window` leaves. A request that
/// says `confirm` (`{"cmd":"fullscreen","confirm":true}`) leaves in one go; outside takes every request
/// leaves at once. Entering fullscreen is never held. Esc during a countdown is not a request to leave
/// at all: it cancels the countdown (`DesktopKeys`).
///
/// Facts in (the window manager's fullscreen state, each request with whether a take or countdown runs
/// and the time), decisions out; time is a parameter, in nanoseconds on the run's monotonic clock.
///
/// Thread: value type; owned by the run director's actor.
public struct FullscreenLeave: Sendable, Equatable {
    /// What to do with one `fullscreen` request.
    public enum Decision: Sendable, Equatable {
        /// Carry it out (set fullscreen as asked).
        case carryOut
        /// Keep fullscreen; the HUD shows `FullscreenLeave.notice` until `until` (ns).
        case askAgain(until: Int64)
    }

    /// The HUD's line while a first request waits for its second.
    public static let notice = N_("Esc again within 3 s leaves fullscreen; the subject's prompter will hide")
    /// The one-line answer to a control client whose request was held.
    public static let refusal = "fullscreen: a take or countdown is running, so leaving needs a second request within 3 s, or {\"cmd\":\"fullscreen\",\"confirm\":true}"

    /// How long a first request waits for its second.
    public let window: Int64
    /// The window manager's word: the operator window is fullscreen now.
    public var fullscreen = false {
        didSet { if !fullscreen { pendingUntil = nil } }
    }
    /// When the pending first request expires (ns); nil when none waits.
    public private(set) var pendingUntil: Int64?

    public init(window: Int64 = 3_000_000_000) { self.window = window }

    /// Whether `on` (nil toggles) would take the window out of fullscreen now.
    public func leaves(_ on: Bool?) -> Bool { fullscreen && on != true }

    /// One request to set fullscreen `on` (nil toggles), `confirmed` or not, while a take or countdown
    /// runs (`busy`) or not, at `now`.
    public mutating func request(_ on: Bool?, confirmed: Bool, busy: Bool, at now: Int64) -> Decision {
        guard leaves(on), busy, !confirmed else {
            pendingUntil = nil
            return .carryOut
        }
        if let until = pendingUntil, now <= until {
            pendingUntil = nil
            return .carryOut
        }
        let until = now + window
        pendingUntil = until
        return .askAgain(until: until)
    }

    /// The HUD's line at `now`: the notice while a first request waits, else nil.
    public func notice(at now: Int64) -> String? {
        guard let until = pendingUntil, now <= until, fullscreen else { return nil }
        return tr(Self.notice)
    }
}
