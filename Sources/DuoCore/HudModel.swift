
/// Everything the operator HUD shows, as one snapshot. The desktop face replaces it when
/// something changes; the HUD draws the latest one.
///
/// Thread: value type, Sendable; built anywhere, drawn on the GTK main thread.
public struct HudModel: Sendable, Hashable {
    public var cameraLabel = ""
    public var format = ""
    public var videoWidth = 16
    public var videoHeight = 9
    /// The preview picture's width as the graph delivers it (0: it fills the window): the window shows it
    /// centred at that size, never larger.
    public var pictureWidth = 0
    public var aspect: AspectRatio?

    public var recording = false
    public var takeNumber: Int?
    public var elapsedSeconds: Double = 0
    public var countdown: Int?

    /// Two cameras: the camera line names the swap keys.
    public var cameraKeys = false
    public var accessoryKind = "teleprompter"
    public var enabled = false
    public var available = false
    public var reasons: [UnavailableReason] = []
    public var subjectMonitor: String?

    /// Script position 0...1, nil without a script.
    public var scriptProgress: Double?
    public var secondsLeft: Double?
    public var speed: String?
    public var scrollPaused = false
    public var mirrored = false
    /// Voice-follow: "following 'word'", "unsure", "holding", "held"; nil while the scroll follows time.
    public var follow: String?
    /// The operator's private notes nearest the reading position (never sent to the subject view).
    public var notes: [String] = []

    /// Audio peak level, dBFS, when the session has an audio branch with a level meter.
    public var audioPeakDB: Double?
    /// Frames the camera (and so the take) lost: what a recording misses.
    public var cameraDropped: Int64 = 0
    /// Frames the operator preview and the subject view skipped because the machine could not draw them
    /// in time: the display only, never the take.
    public var previewSkipped: Int64 = 0
    public var subjectSkipped: Int64 = 0
    public var message: String?
    /// Markup in the script that could be a note but is malformed (kept from the subject).
    public var scriptProblems = 0

    public init() {}

    /// The HUD's text lines, top to bottom.
    public var lines: [String] {
        var l: [String] = []
        if let c = countdown {
            l.append("COUNTDOWN \(c)  (Esc cancels)")
        } else if recording {
            l.append("● REC  take \(takeNumber ?? 0)  \(Self.clock(elapsedSeconds))")
        } else {
            l.append("STANDBY  (Space records)")
        }
        l.append("camera \(cameraLabel)  \(format)" + (cameraKeys ? "  (S swap, F fold, U unfold)" : ""))
        var acc = "accessory \(accessoryKind): \(enabled ? "enabled" : "disabled (T)"), "
        acc += available ? "available on \(subjectMonitor ?? "?")" : "unavailable: " + reasons.map(\.explanation).joined(separator: "; ")
        l.append(acc)
        if let p = scriptProgress {
            var s = "script \(Int((p * 100).rounded()))%"
            if let left = secondsLeft { s += "  \(Self.clock(left)) left" }
            if let speed { s += "  \(speed)" }
            if let follow { s += "  voice: \(follow) (V: by time)" } else if scrollPaused { s += "  paused (P)" }
            if mirrored { s += "  mirrored" }
            l.append(s)
        }
        for n in notes.prefix(3) { l.append("note: \(n)") }
        if scriptProblems > 0 {
            l.append("script: \(scriptProblems) malformed note\(scriptProblems == 1 ? "" : "s") kept from the subject (check-script)")
        }
        if let db = audioPeakDB { l.append(String(format: "audio peak %.0f dB", db)) }
        // Two figures that must not be confused: a take's lost frames, and frames only the screen skipped.
        l.append("\(recording ? "take" : "camera") \(cameraDropped) dropped  ·  preview skipped \(previewSkipped), subject \(subjectSkipped) (screen only)")
        if let message { l.append(message) }
        return l
    }

    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.down)))
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    /// The preview's aspect-fit rectangle inside a `width`×`height` widget (gtksink letterboxes the same way).
    public func previewRect(width: Double, height: Double) -> FrameRect {
        let vw = Double(max(1, videoWidth)), vh = Double(max(1, videoHeight))
        let largest = pictureWidth > 0 ? Double(pictureWidth) / vw : .infinity
        let scale = min(width / vw, height / vh, largest)
        let w = vw * scale, h = vh * scale
        return FrameRect(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h)
    }

    /// The safe frame in widget coordinates: the composition (--aspect) and its action-safe area.
    public func safeFrame(width: Double, height: Double) -> (composition: FrameRect, actionSafe: FrameRect) {
        let fit = previewRect(width: width, height: height)
        let sf = SafeFrame(aspect: aspect ?? AspectRatio(videoWidth, videoHeight), frameWidth: videoWidth, frameHeight: videoHeight)
        let k = fit.width / Double(max(1, videoWidth))
        func map(_ r: FrameRect) -> FrameRect { FrameRect(x: fit.x + r.x * k, y: fit.y + r.y * k, width: r.width * k, height: r.height * k) }
        return (map(sf.composition), map(sf.actionSafe))
    }
}
