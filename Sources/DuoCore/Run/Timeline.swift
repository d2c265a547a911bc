import Foundation

/// A timeline file (`--timeline FILE`): timed control commands that replay a test session the same way
/// every time. One JSON object per line, a control command with the second it happens at:
///
///     # warm up, record five seconds, flip the mirror mid-take, quit
///     {"at": 1.0, "cmd": "record"}
///     {"at": 3.5, "cmd": "mirror"}
///     {"at": 6.0, "cmd": "stop"}
///     {"at": 7.0, "cmd": "quit"}
///
/// `at` counts from the moment the capture graph is running. Lines starting with `#` and blank lines are
/// ignored. Times must not go backwards.
///
/// Thread: value type, Sendable; parsed at start-up.
public struct Timeline: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let at: Double
        public let command: ControlCommand
        public init(at: Double, command: ControlCommand) { self.at = at; self.command = command }
    }

    public let entries: [Entry]

    public static let maximumBytes = 1024 * 1024

    public static func load(path: String) throws(DuoError) -> Timeline {
        let fm = FileManager.default
        try InputFile.requireRegular(path, .text("timeline"), hint: .text("give a file of {\"at\": SECONDS, \"cmd\": …} lines"))
        let size = ((try? fm.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        guard size <= maximumBytes else {
            throw .input(.text("timeline %s is larger than 1 MB; a timeline holds commands, one per line", path))
        }
        guard let data = fm.contents(atPath: path) else { throw .input(.text("timeline %s cannot be read; check its permissions", path)) }
        guard let text = String(data: data, encoding: .utf8) else { throw .input(.text("timeline %s is not UTF-8 text", path)) }
        return try parse(text, name: path)
    }

    public static func parse(_ text: String, name: String) throws(DuoError) -> Timeline {
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let where_ = Said.text("timeline %s line %s", name, index + 1)
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw .input(.text("%s: not a JSON object; write {\"at\": 1.5, \"cmd\": \"record\"}", where_))
            }
            guard let at = StrictJSON.double(object["at"]), at >= 0, at <= 86_400 else {
                throw .input(.text("%s: \"at\" must be seconds from 0 to 86400, such as {\"at\": 1.5, \"cmd\": \"record\"}", where_))
            }
            let command: ControlCommand
            do { command = try ControlCommand.parse(line) } catch {
                // A control line's error starts "control: " in every language (the catalogue keeps it).
                let said = Said(english: error.english.replacingOccurrences(of: "control: ", with: ""),
                                text: error.message.replacingOccurrences(of: "control: ", with: ""))
                throw .input(.text("%s: %s", where_, said))
            }
            if let last = entries.last, at < last.at {
                throw .input(.text("%s: at %s s comes before the line above (%s s); keep the lines in time order", where_, at, last.at))
            }
            entries.append(Entry(at: at, command: command))
        }
        guard !entries.isEmpty else { throw .input(.text("timeline %s has no commands; write one {\"at\": SECONDS, \"cmd\": …} per line", name)) }
        return Timeline(entries: entries)
    }
}
