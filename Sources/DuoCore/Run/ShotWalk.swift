/// The run's walk through its shot list: the current shot, moving to the next or previous one, each
/// shot's takes (numbered within the shot) and their marks, and a reload of the list that keeps the
/// current shot by id. Facts in (commands, takes that began), decisions out; the run director carries
/// them out (events, the HUD, the subject view, sidecars).
///
/// Thread: value type; owned by the run director's actor.
public struct ShotWalk: Sendable, Equatable {
    /// What the operator said of a take.
    public enum Mark: String, Sendable, Equatable, Codable { case good, noGood = "no-good" }

    /// One take recorded for a shot.
    ///
    /// Thread: value type, Sendable.
    public struct Take: Sendable, Equatable, Codable {
        /// The run's take number (the director's, the schedule's).
        public let take: Int
        public let shot: String
        /// 1, 2, … within the shot.
        public let shotTake: Int
        public var mark: Mark?
        /// The take's file, once known.
        public var file: String?
        /// The script on screen when it began, and the reading position then (its unit): where a re-take
        /// of the shot starts the teleprompter.
        public var script: String?
        public var scriptStart: Double?
    }

    public private(set) var list: ShotList
    public private(set) var index = 0
    /// Every take of this run, in the order they began.
    public private(set) var takes: [Take] = []
    /// The highest take number of each shot (by id) that earlier sessions left in the record folder: this
    /// session numbers on after them, so a folder never holds two "take 1" of one shot.
    public var earlier: [String: Int] = [:]

    public init(list: ShotList) { self.list = list }

    public var current: ShotList.Shot { list.shots[index] }
    public var next: ShotList.Shot? { index + 1 < list.shots.count ? list.shots[index + 1] : nil }

    public func takes(of id: String) -> [Take] { takes.filter { $0.shot == id } }

    /// What moving said: the shot now current, or why not.
    public enum Move: Sendable, Equatable {
        case moved(ShotList.Shot)
        case refuse(String)
    }

    public mutating func step(forward: Bool) -> Move {
        let target = index + (forward ? 1 : -1)
        guard list.shots.indices.contains(target) else {
            return .refuse(forward ? "shot \(current.id) is the last in the list" : "shot \(current.id) is the first in the list")
        }
        index = target
        return .moved(current)
    }

    /// Goes to shot `id`.
    public mutating func go(to id: String) -> Move {
        guard let i = list.index(of: id) else {
            return .refuse("no shot \(id) in the list; use one of \(list.shots.map(\.id).joined(separator: ", "))")
        }
        index = i
        return .moved(current)
    }

    /// A take began for the current shot (the teleprompter at `place`): its number within the shot.
    public mutating func takeBegan(_ take: Int, place: ScriptPlace? = nil) -> Take {
        let t = Take(take: take, shot: current.id, shotTake: nextShotTake, script: place?.script, scriptStart: place?.position)
        takes.append(t)
        return t
    }

    /// Where the teleprompter goes before a take of the current shot.
    public enum Rewind: Sendable, Equatable {
        /// It stays where it is (the shot's first take, with no `heading:`).
        case stay
        case to(Double)
        /// The shot's `heading:` is not a heading of the script on screen: it stays, and the operator hears why.
        case headingMissing(String)
    }

    /// A take of the current shot is about to count down or begin with `script` on screen, whose headings
    /// are at `headings`: the shot's `heading:` when it names one, else where the shot's first take in that
    /// script began (a re-take, the shot recorded again), else it stays.
    public func rewind(script: String, headings: [(title: String, position: Double)]) -> Rewind {
        if let wanted = current.heading {
            func key(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased() }
            guard let found = headings.first(where: { key($0.title) == key(wanted) }) else { return .headingMissing(wanted) }
            return .to(found.position)
        }
        guard let first = takes.first(where: { $0.shot == current.id && $0.script == script && $0.scriptStart != nil }) else { return .stay }
        return .to(first.scriptStart!)
    }

    /// A session taken up again (`--resume`): its takes, and its current shot by id (one no longer in the
    /// list falls to the first; the notice says so).
    public mutating func resume(shot id: String, takes restored: [Take]) -> String? {
        takes = restored
        if let i = list.index(of: id) { index = i; return nil }
        index = 0
        return "shot \(id) is no longer in the shot list; resuming at shot \(current.id) (\(current.title))"
    }

    /// The number the current shot's next take will have.
    public var nextShotTake: Int { max(takes(of: current.id).map(\.shotTake).max() ?? 0, earlier[current.id] ?? 0) + 1 }

    public mutating func setFile(_ file: String, take: Int) {
        if let i = takes.firstIndex(where: { $0.take == take }) { takes[i].file = file }
    }

    /// Marks the most recent take (recording or ended), or take `take`: the take marked, or why not.
    public mutating func mark(_ mark: Mark, take: Int? = nil) -> Result<Take, MarkRefusal> {
        guard let i = take.map({ t in takes.firstIndex { $0.take == t } }) ?? takes.indices.last else {
            return .failure(MarkRefusal(message: take.map { "no take \($0) in this run" } ?? "no take has been recorded yet; record one first"))
        }
        takes[i].mark = mark
        return .success(takes[i])
    }

    /// Why a mark was refused.
    public struct MarkRefusal: Error, Sendable, Equatable { public let message: String }

    /// A take of the current shot that a re-take replaces: the latest one, when it has no mark yet.
    public var retakeReplaces: Take? {
        guard let last = takes.last(where: { $0.shot == current.id }), last.mark == nil else { return nil }
        return last
    }

    /// The list was saved again: the current shot is kept by id; when it was removed, the walk falls to
    /// the next shot of the old list that is still there (else the last), and says so.
    public mutating func reload(_ newList: ShotList) -> String? {
        let old = list, oldIndex = index, id = current.id
        list = newList
        if let i = newList.index(of: id) { index = i; return nil }
        let following = old.shots[(oldIndex + 1)...].compactMap { newList.index(of: $0.id) }.first
        index = following ?? newList.shots.count - 1
        return "shot \(id) is no longer in the shot list; now at shot \(current.id) (\(current.title))"
    }

    /// Shots of the list in order, each with its takes, the good ones first: the report's grouping.
    public static func grouped<T>(_ items: [T], shots: [String], shot: (T) -> String?, isGood: (T) -> Bool) -> [(shot: String?, items: [T])] {
        var groups: [(shot: String?, items: [T])] = shots.map { ($0, []) }
        for item in items {
            if let s = shot(item), let i = groups.firstIndex(where: { $0.shot == s }) { groups[i].items.append(item) }
            else if let s = shot(item) { groups.append((s, [item])) }
            else if let i = groups.firstIndex(where: { $0.shot == nil }) { groups[i].items.append(item) }
            else { groups.append((nil, [item])) }
        }
        return groups.map { g in (g.shot, g.items.filter(isGood) + g.items.filter { !isGood($0) }) }
    }
}
