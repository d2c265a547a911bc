/// How the subject view is set up for a session (the command line's `--accessory`, `--script`, …).
///
/// Thread: value type, Sendable.
public struct SubjectSetup: Sendable {
    public var accessory: AccessoryKind = .teleprompter
    public var scriptPath: String?
    public var displayProfilePath: String?
    public var mirror: MirrorFlags = .none
    public var wordsPerMinute: Double?
    public var linesPerMinute: Double?
    public var fontSize: Double?
    /// `--lines N`: the text sized so that N lines fill the subject monitor.
    public var lines: Int?
    public var readingLine: Double?
    public var theme: PromptTheme = .standard
    /// Where speeds are remembered per script; nil remembers nothing. Without --wpm/--lines-per-minute,
    /// a script starts at the speed it was last read at.
    public var speedMemory: SpeedMemory?
    public var countdown: Countdown = .defaultValue
    public var aspect: AspectRatio?
    /// `--lens`: overrides the display profile's; nil keeps the profile's, else `top`.
    public var lens: LensPosition?
    /// `--self-view`: the camera picture on the subject view, a sixth of its width by default.
    public var selfView: SelfViewSize = .small
    /// `--talent-clock`: the wall clock, the take's count-up, the time to the shot's `length:` (off by default).
    public var talentClock: TalentClock = .off
    /// Whether `--mirror` was given (else `--lens behind` mirrors horizontally).
    public var mirrorGiven = false
    /// The camera picture's shape (set by the run from its format; render-subject: 16:9).
    public var picture: PictureShape?
    public init() {}

    /// The mirror the view starts with: `--mirror`, else horizontal for a beam-splitter (`--lens behind`).
    public func resolvedMirror(profile: DisplayProfile) -> MirrorFlags {
        if mirrorGiven { return mirror }
        return resolvedLens(profile: profile) == .behind ? MirrorFlags(horizontal: true, vertical: false) : mirror
    }

    /// The lens: `--lens`, else the profile's (its `lens`, or where its camera occlusion is), else `top`.
    public func resolvedLens(profile: DisplayProfile) -> LensPosition { lens ?? profile.lens ?? profile.cameraOcclusionLens ?? .top }

    /// The display profile with the lens resolved into it.
    public func resolvedProfile(_ profile: DisplayProfile) -> DisplayProfile {
        var p = profile
        p.lens = resolvedLens(profile: profile)
        return p
    }
}
