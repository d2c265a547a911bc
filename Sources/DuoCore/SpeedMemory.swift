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
        let env = ProcessInfo.processInfo.environment
        let state = env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/state")
        return SpeedMemory(file: (state as NSString).appendingPathComponent("duo-capture/speeds.json"))
    }

    private struct Entry: Codable {
        var wordsPerMinute: Double?
        var linesPerMinute: Double?
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
        switch speed {
        case .wordsPerMinute(let v): entries[Self.key(scriptPath)] = Entry(wordsPerMinute: v, linesPerMinute: nil)
        case .linesPerMinute(let v): entries[Self.key(scriptPath)] = Entry(wordsPerMinute: nil, linesPerMinute: v)
        }
        do {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(entries).write(to: URL(fileURLWithPath: file), options: .atomic)
            return nil
        } catch {
            return .runtime("cannot remember the teleprompter speed in \(file); check that the folder is writable")
        }
    }
}
