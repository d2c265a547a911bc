
/// Everything the operator HUD shows, as one snapshot: the run's figures (`run`, which the run director
/// builds once per tick) and the window's own facts (the preview's geometry, the accessory's availability,
/// a message). The desktop face replaces it when something changes; the HUD draws the latest one. The
/// run's figures read as the model's own (`hud.recording`).
///
/// Thread: value type, Sendable; built anywhere, drawn on the GTK main thread.
@dynamicMemberLookup
public struct HudModel: Sendable, Hashable {
    /// What the run reports: built on the run director's actor, once per tick.
    ///
    /// Thread: value type, Sendable.
    public struct Run: Sendable, Hashable {
        public var cameraLabel = ""
        public var format = ""
        /// The camera on the air's picture size (individual cameras differ); 0 before it is known.
        public var cameraWidth = 0
        public var cameraHeight = 0
        public var recording = false
        public var takeNumber: Int?
        public var elapsedSeconds: Double = 0
        public var countdown: Int?
        public var accessoryKind = "teleprompter"
        public var mirrored = false
        /// Script position 0...1, nil without a script.
        public var scriptProgress: Double?
        public var secondsLeft: Double?
        public var speed: String?
        public var scrollPaused = false
        /// The scroll runs backwards (R).
        public var scrollReversed = false
        /// Voice-follow: "following 'word'", "unsure", "holding", "held"; nil while the scroll follows time.
        public var follow: String?
        /// The operator's private notes nearest the reading position (never sent to the subject view).
        public var notes: [String] = []
        /// Audio peak level, dBFS, when the session has an audio branch with a level meter.
        public var audioPeakDB: Double?
        /// A named microphone lost (or lost during this take): when sound was missing, said on its own line.
        public var soundNote: String?
        /// Frames the camera (and so the take) lost: what a recording misses.
        public var cameraDropped: Int64 = 0
        /// Frames the operator preview and the subject view skipped because the machine could not draw
        /// them in time: the display only, never the take.
        public var previewSkipped: Int64 = 0
        public var subjectSkipped: Int64 = 0
        /// Markup in the script that could be a note but is malformed (kept from the subject).
        public var scriptProblems = 0
        /// `--shots`: the current shot with its takes, the next one, and the shot's private notes.
        public var shot: String?
        public var nextShot: String?
        public var shotNotes: [String] = []
        /// Framing hints (`--framing`): the hint the subject sees now (nil: none), and the faces found, as
        /// fractions of the unmirrored camera frame; `framing` is nil when hints are off.
        public var framing: String?
        public var framingHint: String?
        public var faces: [FaceBox] = []
        /// Whether the operator's preview is mirrored (the face boxes are drawn mirrored with it).
        public var previewMirrored = false
        /// A first Esc / F11 during a take waits for its second (`FullscreenLeave.notice`).
        public var fullscreenNotice: String?
        /// The file of the take that just ended, for a few seconds after its end (`TakeFileNotice`).
        public var takeFile: String?
        /// The confidence strip: the subject view's lines around the reading line, with the operator's
        /// private notes inline where they fall (empty without a script). Never sent to the subject.
        public var confidence: [ConfidenceLine] = []

        public init() {}
    }

    public var run = Run()
    public subscript<T>(dynamicMember path: WritableKeyPath<Run, T>) -> T {
        get { run[keyPath: path] }
        set { run[keyPath: path] = newValue }
    }

    /// The preview picture's size as the window lays it out.
    public var videoWidth = 16
    public var videoHeight = 9
    public var aspect: AspectRatio?
    /// Two cameras: the camera line names the swap keys.
    public var cameraKeys = false
    public var enabled = false
    public var available = false
    public var reasons: [UnavailableReason] = []
    public var subjectMonitor: String?
    public var message: String?
    /// Frames per second the operator preview shows, measured (the desktop), and the camera's rate:
    /// the HUD then says "preview 30 of 60 fps" on a line of its own.
    public var previewFps: Double?
    public var cameraFps: Double?
    /// The operator monitor's reserved regions (`--operator-display`): the HUD and controls stay clear.
    public var operatorProfile = DisplayProfile.plain
    /// The key list shown over the operator picture (the ? key, the control bar's button); nil: hidden.
    public var keyHelp: [KeyHelp]?

    public init() {}

    /// How a line is drawn: plain, the recording or countdown line, or something the operator should act on.
    public enum Tone: Sendable, Hashable { case plain, live, attention }

    /// One line of the HUD and its tone.
    public struct Line: Sendable, Hashable {
        public let text: String
        public let tone: Tone
    }

