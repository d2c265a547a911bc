/// The subject's monitor belongs to the run: from the start of a run to its end, while the accessory is
/// enabled, it shows either the subject view or a curtain (a plain dark surface with a short subject-safe
/// line), never the desktop behind. `--subject-curtain off` gives it back to the desktop whenever the view
/// is not shown.
///
/// Availability keeps its meaning: the curtain is what the monitor shows when the view is not. It goes up
/// only on a subject monitor that exists and is not the operator's (it would cover the operator's window).
///
/// Thread: value type, Sendable; the desktop keeps one on the GTK main thread.
public struct SubjectCurtain: Sendable, Hashable {
    /// What the subject's monitor shows.
    public enum Shows: String, Sendable, Hashable {
        /// The desktop (nothing of the run).
        case desktop
        /// The subject view.
        case view
        /// The curtain.
        case curtain
    }

    /// `--subject-curtain on|off` (on unless asked otherwise).
    public let enabled: Bool
    public private(set) var shows: Shows = .desktop

    public init(enabled: Bool) { self.enabled = enabled }

    /// `on` or `off`, as `--subject-curtain` and the settings file's `subject-curtain=` give it.
    public static func parse(_ text: String) throws(DuoError) -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw .usage("unknown --subject-curtain '\(text)'; use on (the subject's monitor shows a curtain when the view is hidden) or off (the desktop)")
        }
    }

    /// What the monitor shows for the accessory's state; nil when that is unchanged.
    public mutating func update(_ accessory: AccessoryState) -> Shows? {
        let next = Self.shows(accessory, curtain: enabled)
        guard next != shows else { return nil }
        shows = next
        return next
    }

    /// The run holds the subject's monitor (the view or the curtain): do not disturb keeps banners off.
    public var holdsMonitor: Bool { shows != .desktop }

    /// The rule itself: the view when shown; else the curtain when it is on, the accessory is enabled and
    /// a local subject monitor exists that is not the operator's; else the desktop.
    public static func shows(_ accessory: AccessoryState, curtain: Bool) -> Shows {
        if accessory.shown { return .view }
        let inputs = accessory.inputs
        guard curtain, accessory.enabled, let subject = inputs.subjectMonitor, subject != inputs.operatorMonitor else { return .desktop }
        return .curtain
    }
}

/// What the curtain may say, and nothing else: made only from the whitelisted `SubjectViewModel` (its
/// accessory kind), so nothing private (notes, paths, device or host names, errors) can reach it.
///
/// Thread: value type, Sendable.
public struct CurtainModel: Sendable, Hashable {
    /// The standby line.
    public let line: String
    /// The run's accessory, in the subject's words.
    public let accessory: String

    private init(line: String, accessory: String) { self.line = line; self.accessory = accessory }

    public static let standbyLine = N_("standing by")

    /// The curtain for `view`, in `language` (the subject's).
    public static func whitelisted(from view: SubjectViewModel, language: Translator = .english) -> CurtainModel {
        CurtainModel(line: language.text(standbyLine), accessory: language.text(view.kind.words))
    }

    /// The whole text, one line.
    public var text: String { "\(line) · \(accessory)" }
}
