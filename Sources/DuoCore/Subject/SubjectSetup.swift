import Foundation

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
    /// `--subject-language LANG` as given (nil: the operator's language).
    public var languageTag: String?
    /// The language of the subject view's own words (hints, the standby line, cue presets, the shot
    /// card's labels, the recording light): `languageTag`'s catalogue once `resolveLanguage` has run,
    /// else English. Never the script's or shot list's text, which is shown as written.
    public var language: Translator = .english
    public init() {}

    /// Sets `language` from `--subject-language` (a catalogue in `localeDirectory`), else `operatorLanguage`.
    public mutating func resolveLanguage(localeDirectory: String, operatorLanguage: Translator) throws(DuoError) {
        language = try SubjectLanguage.translator(languageTag, localeDirectory: localeDirectory, operatorLanguage: operatorLanguage)
    }

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

/// `--subject-language LANG`: the subject view's words in a language of their own, read from the
/// installed catalogues (`MessageCatalog`), independently of the operator's (gettext's).
///
/// Thread: stateless.
public enum SubjectLanguage {
    /// The translator for `tag`: English for `en` (and `C`), the installed catalogue for any other, the
    /// operator's language for nil. A language with no catalogue is a one-line error naming those there are.
    public static func translator(_ tag: String?, localeDirectory: String, operatorLanguage: Translator) throws(DuoError) -> Translator {
        guard let tag else { return operatorLanguage }
        if LanguageTag.isEnglish(tag) { return .english }
        guard let path = MessageCatalog.find(tag, in: localeDirectory) else {
            let installed = MessageCatalog.installed(in: localeDirectory)
            throw .usage(tr("--subject-language %1$s: no translation of duo-capture into it is installed; give one of: %2$s",
                            tag, (["en"] + installed).joined(separator: ", ")))
        }
        let language = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        return Translator(catalog: try MessageCatalog(language: language, path: path))
    }
}
