/// The talent's clock on the subject view (`--talent-clock`, issue 37): any of the wall clock, the take's
/// count-up and the time to the shot's target (`length:` in the shot list), in the column beside the
/// reading line across from the recording light. Off by default (today's subject view).
///
/// `--talent-clock off|clock|count-up|target|all`, or a comma list in the order the rows are wanted
/// (`--talent-clock target,clock`). Numbers only reach the subject: the clock's time, the take's seconds
/// and the shot's length.
///
/// Thread: value type, Sendable; pure.
public struct TalentClock: Sendable, Hashable {
    public enum Item: String, Sendable, Hashable, CaseIterable {
        case clock
        case countUp = "count-up"
        case target
    }

    /// The rows, top to bottom; empty: off.
    public let items: [Item]

    public static let off = TalentClock(items: [])
    public var isOff: Bool { items.isEmpty }

    public init(items: [Item]) {
        var seen: [Item] = []
        for item in items where !seen.contains(item) { seen.append(item) }
        self.items = seen
    }

    /// `off`, `all`, one item or a comma list of them (each at most once), as the command line and the
    /// settings file's `talent-clock=` give it.
    public static func parse(_ text: String) throws(DuoError) -> TalentClock {
        let words = text.lowercased().split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: " ") }
        let names = Item.allCases.map(\.rawValue).joined(separator: ", ")
        if words == ["off"] || words == ["none"] { return .off }
        if words == ["all"] { return TalentClock(items: Item.allCases) }
        var items: [Item] = []
        for word in words {
            guard let item = Item(rawValue: word) else {
                throw .usage(Suggestion.adding(
                    to: tr("unknown --talent-clock '%s'; use off, all, or one or more of %s separated by commas (such as --talent-clock clock,target)",
                           TerminalText.escaped(word, limit: 60), names),
                    for: word, among: ["off", "all"] + Item.allCases.map(\.rawValue)))
            }
            guard !items.contains(item) else {
                throw .usage(tr("--talent-clock names %s twice; give each of %s at most once", word, names))
            }
            items.append(item)
        }
        return TalentClock(items: items)
    }

    /// The name as `--print-config` and the help say it.
    public var description: String { isOff ? "off" : items.map(\.rawValue).joined(separator: ",") }

    /// One row of the clock: what it says and whether it says it in the warning colour.
    public struct Row: Sendable, Hashable {
        public let item: Item
        public let text: String
        /// Past the shot's target: "+0:12", in the warning colour.
        public let over: Bool
    }

    /// The rows at one moment. `wallSeconds`: seconds since local midnight (nil: unknown, no clock row);
    /// `elapsed`: the take's whole seconds while one records (nil: none, no count-up row; the target's
    /// row then shows the whole length to go); `length`: the shot's `length:` in seconds (nil: no target
    /// row).
    public func rows(wallSeconds: Int?, elapsed: Int?, length: Double?) -> [Row] {
        items.compactMap { item in
            switch item {
            case .clock:
                guard let s = wallSeconds else { return nil }
                let day = ((s % 86_400) + 86_400) % 86_400
                return Row(item: item, text: "\(day / 3600 < 10 ? "0" : "")\(day / 3600):\(Self.two(day / 60 % 60))", over: false)
            case .countUp:
                guard let elapsed else { return nil }
                return Row(item: item, text: Self.minutes(elapsed), over: false)
            case .target:
                guard let length, length > 0 else { return nil }
                let target = Int(length.rounded(.up))
                let left = target - (elapsed ?? 0)
                if left < 0 { return Row(item: item, text: "+" + Self.minutes(-left), over: true) }
                return Row(item: item, text: left == 0 ? Self.minutes(0) : "-" + Self.minutes(left), over: false)
            }
        }
    }

    /// The widest text a row can have (sizes the column): "+59:59" for the count-up and the target,
    /// "00:00" for the clock.
    public static let widestText = "+00:00"

    /// "m:ss", or "h:mm:ss" from an hour on.
    static func minutes(_ seconds: Int) -> String {
        seconds >= 3600 ? "\(seconds / 3600):\(two(seconds / 60 % 60)):\(two(seconds % 60))" : "\(seconds / 60):\(two(seconds % 60))"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
