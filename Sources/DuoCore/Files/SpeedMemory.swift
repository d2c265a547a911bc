import Foundation

/// Remembers the teleprompter speed per script, so a presenter's pace comes back with the
/// script: a small JSON file mapping each script's absolute path to its last speed. The file lives in
/// `$XDG_STATE_HOME/duo-capture/speeds.json` (default `~/.local/state`). A missing or damaged file means
/// "nothing remembered"; it never stops a session.
///
/// Thread: value type; reads and writes the file synchronously on the caller's actor (the presenter).
public struct SpeedMemory: Sendable {
    public let file: String

    public init(file: String) { self.file = file }

    public static func standard() -> SpeedMemory {
        SpeedMemory(file: (stateDirectory() as NSString).appendingPathComponent("speeds.json"))
    }

    /// `$XDG_STATE_HOME/duo-capture` (default `~/.local/state/duo-capture`): what duo-capture remembers.
    public static func stateDirectory() -> String {
        (XDGPaths.stateHome() as NSString).appendingPathComponent("duo-capture")
    }

    private struct Entry: Codable {
        var wordsPerMinute: Double?
        var linesPerMinute: Double?
        /// The text size last used with the script, pixels.
        var fontSize: Double?
    }

    private func load() -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: file),
              let entries = try? JSONDecoder().decode([String: Entry].self, from: data) else { return [:] }
        return entries
    }

    private static func key(_ scriptPath: String) -> String {
        URL(fileURLWithPath: scriptPath).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The speed last used with this script, if any.
    public func speed(for scriptPath: String) -> ScrollSpeed? {
        guard let entry = load()[Self.key(scriptPath)] else { return nil }
        if let wpm = entry.wordsPerMinute, wpm > 0 { return .wordsPerMinute(wpm) }
        if let lpm = entry.linesPerMinute, lpm > 0 { return .linesPerMinute(lpm) }
        return nil
    }

    /// Stores `speed` for this script. Failures are returned for the caller to report as a warning.
    @discardableResult
    public func remember(_ speed: ScrollSpeed, for scriptPath: String) -> DuoError? {
        var entries = load()
        let fontSize = entries[Self.key(scriptPath)]?.fontSize
        switch speed {
        case .wordsPerMinute(let v): entries[Self.key(scriptPath)] = Entry(wordsPerMinute: v, linesPerMinute: nil, fontSize: fontSize)
        case .linesPerMinute(let v): entries[Self.key(scriptPath)] = Entry(wordsPerMinute: nil, linesPerMinute: v, fontSize: fontSize)
        }
        return save(entries)
    }

    /// The text size last used with this script, if any.
    public func fontSize(for scriptPath: String) -> Double? {
        load()[Self.key(scriptPath)]?.fontSize.flatMap { (6...400).contains($0) ? $0 : nil }
    }

    /// Stores the text size for this script (its speed stays as it was).
    @discardableResult
    public func remember(fontSize: Double, for scriptPath: String) -> DuoError? {
        var entries = load()
        var entry = entries[Self.key(scriptPath)] ?? Entry()
        entry.fontSize = fontSize
        entries[Self.key(scriptPath)] = entry
        return save(entries)
    }

    private func save(_ entries: [String: Entry]) -> DuoError? {
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(entries).write(to: URL(fileURLWithPath: file), options: .atomic)
            return nil
        } catch {
            return .runtime(.text("cannot remember the teleprompter speed in %s; check that the folder is writable", file))
        }
    }
}

/// The script a teleprompter opens when none is given: the last one used (remembered in
/// `$XDG_STATE_HOME/duo-capture/last-script`), else the bundled welcome script that teaches the keys.
///
/// Thread: value type; synchronous file reads and writes at start-up.
public struct ScriptChoice: Sendable {
    public let file: String

    public init(file: String) { self.file = file }

    public static func standard() -> ScriptChoice {
        ScriptChoice(file: (SpeedMemory.stateDirectory() as NSString).appendingPathComponent("last-script"))
    }

    /// The script to open and a one-line notice saying which and how to load another, for a teleprompter
    /// with no `--script`; `welcome` is the bundled welcome script's path.
    public func choose(welcome: String) -> (path: String, notice: String) {
        let remembered = (try? String(contentsOfFile: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let remembered, !remembered.isEmpty {
            var info = stat()
            if stat(remembered, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                return (remembered, tr("no --script given; opening the last script used, %s (give --script FILE for another)", remembered))
            }
            return (welcome, tr("the last script used, %s, is gone; opening the welcome script (give --script FILE to load yours)", remembered))
        }
        return (welcome, tr("no --script given; opening the welcome script, which shows the keys (give --script FILE to load yours)"))
    }

    /// Remembers `path` (made absolute) as the last script used. Failures are returned as a warning.
    @discardableResult
    public func remember(_ path: String) -> DuoError? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (absolute + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            return nil
        } catch {
            return .runtime(.text("cannot remember the last script in %s; check that the folder is writable", file))
        }
    }
}
