/// What the subject monitor shows: `--accessory teleprompter|preview|countdown|off`.
///
/// Thread: value type, Sendable.
public enum AccessoryKind: String, OptionWord, Sendable, Hashable, CaseIterable {
    case teleprompter, preview, countdown, off

    /// The kind in words a person reads (English, marked for translation; `--accessory` keeps the raw value).
    public var words: String {
        switch self {
        case .teleprompter: N_("teleprompter")
        case .preview: N_("preview")
        case .countdown: N_("countdown")
        case .off: N_("off")
        }
    }

    public static func unknownWord(_ text: String) -> String {
        "unknown accessory '\(text)'; use --accessory teleprompter, preview, countdown or off"
    }
}

/// Mirroring for beam-splitter glass, set per display. Not a preview mirror: it flips the whole subject view.
///
/// Thread: value type, Sendable.
public struct MirrorFlags: Sendable, Hashable {
    public var horizontal: Bool
    public var vertical: Bool
    public static let none = MirrorFlags(horizontal: false, vertical: false)

    public init(horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal; self.vertical = vertical
    }

    /// `none`, `h`, `v` or `hv`.
    public static func parse(_ text: String) throws(DuoError) -> MirrorFlags {
        switch text {
        case "none", "": return .none
        case "h": return MirrorFlags(horizontal: true, vertical: false)
        case "v": return MirrorFlags(horizontal: false, vertical: true)
        case "hv", "vh": return MirrorFlags(horizontal: true, vertical: true)
        default: throw .usage("unknown mirror '\(text)'; use --mirror h, v, hv or none")
        }
    }
}

/// The teleprompter's colours.
///
/// Thread: value type, Sendable.
public enum PromptTheme: String, OptionWord, Sendable, Hashable, CaseIterable {
    /// Light grey text on a near-black panel, a soft amber reading band.
    case standard = "default"
    /// Pure white on pure black, bold, a yellow band: for bright studios and low vision.
    case highContrast = "high-contrast"

    public static func unknownWord(_ text: String) -> String {
        "unknown theme '\(text)'; use --theme default or high-contrast"
    }
}

/// Presentation settings of the subject view (not private: they describe how, not what).
///
/// Thread: value type, Sendable.
public struct PromptStyle: Sendable, Hashable {
    /// Font size in pixels; nil picks it from `lines`, else min(48, height / 20).
    public var fontSize: Double?
    /// Lines of text on the monitor (the reading line's included), `--lines N`; nil shows 7. Without a
    /// font size, the text is as large as lets them fit.
    public var lines: Int?
    public var theme: PromptTheme
    public init(fontSize: Double? = nil, lines: Int? = nil, theme: PromptTheme = .standard) {
        self.fontSize = fontSize; self.lines = lines; self.theme = theme
    }

    /// The lines shown above and below the reading line.
    public var linesAround: (above: Int, below: Int) {
        let others = max(2, (lines ?? 7) - 1)
        return (others / 3, others - others / 3)
    }
}

/// A downscaled camera frame for the `preview` kind, already mirrored for the subject: premultiplied
/// BGRA (Cairo ARGB32 in memory on little-endian), tightly packed rows.
///
/// Thread: value type, Sendable; produced by the media layer, read by the renderer.
public struct PreviewFrame: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        self.width = width; self.height = height; self.pixels = pixels
    }
}

/// Everything else a session knows: the operator's view of the world. Fields above the line may reach the
/// subject (the whitelist); fields below are private and `SubjectViewModel` has no place to put them.
///
/// Thread: value type; owned by the capture-session actor (or a test), which builds subject view models from it.
public struct PrompterSessionState: Sendable, Hashable {
    // Whitelisted inputs.
    public var accessory: AccessoryKind
    /// The parsed script, operator notes included: only its `subject` part is copied.
    public var script: ParsedScript?
    public var scroll: ScrollModel?
    public var readingLine: Double?
    public var mirror: MirrorFlags
    public var style: PromptStyle
    public var countdown: Countdown
    /// Pipeline time when the countdown started; nil when none is running.
    public var countdownStartedAt: Int64?
    /// Pipeline time when the take started recording; nil when not recording.
    public var recordingStartedAt: Int64?
    public var aspect: AspectRatio?
    public var preview: PreviewFrame?
    /// The current shot of `--shots` (its id, title and instruction; its notes are not in this type).
    public var shot: SubjectShot?
    /// Framing hints for the person in the picture (FramingPolicy): fixed words, no free text.
    public var framingHints: [PersonHint] = []
    /// The self-view's size (`--self-view`, the V key); shown by the teleprompter and countdown kinds.
    public var selfView: SelfViewSize = .off
    /// The camera picture's shape: the self-view's proportions, and the safe frame without `--aspect`.
    public var picture: PictureShape?
    /// The operator's cue to the talent (`{"cmd":"cue"}`): a preset's words or up to 40 characters.
    public var cue: SubjectCue?
    /// Pipeline time when the cue goes away by itself; nil: when cleared.
    public var cueUntil: Int64?
    /// `--talent-clock`: which of the wall clock, the take's count-up and the time to the shot's target show.
    public var talentClock: TalentClock = .off
    /// The local wall time (nanoseconds since a local midnight) at pipeline time 0, for the clock's row.
    public var localTimeAtZero: Int64?

