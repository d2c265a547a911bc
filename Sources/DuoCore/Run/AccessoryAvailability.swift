/// Why the accessory (the subject view) cannot be shown right now. Each reason is one failed condition
/// of availability: the operator window is fullscreen as the window manager reports it, the
/// session is running with frames flowing, and a subject monitor is present that is not the operator's.
///
/// Thread: value type, Sendable.
public enum UnavailableReason: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The window manager does not report the operator window as fullscreen (whatever was requested).
    case operatorNotFullscreen = "operator-not-fullscreen"
    /// The capture session is not running, or frames have stopped flowing.
    case framesNotFlowing = "frames-not-flowing"
    /// Only one monitor (or none besides the operator's): nowhere to show the subject view.
    case noSubjectMonitor = "no-subject-monitor"
    /// The chosen subject monitor is the operator's own monitor.
    case subjectMonitorIsOperators = "subject-monitor-is-operators"
    /// The subject view's own branch failed (its sink or its drawing); the capture goes on without it.
    case subjectViewFailed = "subject-view-failed"
    /// No local subject monitor, and the remote subject displays (`--subject-remote`) are not connected.
    case remoteDisplayLost = "remote-display-lost"

    /// One line for the operator HUD.
    public var explanation: String {
        switch self {
        case .operatorNotFullscreen: N_("operator window is not fullscreen (F11)")
        case .framesNotFlowing: N_("no frames from the camera")
        case .noSubjectMonitor: N_("no second monitor for the subject")
        case .subjectMonitorIsOperators: N_("subject monitor is the operator's monitor")
        case .subjectViewFailed: N_("the subject view failed (see the log); the recording goes on")
        case .remoteDisplayLost: N_("the remote subject display is not connected (it is tried again)")
        }
    }

    /// The explanation in the operator's language (the HUD); `explanation` stays English for the log line
    /// it is part of.
    public var shown: String { tr(explanation) }

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// What availability is computed from. Every field is a fact reported by the system, never a request.
///
/// Thread: value type, Sendable.
public struct AvailabilityInputs: Sendable, Hashable {
    /// The operator window's fullscreen state as the window manager reports it (window-state-event).
    public var operatorFullscreen: Bool
    /// The session is running and frames are arriving.
    public var framesFlowing: Bool
    /// A monitor for the subject exists (by index or connector), nil when there is none.
    public var subjectMonitor: String?
    /// The monitor the operator window is on.
    public var operatorMonitor: String?
    /// The subject view's branch failed; it stays off for the rest of the run.
    public var subjectViewFailed = false
    /// Remote subject displays asked for (`--subject-remote`), and how many are connected: a connected one
    /// counts as a subject monitor.
    public var remoteDisplays = 0
    public var remoteConnected = 0

    public init(operatorFullscreen: Bool = false, framesFlowing: Bool = false,
                subjectMonitor: String? = nil, operatorMonitor: String? = nil) {
        self.operatorFullscreen = operatorFullscreen
        self.framesFlowing = framesFlowing
        self.subjectMonitor = subjectMonitor
        self.operatorMonitor = operatorMonitor
    }

    /// The failed conditions, in a fixed order; empty means available.
    public var reasons: [UnavailableReason] {
        var r: [UnavailableReason] = []
        if !operatorFullscreen { r.append(.operatorNotFullscreen) }
        if !framesFlowing { r.append(.framesNotFlowing) }
        if let subject = subjectMonitor {
            if subject == operatorMonitor, remoteConnected == 0 { r.append(.subjectMonitorIsOperators) }
        } else if remoteConnected == 0 {
            r.append(remoteDisplays > 0 ? .remoteDisplayLost : .noSubjectMonitor)
        }
        if subjectViewFailed { r.append(.subjectViewFailed) }
        return r
    }
}

/// A change the state machine reports: availability flipped, or (while unavailable) its reasons changed,
/// or the user's enabled flag changed. `shown` is the resulting visibility of the subject view.
///
/// Thread: value type, Sendable.
public struct AccessoryChange: Sendable, Hashable {
    public enum Cause: String, Sendable, Hashable { case availability, enabled }
    public let cause: Cause
    public let enabled: Bool
    public let available: Bool
    public let reasons: [UnavailableReason]
    public let shown: Bool
    public init(cause: Cause, enabled: Bool, available: Bool, reasons: [UnavailableReason], shown: Bool) {
        self.cause = cause; self.enabled = enabled; self.available = available; self.reasons = reasons; self.shown = shown
    }
}

/// The accessory's two flags, kept apart as in the Duo's `CameraCaptureAccessory`:
/// - `enabled` belongs to the user (`--accessory`, key T, the control socket) and only `setEnabled`
///   changes it;
/// - `available` is derived from system facts (`AvailabilityInputs`) and only `update` changes it.
/// The subject view is shown iff `enabled && available`.
///
/// Thread: value type, Sendable; the desktop keeps one on the GTK main thread.
public struct AccessoryState: Sendable, Hashable {
    public private(set) var enabled: Bool
    public private(set) var inputs: AvailabilityInputs

    public init(enabled: Bool, inputs: AvailabilityInputs = AvailabilityInputs()) {
        self.enabled = enabled
        self.inputs = inputs
    }

    public var reasons: [UnavailableReason] { inputs.reasons }
    public var available: Bool { reasons.isEmpty }
    public var shown: Bool { enabled && available }

    /// The state as a change report, for announcing the initial state.
    public var current: AccessoryChange {
        AccessoryChange(cause: .availability, enabled: enabled, available: available, reasons: reasons, shown: shown)
    }

    /// Applies new system facts. Returns a change when availability or its reasons changed (so every
    /// change is logged with its reasons), nil when nothing observable changed. Never touches `enabled`.
    public mutating func update(_ newInputs: AvailabilityInputs) -> AccessoryChange? {
        let before = reasons
        inputs = newInputs
        guard reasons != before else { return nil }
        return AccessoryChange(cause: .availability, enabled: enabled, available: available, reasons: reasons, shown: shown)
    }

    /// Convenience: change one input.
    public mutating func update(_ edit: (inout AvailabilityInputs) -> Void) -> AccessoryChange? {
        var next = inputs
        edit(&next)
        return update(next)
    }

    /// The user's choice. Returns a change when it differs from the current one.
    public mutating func setEnabled(_ on: Bool) -> AccessoryChange? {
        guard on != enabled else { return nil }
        enabled = on
        return AccessoryChange(cause: .enabled, enabled: enabled, available: available, reasons: reasons, shown: shown)
    }
}
