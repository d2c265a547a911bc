import Foundation

/// The events a run writes (`--events`, the control socket), as `docs/events.md` documents them: each
/// event's name and its exact fields. Tests hold every written line against it.
///
/// Thread: value type, Sendable; pure.
public struct EventSchema: Sendable, Equatable {
    /// Fields every event carries besides its own.
    public static let common: Set<String> = ["event", "v", "t"]

    /// Event name → its own fields.
    public let events: [String: Set<String>]

    /// Reads the table rows of the document: ``| `name` | `field`, `field` | when |``.
    public static func parse(markdown: String) -> EventSchema {
        var events: [String: Set<String>] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let fields = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }
            events[name] = Set(fields.filter { !$0.isEmpty })
        }
        return EventSchema(events: events)
    }

    /// What is wrong with one written event line: nil when it is documented with exactly these fields.
    public func violation(_ line: String) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            return "not a JSON object: \(line)"
        }
        guard let name = object["event"] as? String else { return "no event name: \(line)" }
        guard let documented = events[name] else { return "event \(name) is not documented: \(line)" }
        let fields = Set(object.keys).subtracting(Self.common)
        if fields != documented {
            return "event \(name) has fields \(fields.sorted()), documented \(documented.sorted())"
        }
        if object["v"] as? Int != 1 { return "event \(name) lacks \"v\": 1" }
        return nil
    }
}