    /// The HUD's lines, top to bottom, with their tones.
    public var toned: [Line] {
        var l: [Line] = []
        func add(_ text: String, _ tone: Tone = .plain) { l.append(Line(text: text, tone: tone)) }
        if let c = run.countdown {
            add(tr("COUNTDOWN %d  (Esc cancels)", c), .live)
        } else if run.recording {
            add(tr("● REC  take %1$d  %2$s", run.takeNumber ?? 0, Self.clock(run.elapsedSeconds)), .live)
        } else {
            add(tr("STANDBY  (Space records, ? keys)"))
        }
        if let notice = run.fullscreenNotice { add(notice, .attention) }
        if let file = run.takeFile { add(tr("saved %s", file), .attention) }
        add(cameraKeys ? tr("camera %1$s  %2$s  (S swap, F fold, U unfold)", run.cameraLabel, run.format)
                       : tr("camera %1$s  %2$s", run.cameraLabel, run.format))
        let kind = Translation.operatorLanguage.text(AccessoryKind(rawValue: run.accessoryKind)?.words ?? run.accessoryKind)
        let why = reasons.map(\.shown).joined(separator: tr("; "))
        let monitor = subjectMonitor ?? "?"
        switch (enabled, available) {
        case (true, true): add(tr("accessory %1$s: enabled, available on %2$s", kind, monitor))
        case (false, true): add(tr("accessory %1$s: disabled (T), available on %2$s", kind, monitor))
        case (true, false): add(tr("accessory %1$s: enabled, unavailable: %2$s", kind, why), .attention)
        case (false, false): add(tr("accessory %1$s: disabled (T), unavailable: %2$s", kind, why), .attention)
        }
        if let p = run.scriptProgress {
            // The script's status items, each a phrase of its own, side by side.
            var s = [tr("script %d%%", Int((p * 100).rounded()))]
            if let left = run.secondsLeft { s.append(tr("%s left", Self.clock(left))) }
            if let speed = run.speed { s.append(speed) }
            if let follow = run.follow { s.append(tr("voice: %s (V: by time)", follow)) } else if run.scrollPaused { s.append(tr("paused (P)")) }
            if run.scrollReversed && run.follow == nil { s.append(tr("reversed (R)")) }
            if run.mirrored { s.append(tr("mirrored")) }
            add(s.joined(separator: "  "))
        }
        if let shot = run.shot { add(shot) }
        if let next = run.nextShot { add(next) }
        for n in run.shotNotes.prefix(2) { add(tr("shot note: %s", n)) }
        for n in run.notes.prefix(3) { add(tr("note: %s", n)) }
        if run.scriptProblems > 0 {
            add(trn("script: %d malformed note kept from the subject (check-script)",
                    "script: %d malformed notes kept from the subject (check-script)", run.scriptProblems, run.scriptProblems), .attention)
        }
        if let mode = run.framing {
            let modeWords = Translation.operatorLanguage.text(FramingMode(rawValue: mode)?.words ?? mode)
            if let hint = run.framingHint { add(tr("framing (%1$s): %2$s", modeWords, hint), .attention) }
            else if run.faces.isEmpty { add(tr("framing (%s): looking", modeWords)) }
            else { add(tr("framing (%s): good", modeWords)) }
        }
        if let db = run.audioPeakDB { add(tr("audio peak %s dB", String(format: "%.0f", db))) }
        if let note = run.soundNote { add(note, .attention) }
        // Two figures that must not be confused: a take's lost frames, and frames only the screen skipped.
        if let shown = previewFps, let of = cameraFps {
            // Measured: what the take misses on one line, what only the screen shows on the next.
            add(run.recording ? tr("take: %d dropped", run.cameraDropped) : tr("camera: %d dropped", run.cameraDropped))
            add(run.subjectSkipped > 0
                ? tr("preview %1$d of %2$s fps, subject skipped %3$d (screen only)", Int(shown.rounded()), Self.rate(of), run.subjectSkipped)
                : tr("preview %1$d of %2$s fps (screen only)", Int(shown.rounded()), Self.rate(of)))
        } else {
            add(run.recording
                ? tr("take %1$d dropped  ·  preview skipped %2$d, subject %3$d (screen only)", run.cameraDropped, run.previewSkipped, run.subjectSkipped)
                : tr("camera %1$d dropped  ·  preview skipped %2$d, subject %3$d (screen only)", run.cameraDropped, run.previewSkipped, run.subjectSkipped))
        }
        if let message { add(message) }
        return l
    }

    /// The HUD's text lines, top to bottom.
    public var lines: [String] { toned.map(\.text) }

    static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? "\(Int(fps))" : String(format: "%.2f", fps)
    }

    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.down)))
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    /// The preview's aspect-fit rectangle inside a `width`×`height` widget (gtksink letterboxes the same way).
    /// The picture fills it whatever size the graph delivers: a camera smaller than the window is not
    /// scaled up in the graph (PictureFit.preview) but painted up, as a video sink would.
    public func previewRect(width: Double, height: Double) -> FrameRect {
        let vw = Double(max(1, videoWidth)), vh = Double(max(1, videoHeight))
        let scale = min(width / vw, height / vh)
        let w = vw * scale, h = vh * scale
        return FrameRect(x: (width - w) / 2, y: (height - h) / 2, width: w, height: h)
    }

    /// The faces in widget coordinates, over the aspect-fit preview (mirrored as the preview is).
    public func faceRects(width: Double, height: Double) -> [FrameRect] {
        let fit = previewRect(width: width, height: height)
        return run.faces.map { f in
            let x = run.previewMirrored ? 1 - f.x - f.width : f.x
            return FrameRect(x: fit.x + x * fit.width, y: fit.y + f.y * fit.height, width: f.width * fit.width, height: f.height * fit.height)
        }
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
