import Foundation

/// The phone page of the web remote (Assets/remote/remote.html) in the phone's language (issue 41): the
/// page is written in English; its `<html lang>` is set and its `texts` table filled with this file's
/// marked strings in the language the phone's `Accept-Language` asks for (when a catalogue of it is
/// installed), and the page's script looks every word up there. The marked strings here are what
/// xgettext extracts; Tests/DuoCoreTests/WebRemotePageTests checks that the page uses no text missing here.
///
/// Thread: pure; any thread.
public enum WebRemotePage {
    /// Every text the page shows: its elements marked `data-t`, its script's `t(...)`, and the control
    /// socket's replies it shows translated (they stay English on the socket).
    public static let texts: [String] = [
        N_("duo-capture remote"),
        // The recording state in the page's header (a short word: its box is 8.5 em wide).
        N_("IDLE"), N_("REC"), N_("COUNTDOWN"),
        N_("connecting…"), N_("connected"), N_("reconnecting…"), N_("run ended"),
        N_("no shot list"), N_("give --shots FILE for shots"),
        N_("● Record"), N_("■ Stop"), N_("Pause / resume"), N_("Cancel countdown"), N_("− Slower"), N_("+ Faster"),
        N_("⏮ Marker"), N_("Marker ⏭"), N_("⏮ Shot"), N_("Shot ⏭"), N_("✓ Good"), N_("✗ No good"),
        // The current shot's place: "shot 2 of 5 · 3 takes · next 08" (the list's own ids).
        N_("shot %1$s of %2$s"), N_("the last shot"), N_("next %s"),
        N_("no take yet"), N_("no take of this session yet"),
        // The last take: shot id, its take number in the shot, its take number in the session, and its mark.
        N_("last take: shot %1$s take %2$s (%3$s) · %4$s"), N_("good"), N_("no good"), N_("not marked"),
        N_("the run is busy; send the command again"),
        // Cues to the talent and the re-take (issue 37).
        N_("↺ Re-take (between takes)"), N_("no cue on the prompter"), N_("cue: %s"),
        N_("Wrap up"), N_("30 s"), N_("Slower"), N_("Faster"), N_("Lens"), N_("Clear cue"), N_("Cue"),
        N_("a cue of up to 40 characters"), N_("cue text"), N_("Type a few words for the cue first."),
        N_("A cue is at most %1$s characters (this one has %2$s): shorten it."),
        // The replay buffer's save (issue 39; refused without --replay).
        N_("⏪ Save replay (--replay)"),
        // Notes and flags (issue 39): the note box, its code buttons (the codes themselves are not translated).
        N_("a note for the take, then a code"), N_("note text"), N_("⚑ Flag"), N_("note sent: %s"), N_("flag sent"),
        N_("A note is at most %1$s characters (this one has %2$s): shorten it."),
        N_("not connected: the note stays here; send it again once connected"),
    ]

    /// The plural texts: English singular and plural.
    public static let plurals: [(one: String, other: String)] = [
        plural("%d take", "%d takes"),
    ]

    /// Marks a plural pair for xgettext (its `plural:1,2` keyword), translated where the page shows it.
    private static func plural(_ one: String, _ other: String) -> (one: String, other: String) { (one, other) }

    /// Plural forms are sent for n = 0..<199; a larger n takes the form of 100 + n % 100 (every gettext
    /// rule looks at n % 10, n % 100 and small n only).
    static let pluralSpan = 200

    /// The table the page reads: {"texts": {English: translation}, "plurals": {singular: {"forms", "at"}}};
    /// only what `language` translates (the page keeps its English otherwise).
    public static func table(_ language: Translator) -> [String: Any] {
        var texts: [String: String] = [:]
        for text in Self.texts {
            let translated = language.text(text)
            if translated != text { texts[text] = translated }
        }
        var plurals: [String: Any] = [:]
        for (one, other) in Self.plurals {
            var forms: [String] = [], at: [Int] = [], translated = false
            for n in 0..<pluralSpan {
                let form = language.plural(one, other, n)
                translated = translated || form != (n == 1 ? one : other)
                if let i = forms.firstIndex(of: form) { at.append(i) } else { at.append(forms.count); forms.append(form) }
            }
            if translated { plurals[one] = ["forms": forms, "at": at] }
        }
        return ["texts": texts, "plurals": plurals]
    }

    /// `template` (the page as written) for a phone reading `language`: its `lang` and its table.
    public static func html(_ template: String, language: Translator) -> String {
        let lang = language.isEnglish ? "en" : LanguageTag.html(language.language)
        let data = (try? JSONSerialization.data(withJSONObject: table(language), options: [.sortedKeys])) ?? Data("{}".utf8)
        // Inside <script>: "</" could end the element early; JSON reads "<\/" as "</".
        let json = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
        return template
            .replacingOccurrences(of: "<html lang=\"en\">", with: "<html lang=\"\(lang)\">")
            .replacingOccurrences(of: "<script id=\"texts\" type=\"application/json\">{}</script>",
                                  with: "<script id=\"texts\" type=\"application/json\">\(json)</script>")
    }
}

/// The languages of the phones that open the page: each `Accept-Language` to the first of its languages
/// with an installed catalogue (English when none has one, or English comes first). Catalogues are read
/// once and kept.
///
/// Thread: any (the network loop's); the cache is behind a mutex.
public final class WebRemoteLanguages: Sendable {
    /// Where the catalogues are (`share/locale`).
    public let directory: String
    private let loaded = Locked<[String: Translator]>([:])

    public init(directory: String) {
        self.directory = directory
    }

    /// The language for a request with this `Accept-Language` header (nil: none sent).
    public func translator(acceptLanguage: String?) -> Translator {
        for tag in LanguageTag.accepted(acceptLanguage ?? "") {
            if LanguageTag.isEnglish(tag) { return .english }
            guard let path = MessageCatalog.find(tag, in: directory) else { continue }
            if let known = loaded.value[path] { return known }
            // The folder's name (zh_CN) is the catalogue's language.
            let language = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
            guard let catalog = try? MessageCatalog(language: language, path: path) else { continue }
            let translator = Translator(catalog: catalog)
            loaded.update { $0[path] = translator }
            return translator
        }
        return .english
    }
}
