import Foundation

/// A cue's fixed words (`{"cmd":"cue","preset":"wrap"}`, OSC `/duo/cue wrap`).
///
/// Thread: value type, Sendable.
public enum CuePreset: String, Sendable, Hashable, CaseIterable {
    case wrap
    case thirtySeconds = "30s"
    case slower, faster, lens

    /// What the talent reads (English, as events and the HUD's log carry it), marked for translation.
    public var text: String {
        switch self {
        case .wrap: N_("wrap up")
        case .thirtySeconds: N_("30 seconds")
        case .slower: N_("slower")
        case .faster: N_("faster")
        case .lens: N_("look at the lens")
        }
    }

    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}

/// A short cue to the talent, shown large beside the reading line: a preset's words or free text of at
/// most 40 characters on one line. Whitelisted subject content: the operator sends it for the subject to
/// read, and only `preset(_:)` and `text(_:)` make one (no control characters, no line breaks).
///
/// Thread: value type, Sendable.
public struct SubjectCue: Sendable, Hashable {
    public static let maximumLength = 40
    public let text: String
    /// The preset it came from (nil: free text).
    public let preset: CuePreset?

    private init(text: String, preset: CuePreset?) { self.text = text; self.preset = preset }

    public static func preset(_ preset: CuePreset) -> SubjectCue { SubjectCue(text: preset.text, preset: preset) }

    /// What the talent reads in `language`: a preset's words translated; free text is the operator's own
    /// words, shown as written.
    public func text(in language: Translator) -> String { preset.map { language.text($0.text) } ?? text }

    /// A preset's name (`wrap`, `30s`, …) as that preset, else free text.
    public static func presetOrText(_ raw: String) throws(DuoError) -> SubjectCue {
        if let preset = CuePreset(rawValue: raw) { return .preset(preset) }
        return try text(raw)
    }

    /// Free text: trimmed, 1 to 40 characters, one line.
    public static func text(_ raw: String) throws(DuoError) -> SubjectCue {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw .usage("cue: the text is empty; send a few words, such as {\"cmd\":\"cue\",\"text\":\"smile\"}, or a preset (\(CuePreset.names))")
        }
        guard text.count <= maximumLength else {
            throw .usage("cue: the text is \(text.count) characters; a cue is at most \(maximumLength), so the talent reads it at a glance: shorten it")
        }
        guard !text.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) || CharacterSet.newlines.contains($0) }) else {
            throw .usage("cue: the text has a line break or control character; send one line of at most \(maximumLength) characters")
        }
        return SubjectCue(text: text, preset: nil)
    }
}

extension ControlCommand {
    /// `{"cmd":"cue","text":"…"}`, `{"cmd":"cue","preset":"wrap"}` (each with an optional `"seconds"`), or
    /// `{"cmd":"cue","clear":true}`.
    static func parseCue(_ object: [String: Any]) throws(DuoError) -> ControlCommand {
        let example = "such as {\"cmd\":\"cue\",\"preset\":\"wrap\"}, {\"cmd\":\"cue\",\"text\":\"smile\",\"seconds\":5} or {\"cmd\":\"cue\",\"clear\":true}"
        if object["clear"] != nil {
            guard StrictJSON.bool(object["clear"]) == true, object["text"] == nil, object["preset"] == nil else {
                throw .usage("control: cue \"clear\" is true and comes alone, \(example)")
            }
            return .cue(nil, seconds: nil)
        }
        var seconds: Double?
        if object["seconds"] != nil {
            guard let s = StrictJSON.double(object["seconds"]), (0.5...3600).contains(s) else {
                throw .usage("control: cue \"seconds\" is a number from 0.5 to 3600 (how long the cue shows; leave it out to show it until cleared)")
            }
            seconds = s
        }
        switch (object["text"], object["preset"]) {
        case (let text as String, nil):
            return .cue(try SubjectCue.text(text), seconds: seconds)
        case (nil, let name as String):
            guard let preset = CuePreset(rawValue: name) else {
                throw .usage("control: unknown cue preset \"\(name)\"; use one of \(CuePreset.names), or send \"text\"")
            }
            return .cue(.preset(preset), seconds: seconds)
        default:
            throw .usage("control: cue needs \"text\" (at most \(SubjectCue.maximumLength) characters) or \"preset\" (\(CuePreset.names)), or \"clear\": true, \(example)")
        }
    }
}
