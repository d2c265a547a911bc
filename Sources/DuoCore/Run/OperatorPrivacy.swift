/// Whether the operator window hides its private items (notes, shot notes, file paths, device names, the
/// pairing card and its token, error details) because it may face the subject: the operator's monitor
/// went away (unplugged, turned off), so the window manager put the window on a monitor left, or the
/// window is on the subject's monitor for any other reason. The operator shows them again with N, which
/// holds until the window is back where it belongs; then the next exposure hides them again. When the
/// operator's monitor comes back, the window goes back to it (`returnToOperatorMonitor`).
///
/// Facts in (the monitors and where the window is, by connector), decisions out; no time.
///
/// Thread: value type; owned by the desktop UI on the GTK main thread.
public struct OperatorPrivacy: Sendable, Equatable {
    /// Why the window may face the subject.
    public enum Exposure: String, Sendable {
        /// The operator's monitor is not among the monitors now.
        case operatorMonitorGone = "operator-monitor-gone"
        /// The window is on the monitor the subject faces.
        case onSubjectMonitor = "on-subject-monitor"
    }

    /// What the desktop reports.
    public struct Inputs: Sendable, Equatable {
        /// The operator's monitor is plugged in and on (nil before the monitors are known: not gone).
        public var operatorMonitorPresent = true
        /// The monitor the window is on now (its connector), nil before the window is placed.
        public var windowMonitor: String?
        /// The subject's monitor now (its connector), nil when there is none.
        public var subjectMonitor: String?
        public init() {}
    }

    /// The HUD's one line while the private items are hidden.
    public static var notice: String { tr("private items hidden: this monitor may face the subject (N shows them)") }

    public private(set) var inputs = Inputs()
    /// The operator asked to see them (N) during this exposure.
    public private(set) var revealed = false

    public init() {}

    public var exposure: Exposure? {
        if !inputs.operatorMonitorPresent { return .operatorMonitorGone }
        if let window = inputs.windowMonitor, window == inputs.subjectMonitor { return .onSubjectMonitor }
        return nil
    }

    /// Whether the operator window hides its private items now.
    public var hidden: Bool { exposure != nil && !revealed }

    /// What changed with one report.
    public struct Change: Sendable, Equatable {
        /// The private items hid or showed (the new `hidden`); nil when that did not change.
        public var hidden: Bool?
        /// The operator's monitor came back: the window goes back to it.
        public var returnToOperatorMonitor = false
        public init(hidden: Bool? = nil, returnToOperatorMonitor: Bool = false) {
            self.hidden = hidden; self.returnToOperatorMonitor = returnToOperatorMonitor
        }
    }

    /// Applies a report of the monitors and the window's place.
    public mutating func update(_ change: (inout Inputs) -> Void) -> Change {
        let before = (hidden: hidden, present: inputs.operatorMonitorPresent)
        change(&inputs)
        if exposure == nil { revealed = false }
        var result = Change()
        if hidden != before.hidden { result.hidden = hidden }
        result.returnToOperatorMonitor = !before.present && inputs.operatorMonitorPresent
        return result
    }

    /// N: the operator shows the private items during this exposure. Returns whether anything changed.
    public mutating func reveal() -> Bool {
        guard hidden else { return false }
        revealed = true
        return true
    }
}

extension HudModel {
    /// The HUD with only what may face the subject: built up from a fresh model by a whitelist (so a
    /// private field added later stays out until someone lets it in), with `OperatorPrivacy.notice` as
    /// its message. Out: notes and shot notes, the shot list's titles, the camera's and the microphone's
    /// device names, the subject monitor's connector, messages (file paths, error details) and the
    /// voice-follow's word.
    public var privateItemsHidden: HudModel {
        var safe = HudModel()
        safe.videoWidth = videoWidth
        safe.videoHeight = videoHeight
        safe.aspect = aspect
        safe.cameraKeys = cameraKeys
        safe.enabled = enabled
        safe.available = available
        safe.reasons = reasons
        safe.subjectMonitor = subjectMonitor
        safe.previewFps = previewFps
        safe.cameraFps = cameraFps
        safe.operatorProfile = operatorProfile
        safe.message = OperatorPrivacy.notice
        // The key list is the program's, not the session's: it may face the subject. The confidence
        // strip (its private notes) and the saved take's file are not copied.
        safe.keyHelp = keyHelp
        var r = HudModel.Run()
        r.format = run.format
        r.cameraWidth = run.cameraWidth
        r.cameraHeight = run.cameraHeight
        r.recording = run.recording
        r.takeNumber = run.takeNumber
        r.elapsedSeconds = run.elapsedSeconds
        r.countdown = run.countdown
        r.accessoryKind = run.accessoryKind
        r.mirrored = run.mirrored
        r.scriptProgress = run.scriptProgress
        r.secondsLeft = run.secondsLeft
        r.speed = run.speed
        r.scrollPaused = run.scrollPaused
        r.scrollReversed = run.scrollReversed
        r.follow = run.follow.map { _ in "on" }
        r.audioPeakDB = run.audioPeakDB
        r.cameraDropped = run.cameraDropped
        r.previewSkipped = run.previewSkipped
        r.subjectSkipped = run.subjectSkipped
        r.scriptProblems = run.scriptProblems
        r.framing = run.framing
        r.framingHint = run.framingHint
        r.faces = run.faces
        r.previewMirrored = run.previewMirrored
        r.fullscreenNotice = run.fullscreenNotice
        safe.run = r
        return safe
    }
}
