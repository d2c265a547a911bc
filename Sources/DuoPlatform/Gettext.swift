import CGLib
import DuoCore
import Foundation

/// gettext for the operator's language (issue 41): sets the process's locale from the environment as
/// any GNOME program does (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`), binds the `duo-capture` text
/// domain to the installed catalogues, and makes `tr`/`trn` look up through `g_dgettext`/`g_dngettext`.
///
/// Numbers stay in the C locale (`LC_NUMERIC`), so caps, JSON and the sidecar never get a decimal comma.
/// glibc ignores `LANGUAGE` while the messages locale is `C`: with `LANGUAGE` set and no locale
/// generated (a fresh machine's `C`), messages use `C.UTF-8`, which honours it.
///
/// Thread: `setUp` on the main thread at start-up, before any other thread reads the locale.
public enum Gettext {
    /// Where catalogues are installed: `$DUO_CAPTURE_LOCALEDIR`, else `share/locale` beside the
    /// executable's `bin/` (Scripts/install.sh and the .deb put them there), else `/usr/share/locale`.
    public static func localeDirectory(executablePath: String = ResourceLocator.runningExecutable()) -> String {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["DUO_CAPTURE_LOCALEDIR"], !dir.isEmpty { return dir }
        let exe = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        let beside = exe.deletingLastPathComponent().appendingPathComponent("share/locale").path
        if !MessageCatalog.installed(in: beside).isEmpty { return beside }
        return "/usr/share/locale"
    }

    /// Sets the locale and the text domain; `tr` answers in the operator's language from here on.
    /// Returns that language's name ("" for English).
    @discardableResult
    public static func setUp(localeDirectory: String = localeDirectory()) -> String {
        setlocale(LC_ALL, "")
        setlocale(LC_NUMERIC, "C")
        let messages = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        let env = ProcessInfo.processInfo.environment
        if ["C", "POSIX"].contains(messages), let language = env["LANGUAGE"], !language.isEmpty {
            setlocale(LC_MESSAGES, "C.UTF-8")
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        bindtextdomain(MessageCatalog.domain, localeDirectory)
        bind_textdomain_codeset(MessageCatalog.domain, "UTF-8")
        let language = operatorLanguage()
        guard !language.isEmpty else {
            Translation.use(.english)
            return ""
        }
        Translation.use(Translator(language: language, lookup: { msgid in
            let found = String(cString: g_dgettext(MessageCatalog.domain, msgid))
            return found == msgid ? nil : found
        }, plural: { one, n in
            // g_dngettext needs the English plural too; the catalogue answers by the singular.
            let found = String(cString: g_dngettext(MessageCatalog.domain, one, one, gulong(max(0, n))))
            return found == one ? nil : found
        }))
        return language
    }

    /// Runs `body` with the messages locale `C`: every text made meanwhile through gettext, duo-capture's
    /// and the libraries' (GStreamer's error messages are translated by its own catalogues), is English.
    /// For machine-read output that carries such texts (`report --json`'s reasons a take is damaged).
    /// Call it from the main thread while no other thread is making texts to show.
    public static func inEnglish<T>(_ body: () throws -> T) rethrows -> T {
        let saved = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        setlocale(LC_MESSAGES, "C")
        defer { setlocale(LC_MESSAGES, saved) }
        return try body()
    }

    /// The language gettext answers in: the first of `LANGUAGE`'s list (or the messages locale) that has
    /// a catalogue here; "" for English.
    public static func operatorLanguage(localeDirectory: String = localeDirectory()) -> String {
        let env = ProcessInfo.processInfo.environment
        let messages = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        var wanted: [String] = []
        if !["C", "POSIX"].contains(messages), let list = env["LANGUAGE"], !list.isEmpty {
            wanted = list.split(separator: ":").map(String.init)
        }
        wanted.append(messages)
        for w in wanted {
            if LanguageTag.isEnglish(w) || w.hasPrefix("C.") { return "" }
            if let path = MessageCatalog.find(w, in: localeDirectory) {
                return URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
            }
        }
        return ""
    }
}