    // Private: never copied.
    public var scriptPath: String?
    public var takeFilePath: String?
    public var cameraDeviceName: String?
    public var hostName: String?
    public var userName: String?
    public var lastError: String?
    public var droppedFrames: Int
    public var statsLine: String?

    public init(accessory: AccessoryKind = .teleprompter, script: ParsedScript? = nil, scroll: ScrollModel? = nil,
                readingLine: Double? = nil, mirror: MirrorFlags = .none, style: PromptStyle = PromptStyle(),
                countdown: Countdown = Countdown.defaultValue, countdownStartedAt: Int64? = nil,
                recordingStartedAt: Int64? = nil, aspect: AspectRatio? = nil, preview: PreviewFrame? = nil,
                scriptPath: String? = nil, takeFilePath: String? = nil, cameraDeviceName: String? = nil,
                hostName: String? = nil, userName: String? = nil, lastError: String? = nil,
                droppedFrames: Int = 0, statsLine: String? = nil) {
        self.accessory = accessory; self.script = script; self.scroll = scroll; self.readingLine = readingLine
        self.mirror = mirror; self.style = style; self.countdown = countdown
        self.countdownStartedAt = countdownStartedAt; self.recordingStartedAt = recordingStartedAt
        self.aspect = aspect; self.preview = preview; self.scriptPath = scriptPath; self.takeFilePath = takeFilePath
        self.cameraDeviceName = cameraDeviceName; self.hostName = hostName; self.userName = userName
        self.lastError = lastError; self.droppedFrames = droppedFrames; self.statsLine = statsLine
    }
}

extension Countdown {
    /// 3 seconds.
    public static let defaultValue: Countdown = try! Countdown(seconds: Countdown.defaultSeconds)
}

/// The subject renderer's only input: the whitelisted fields (what the person being filmed may see) and nothing else.
///
/// Private data cannot reach it by construction:
/// - it has no `String` field at all; text arrives only as a `SubjectScript`, which only the script parser
///   makes and which has no field for operator notes, or a `SubjectShot`, the same for the shot list;
/// - its memberwise initialiser is private; the one way to make one is `whitelisted(from:)`, which copies
///   named fields and ignores the rest of the session;
/// - the preview frame is copied only for the `preview` kind.
///
/// Time-varying parts (scroll position, countdown number, elapsed time) are stored as their models and
/// time anchors, so the renderer is a function of (snapshot, time): the snapshot changes only on commands,
/// and frames at any rate evaluate it at their own pipeline time.
///
/// Thread: value type, Sendable. Built on the session's actor; the streaming thread reads the latest one
/// through a lock-protected snapshot (`SubjectOverlay`).
public struct SubjectViewModel: Sendable, Hashable {
    public let kind: AccessoryKind
    /// The subject's text (teleprompter kind only), notes removed.
    public let script: SubjectScript?
    /// Scroll position as a function of time, in scroll units (words, or lines for scripts without spaces).
    public let scroll: ScrollModel?
    /// Reading line as a fraction of the height, or nil for "next to the camera occlusion".
    public let readingLine: Double?
    public let mirror: MirrorFlags
    public let style: PromptStyle
    public let countdown: Countdown
    public let countdownStartedAt: Int64?
    public let recordingStartedAt: Int64?
    /// The output composition's aspect, for the safe frame (the picture's own without `--aspect`); nil hides it.
    public let safeFrameAspect: AspectRatio?
    /// Only for the `preview` kind.
    public let preview: PreviewFrame?
    /// The current shot (`--shots`), shown during standby and the countdown: only `ShotList`'s parser
    /// makes a `SubjectShot`, and it has no field for the operator's notes.
    public private(set) var shot: SubjectShot?
    /// Framing hints ("move left", "step back"): a closed set of fixed words (`FramingHint`), never text
    /// from the session; none when the accessory is off.
    public private(set) var framingHints: [PersonHint] = []
    /// The self-view's size: off except for the teleprompter and countdown kinds. Its picture is the
    /// camera's (the subject's own image, mirrored), never drawn from this model: the model says only
    /// where and how large.
    public let selfView: SelfViewSize
    /// The camera picture's shape, for the self-view's proportions (numbers only).
    public let picture: PictureShape?
    /// The cue to the talent (none when the accessory is off): only `SubjectCue`'s makers make one.
    public private(set) var cue: SubjectCue?
    /// Pipeline time when the cue goes away; nil: shown until cleared.
    public private(set) var cueUntil: Int64?
    /// The talent's clock (teleprompter and countdown kinds): numbers only, the shot's length from `shot`.
    public private(set) var talentClock: TalentClock = .off
    /// The local wall time (ns since a local midnight) at pipeline time 0.
    public private(set) var localTimeAtZero: Int64?

