/// One marked sentence in two languages: `english` as written, for what a machine reads (an event's
/// `message`, the control socket's answer), and `text` in the operator's language, for the terminal and
/// the HUD (issue 41: events stay English and stable). `Said.text("camera %s is back", letter)` is
/// marked for xgettext like `tr` (its keyword `text`).
///
/// Thread: immutable value, Sendable; made anywhere.
public struct Said: Sendable, Equatable, CustomStringConvertible {
    public let english: String
    public let text: String

    /// Text the sources do not mark (a GStreamer message, a file's own words): the same in both.
    public init(verbatim: String) {
        english = verbatim
        text = verbatim
    }

    public init(english: String, text: String) {
        self.english = english
        self.text = text
    }

    /// `msgid` with `args` in its `%s` places, in English and in the operator's language.
    public static func text(_ msgid: String, _ args: any CustomStringConvertible...) -> Said {
        // An argument that is itself a `Said` (a noun, a DuoError's line) goes in in the same language.
        let english = args.map { ($0 as? Said)?.english ?? $0 }
        return Said(english: Translator.english.text(msgid, english), text: Translation.operatorLanguage.text(msgid, args))
    }

    public var description: String { text }
}
