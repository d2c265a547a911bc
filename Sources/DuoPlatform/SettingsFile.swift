import CGLib
import DuoCore
import Foundation

/// duo-capture's settings file, `$XDG_CONFIG_HOME/duo-capture/duo-capture.conf`, read with GLib's
/// GKeyFile (the desktop's own key-file parser): one group, `[duo-capture]`, whose keys are long option
/// names without their dashes and whose values are what the option takes (`true`/`false` for a flag; a
/// list such as `camera=inner;outer` for an option given more than once).
///
/// Thread: value type; read synchronously at start-up.
public struct SettingsFile: Sendable {
    public struct Entry: Sendable, Equatable {
        public let key: String
        public let values: [String]
        /// Where the key is in the file (1-based), for errors and `--print-config`.
        public let line: Int
    }

    public let path: String
    public let entries: [Entry]

    public static let group = "duo-capture"

    /// `$XDG_CONFIG_HOME/duo-capture/duo-capture.conf` (default `~/.config/…`).
    public static func standardPath() -> String {
        "\(XDGPaths.configHome())/duo-capture/duo-capture.conf"
    }

    /// The file's settings, or nil when there is no file. A file GKeyFile cannot read, or a group other
    /// than `[duo-capture]`, is a one-line error naming the file and line.
    public static func load(_ path: String) throws(DuoError) -> SettingsFile? {
        // No file is no settings; anything at the path (a link loop, a dangling link) is checked.
        var link = stat()
        guard lstat(path, &link) == 0 else { return nil }
        try InputFile.requireRegular(path, .text("settings file"), hint: .text("it must be a text file of key=value lines under [duo-capture]; move what is there away"))
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func line(of predicate: (String) -> Bool) -> Int { (lines.firstIndex(where: predicate) ?? 0) + 1 }
        // Where each key is, found in one pass (the file may repeat a key thousands of times: looking
        // each one up again was quadratic). GKeyFile keeps a repeated key's last value: its line is the last.
        var lineOfKey: [String: Int] = [:]
        for (i, l) in lines.enumerated() {
            let t = l.trimmingCharacters(in: .whitespaces)
            guard !t.hasPrefix("#"), !t.hasPrefix("["), let eq = t.firstIndex(of: "=") else { continue }
            lineOfKey[t[..<eq].trimmingCharacters(in: .whitespaces)] = i + 1
        }
        guard let file = g_key_file_new() else { throw .runtime(.text("cannot read settings: GLib's key-file parser is unavailable")) }
        defer { g_key_file_free(file) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unreadable"
            if let error { g_error_free(error) }
            // GLib quotes the offending line: find it, to say where.
            let quoted = message.split(separator: "“").dropFirst().first?.split(separator: "”").first.map(String.init)
            let at = quoted.map { q in line { $0.trimmingCharacters(in: .whitespaces) == q.trimmingCharacters(in: .whitespaces) } } ?? 1
            throw .input(.text("%s:%s: %s; write key=value lines under [%s]", path, at, message, group))
        }
        var groupCount: gsize = 0
        let groups = g_key_file_get_groups(file, &groupCount)
        defer { g_strfreev(groups) }
        for i in 0..<Int(groupCount) {
            guard let g = groups?[i] else { continue }
            let name = String(cString: g)
            guard name == group else {
                throw .input(.text("%s:%s: unknown group [%s]; put every setting under [%s]", path, line { $0.trimmingCharacters(in: .whitespaces) == "[\(name)]" }, name, group))
            }
        }
        guard groupCount > 0 else { return SettingsFile(path: path, entries: []) }
        var keyCount: gsize = 0
        let keys = g_key_file_get_keys(file, group, &keyCount, nil)
        defer { g_strfreev(keys) }
        var entries: [Entry] = []
        var seen = Set<String>()
        for i in 0..<Int(keyCount) {
            guard let k = keys?[i] else { continue }
            let key = String(cString: k)
            // GKeyFile lists a repeated key once per line; its value is the last one's.
            guard seen.insert(key).inserted else { continue }
            var count: gsize = 0
            let list = g_key_file_get_string_list(file, group, key, &count, nil)
            defer { g_strfreev(list) }
            let values = (0..<Int(count)).compactMap { list?[$0].map { String(cString: $0) } }
            entries.append(Entry(key: key, values: values, line: lineOfKey[key] ?? 1))
        }
        return SettingsFile(path: path, entries: entries.sorted { $0.line < $1.line })
    }
}