    private init(kind: AccessoryKind, script: SubjectScript?, scroll: ScrollModel?, readingLine: Double?,
                 mirror: MirrorFlags, style: PromptStyle, countdown: Countdown, countdownStartedAt: Int64?,
                 recordingStartedAt: Int64?, safeFrameAspect: AspectRatio?, preview: PreviewFrame?,
                 selfView: SelfViewSize, picture: PictureShape?) {
        self.kind = kind; self.script = script; self.scroll = scroll; self.readingLine = readingLine
        self.mirror = mirror; self.style = style; self.countdown = countdown
        self.countdownStartedAt = countdownStartedAt; self.recordingStartedAt = recordingStartedAt
        self.safeFrameAspect = safeFrameAspect; self.preview = preview
        self.selfView = selfView; self.picture = picture
    }

    /// Whether `kind` shows the self-view (the views with text or a countdown to read; the preview kind
    /// is all picture already).
    public static func showsSelfView(_ kind: AccessoryKind) -> Bool { kind == .teleprompter || kind == .countdown }

    /// Copies the whitelisted fields of `session`, and only those.
    public static func whitelisted(from session: PrompterSessionState) -> SubjectViewModel {
        let kind = session.accessory
        return SubjectViewModel(
            kind: kind,
            script: kind == .teleprompter ? session.script?.subject : nil,
            scroll: kind == .teleprompter ? session.scroll : nil,
            readingLine: session.readingLine,
            mirror: session.mirror,
            style: session.style,
            countdown: session.countdown,
            countdownStartedAt: kind == .off ? nil : session.countdownStartedAt,
            recordingStartedAt: kind == .off ? nil : session.recordingStartedAt,
            // The safe frame is always shown: the composition's crop, or the whole picture without --aspect.
            safeFrameAspect: kind == .off ? nil : session.aspect ?? session.picture?.aspect,
            preview: kind == .preview ? session.preview : nil,
            selfView: showsSelfView(kind) && session.picture != nil ? session.selfView : .off,
            picture: session.picture)
            .with(shot: kind == .off ? nil : session.shot)
            .withFramingHints(kind == .off ? [] : session.framingHints)
            .with(cue: kind == .off ? nil : session.cue, until: session.cueUntil)
            .with(talentClock: showsSelfView(kind) ? session.talentClock : .off, localTimeAtZero: session.localTimeAtZero)
    }

    private func with(talentClock: TalentClock, localTimeAtZero: Int64?) -> SubjectViewModel {
        var copy = self
        copy.talentClock = talentClock
        copy.localTimeAtZero = talentClock.items.contains(.clock) ? localTimeAtZero : nil
        return copy
    }

    /// The talent clock's rows at `time` (none when it is off).
    public func talentClockRows(at time: Int64) -> [TalentClock.Row] {
        guard !talentClock.isOff else { return [] }
        let wall = localTimeAtZero.map { Int((Double(time + $0) / 1e9).rounded(.down)) }
        return talentClock.rows(wallSeconds: wall, elapsed: recordingElapsedSeconds(at: time), length: shot?.length)
    }

    private func with(cue: SubjectCue?, until: Int64?) -> SubjectViewModel {
        var copy = self
        copy.cue = cue
        copy.cueUntil = cue == nil ? nil : until
        return copy
    }

    /// Whether the cue shows at `time`.
    public func cueShown(at time: Int64) -> Bool {
        cue != nil && (cueUntil.map { time < $0 } ?? true)
    }

    private func with(shot: SubjectShot?) -> SubjectViewModel {
        var copy = self
        copy.shot = shot
        return copy
    }

    private func withFramingHints(_ hints: [PersonHint]) -> SubjectViewModel {
        var copy = self
        copy.framingHints = hints
        return copy
    }

    /// Scroll position at pipeline time `time` (nanoseconds).
    public func scrollPosition(at time: Int64) -> Double { scroll?.position(at: time) ?? 0 }

    /// The countdown number to show at `time`, or nil.
    public func countdownValue(at time: Int64) -> Int? {
        countdownStartedAt.flatMap { countdown.displayedValue(elapsed: time - $0) }
    }

    /// Whole seconds recorded at `time`, or nil when not recording.
    public func recordingElapsedSeconds(at time: Int64) -> Int? {
        recordingStartedAt.map { Int(max(time - $0, 0) / nanosecondsPerSecond) }
    }
}
