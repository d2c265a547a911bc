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
    public init() {}
}
