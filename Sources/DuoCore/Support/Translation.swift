/// Translated text (issue 41). Every user-visible string duo-capture writes goes through `tr` (the
/// operator's language) or a `Translator` for another reader (the subject's language, a phone's
/// `Accept-Language`). Machine-read output (events, JSON, the sidecar, `pipeline`) is never translated.
///
/// How to mark a string (`Scripts/update-po.sh` extracts these with xgettext; po/README.md):
/// - `tr("the camera is gone")`, with arguments `tr("cannot read %s: %s", path, reason)`: `%s` in order
///   or `%1$s`, `%2$s` when a translation reorders them (`%d` is the same as `%s`; `%%` is a percent sign
///   when there are arguments);
/// - `trn("%d take", "%d takes", n, n)`: plural forms by the catalogue's rule, never by string building;
/// - `N_("move left")` marks a literal kept untranslated in data (an event's value) and translated where
///   it is shown, with `translator.text(value)`.
/// Keep a sentence whole in one literal: pieces joined at run time cannot be translated.
///
/// Thread: `Translator` is an immutable Sendable value; the operator's is set once at start-up and read
/// from any thread.
public struct Translator: Sendable {
    /// The catalogue's language (`zh_CN`), or "" for the English the sources are written in.
    public let language: String
    private let lookup: @Sendable (String) -> String?
    private let lookupPlural: @Sendable (String, Int) -> String?

    public init(language: String, lookup: @escaping @Sendable (String) -> String?,
                plural: @escaping @Sendable (String, Int) -> String?) {
        self.language = language
        self.lookup = lookup
        self.lookupPlural = plural
    }

    /// English as written.
    public static let english = Translator(language: "", lookup: { _ in nil }, plural: { _, _ in nil })

    /// Translations read from a compiled catalogue (`.mo`).
    public init(catalog: MessageCatalog) {
        self.init(language: catalog.language, lookup: { catalog.translation($0) }, plural: { catalog.translation($0, count: $1) })
    }

    public var isEnglish: Bool { language.isEmpty || language == "en" || language.hasPrefix("en_") }

    /// `msgid` in this language (itself when untranslated), with `args` put in its `%s` places.
    public func text(_ msgid: String, _ args: [any CustomStringConvertible] = []) -> String {
        let found = lookup(msgid) ?? msgid
        return args.isEmpty ? found : Self.format(found, args)
    }

    /// The plural form of `one`/`other` for `n` by the catalogue's rule (English: `one` when n is 1).
    public func plural(_ one: String, _ other: String, _ n: Int, _ args: [any CustomStringConvertible] = []) -> String {
        let found = lookupPlural(one, n) ?? (n == 1 ? one : other)
        return args.isEmpty ? found : Self.format(found, args)
    }

    /// Puts `args` into `%s`/`%d` (in order) and `%N$s`/`%N$d` (by number); `%%` is `%`. Anything else
    /// after a `%` is kept as written.
    public static func format(_ template: String, _ args: [any CustomStringConvertible]) -> String {
        var out = "", next = 0
        var chars = template[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            guard c == "%", let d = chars.first else { out.append(c); continue }
            if d == "%" { out.append("%"); chars = chars.dropFirst(); continue }
            if d == "s" || d == "d" {
                out += next < args.count ? args[next].description : ""
                next += 1
                chars = chars.dropFirst()
                continue
            }
            let digits = chars.prefix(while: \.isNumber)
            let rest = chars.dropFirst(digits.count)
            if !digits.isEmpty, rest.first == "$", let kind = rest.dropFirst().first, kind == "s" || kind == "d",
               let index = Int(digits), index >= 1 {
                out += index <= args.count ? args[index - 1].description : ""
                chars = rest.dropFirst(2)
                continue
            }
            out.append("%")
        }
        return out
    }
}

/// The operator's language: what `tr` and `trn` use. Set once at start-up (DuoPlatform's gettext
/// set-up); English until then.
///
/// Thread: any.
public enum Translation {
    private static let current = Locked(Translator.english)
    public static var operatorLanguage: Translator { current.value }
    public static func use(_ translator: Translator) { current.set(translator) }
}

/// `msgid` in the operator's language, with `args` in its `%s` places.
public func tr(_ msgid: String, _ args: any CustomStringConvertible...) -> String {
    Translation.operatorLanguage.text(msgid, args)
}

/// The plural form for `n` in the operator's language, with `args` in its `%s`/`%d` places.
public func trn(_ one: String, _ other: String, _ n: Int, _ args: any CustomStringConvertible...) -> String {
    Translation.operatorLanguage.plural(one, other, n, args)
}

/// Marks `text` for translation without translating it here: it is stored or sent as written and
/// translated where a person reads it.
@inline(__always) public func N_(_ text: String) -> String { text }
