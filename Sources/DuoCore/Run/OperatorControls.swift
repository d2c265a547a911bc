/// The operator window's on-screen controls (GNOME style: a bar over the bottom of the picture, shown on
/// pointer motion or touch, hidden after a few seconds without input). Each button is a binding to the
/// same `ControlCommand` its key sends, never a command of its own; its tooltip names the key.
///
/// Thread: value type, Sendable; pure.
public enum OperatorControl: String, Sendable, CaseIterable {
    case record, pause, slower, speed, faster, reverse, previous, next, accessory, swap, script, cue, note, flag, replay, link, keys, fullscreen

    /// What the bar shows, left to right: `swap` only with two cameras; `speed` is the figure between
    /// slower and faster (a label, not a button).
    public static func bar(twoCameras: Bool) -> [OperatorControl] {
        allCases.filter { $0 != .swap || twoCameras }
    }

    /// The command the button sends (the same as its key). nil: `speed` (a label), `script` (it opens
    /// the file chooser first, like O, and sends `script` with the chosen path), `cue` (the cue chooser
    /// first, like C, then `cue`), `note` (the bar's note field first, like Return, then `note`) and `keys`
    /// (the window shows its key list, like ?).
    public var command: ControlCommand? {
        switch self {
        case .record: .toggleRecord
        case .pause: .pause
        case .slower: .speedStep(-1)
        case .faster: .speedStep(1)
        case .reverse: .reverse
        case .previous: .jump(.previous)
        case .next: .jump(.next)
        case .accessory: .accessory(on: nil)
        case .swap: .swap
        case .fullscreen: .fullscreen(on: nil)
        case .link: .remoteLink(on: nil)
        case .flag: .flag
        case .replay: .saveReplay
        case .speed, .script, .cue, .note, .keys: nil
        }
    }

    /// The key the control stands for, as `--help` names it.
    public var key: String {
        switch self {
        case .record: "Space"
        case .pause: "P"
        case .slower: "Down"
        case .speed: "1–9"
        case .faster: "Up"
        case .reverse: "R"
        case .previous: "PgUp"
        case .next: "PgDn"
        case .accessory: "T"
        case .swap: "S"
        case .script: "O"
        case .cue: "C"
        case .note: "Return"
        case .flag: "K"
        case .replay: "Y"
        case .link: "L"
        case .keys: "?"
        case .fullscreen: "F11"
        }
    }

    /// The tooltip: what it does, and its key.
    public var tooltip: String {
        let does = switch self {
        case .record: tr("Record / stop (a countdown runs first)")
        case .pause: tr("Pause / resume scrolling")
        case .slower: tr("Scroll slower")
        case .speed: tr("Scroll speed (number keys: presets)")
        case .faster: tr("Scroll faster")
        case .reverse: tr("Reverse scrolling")
        case .previous: tr("Previous marker")
        case .next: tr("Next marker")
        case .accessory: tr("Subject view on / off")
        case .swap: tr("Swap cameras")
        case .script: tr("Open a script")
        case .cue: tr("Cue the talent")
        case .note: tr("A note on the take's clock (the subject never sees it)")
        case .flag: tr("Drop a flag on the take's clock")
        case .replay: tr("Save the replay buffer (--replay SECONDS)")
        case .link: tr("The phone remote's address and QR code (--remote-control)")
        case .keys: tr("The keys (on this screen only)")
        case .fullscreen: tr("Fullscreen on / off")
        }
        return tr("%1$s (%2$s)", does, key)
    }

    /// The symbolic icon (Adwaita) for the button's state, or nil for the speed label.
    public func icon(recording: Bool, paused: Bool, fullscreen: Bool) -> String? {
        switch self {
        case .record: recording ? "media-playback-stop-symbolic" : "media-record-symbolic"
        case .pause: paused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic"
        case .slower: "list-remove-symbolic"
        case .speed: nil
        case .faster: "list-add-symbolic"
        case .reverse: "object-flip-vertical-symbolic"
        case .previous: "media-skip-backward-symbolic"
        case .next: "media-skip-forward-symbolic"
        case .accessory: "video-display-symbolic"
        case .swap: "camera-switch-symbolic"
        case .script: "document-open-symbolic"
        case .cue: "chat-message-new-symbolic"
        case .note: "document-edit-symbolic"
        case .flag: "emoji-flags-symbolic"
        case .replay: "document-save-symbolic"
        case .link: "phone-symbolic"
        case .keys: "help-browser-symbolic"
        case .fullscreen: fullscreen ? "view-restore-symbolic" : "view-fullscreen-symbolic"
        }
    }

    /// The smallest side of a button, logical pixels: a fingertip (GNOME's touch target).
    public static let minimumSize = 44
}

/// When the control bar shows: from the last pointer motion, touch or click until `hideAfter` without
/// input. Hidden, it is not drawn at all, so it never covers the picture.
///
/// Thread: value type; owned by the GTK main thread. Time is a parameter (nanoseconds, monotonic).
public struct ControlBarVisibility: Sendable, Equatable {
    public let hideAfter: Int64
    public private(set) var lastInput: Int64?

    public init(hideAfter: Int64 = 3_000_000_000) { self.hideAfter = hideAfter }

    /// Pointer motion, a touch or a click at `now`.
    public mutating func input(at now: Int64) { lastInput = now }

    public func shown(at now: Int64) -> Bool {
        guard let last = lastInput else { return false }
        return now - last < hideAfter
    }

    /// When it hides if nothing else comes (nil while hidden).
    public func hidesAt(_ now: Int64) -> Int64? {
        guard shown(at: now), let last = lastInput else { return nil }
        return last + hideAfter
    }
}
