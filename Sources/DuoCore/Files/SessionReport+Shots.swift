import Foundation

/// The report of a session recorded with a shot list (`--shots`): takes grouped by shot in the list's
/// order, each shot's good takes first, shots without a good take marked, shots never recorded listed;
/// as HTML sections and as JSON (`report --json`).
///
/// Thread: pure; builds values and strings.
extension SessionReport {
    /// One shot of the report: its takes (good first), whether one is good, whether it was recorded.
    ///
    /// Thread: value type, Sendable.
    public struct ShotGroup: Sendable {
        /// nil: takes recorded without a shot.
        public let id: String?
        public let title: String?
        public let takes: [Take]
        public var recorded: Bool { !takes.isEmpty }
        public var hasGoodTake: Bool { takes.contains { $0.sidecar?.mark == ShotWalk.Mark.good.rawValue } }
    }

    /// Groups `takes` by their sidecars' shots: the list's shots first, in its order (also those never
    /// recorded), then shots the list no longer has, then takes with no shot.
    public static func shotGroups(_ takes: [Take], list: ShotList?) -> [ShotGroup] {
        let ids = list?.shots.map(\.id) ?? []
        let groups = ShotWalk.grouped(takes, shots: ids, shot: { $0.sidecar?.shot },
                                      isGood: { $0.sidecar?.mark == ShotWalk.Mark.good.rawValue })
        return groups.map { g in
            let title = g.shot.flatMap { id in list?.shots.first { $0.id == id }?.title }
            // Within a shot (after the good ones first), takes in the order they were recorded.
            func order(_ a: Take, _ b: Take) -> Bool { (a.sidecar?.shotTake ?? 0, a.file) < (b.sidecar?.shotTake ?? 0, b.file) }
            let good = g.items.filter { $0.sidecar?.mark == ShotWalk.Mark.good.rawValue }.sorted(by: order)
            let rest = g.items.filter { $0.sidecar?.mark != ShotWalk.Mark.good.rawValue }.sorted(by: order)
            return ShotGroup(id: g.shot, title: title, takes: good + rest)
        }
    }

    /// The shot's script lines (1-based numbers) read in none of its good takes, or, when it has no
    /// good take, in none of its takes; nil when no take of the shot has a script review (issue 38).
    public static func linesMissing(_ g: ShotGroup) -> (lines: [Int], texts: [String], fromGoodTakes: Bool, total: Int)? {
        let reviewed = g.takes.filter { $0.sidecar?.review != nil }
        guard let longest = reviewed.compactMap({ $0.sidecar?.review?.lines }).max(by: { $0.count < $1.count }) else { return nil }
        let good = reviewed.filter { $0.sidecar?.mark == ShotWalk.Mark.good.rawValue }
        let pool = good.isEmpty ? reviewed : good
        var missing: [Int] = []
        for i in longest.indices {
            let read = pool.contains { t in
                guard let lines = t.sidecar?.review?.lines, i < lines.count else { return false }
                return lines[i].state != .skipped
            }
            if !read { missing.append(i) }
        }
        return (missing.map { $0 + 1 }, missing.map { longest[$0].text }, !good.isEmpty, longest.count)
    }

    /// The shot's script summary as one HTML line ("line 14 read in no good take"); "" without reviews.
    static func scriptSummary(_ g: ShotGroup) -> String {
        guard let m = linesMissing(g) else { return "" }
        if m.lines.isEmpty {
            return "<div class=\"facts script-summary\">" + escape(m.fromGoodTakes ? tr("every script line is read in a good take")
                                                                                      : tr("every script line is read in some take; none is marked good")) + "</div>\n"
        }
        let shown = zip(m.lines, m.texts).prefix(12).map { n, text -> String in
            let short = text.count > 48 ? String(text.prefix(47)) + "…" : text
            return tr("%1$d (“%2$s”)", n, short)
        }.joined(separator: "; ") + (m.lines.count > 12 ? "; …" : "")
        let head = m.fromGoodTakes
            ? trn("line %s read in no good take", "lines %s read in no good take", m.lines.count, m.lines.map(String.init).joined(separator: ", "))
            : trn("line %s read in no take", "lines %s read in no take", m.lines.count, m.lines.map(String.init).joined(separator: ", "))
        return "<div class=\"facts script-summary missing\">" + escape(head) + ": " + escape(shown) + "</div>\n"
    }

    /// Whether the folder was recorded with shots: any take's sidecar names one, or a list was given.
    public static func usesShots(_ takes: [Take], list: ShotList?) -> Bool {
        list != nil || takes.contains { $0.sidecar?.shot != nil }
    }

    /// `report --json`: the session's shots and takes, for scripts.
    public static func json(folder: String, takes: [Take], list: ShotList?, sessionNotes: [TakeNote] = []) -> String {
        func take(_ t: Take) -> [String: Any] {
            ["file": (t.file as NSString).lastPathComponent, "take": t.sidecar?.take ?? NSNull(),
             "shotTake": t.sidecar?.shotTake ?? NSNull(), "mark": t.sidecar?.mark ?? NSNull(),
             "seconds": t.seconds.isFinite ? (t.seconds * 1000).rounded() / 1000 : 0, "frames": t.frames,
             "damaged": t.damage ?? NSNull(), "sidecarDamaged": t.sidecarDamage ?? NSNull(),
             // A replay (--replay, save-replay): its wall-clock span; null for a take.
             "replay": t.sidecar?.replay.map { ["start": $0.spanStart, "end": $0.spanEnd] } ?? NSNull()]
        }
        let groups = shotGroups(takes, list: list)
        var object: [String: Any] = ["folder": folder, "takes": takes.count]
        object["notes"] = notesJSON(takes, session: sessionNotes)
        if usesShots(takes, list: list) {
            object["shots"] = groups.filter { $0.id != nil }.map { g -> [String: Any] in
                ["id": g.id!, "title": g.title ?? NSNull(), "recorded": g.recorded, "goodTake": g.hasGoodTake,
                 "inList": list?.index(of: g.id!) != nil, "takes": g.takes.map(take),
                 // Script lines (1-based) no good take read; every line while the shot has no good take.
                 "linesReadInNoGoodTake": linesMissing(g).map { $0.fromGoodTakes ? $0.lines : (0..<$0.total).map { $0 + 1 } } ?? NSNull()]
            }
            object["neverRecorded"] = groups.filter { $0.id != nil && !$0.recorded }.map { $0.id! }
            object["withoutGoodTake"] = groups.filter { $0.id != nil && $0.recorded && !$0.hasGoodTake }.map { $0.id! }
            object["withoutShot"] = (groups.first { $0.id == nil }?.takes ?? []).map(take)
        } else {
            object["takeList"] = takes.map(take)
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The HTML sections of a session with shots: a heading per shot (with "no good take" or "never
    /// recorded"), then its takes, good first.
    static func shotSections(_ takes: [Take], list: ShotList?) -> String {
        var page = ""
        for g in shotGroups(takes, list: list) {
            let name = g.id.map { id in g.title.map { tr("Shot %1$s — %2$s", id, $0) } ?? tr("Shot %s", id) } ?? tr("Takes without a shot")
            var badge = ""
            if g.id != nil {
                if !g.recorded { badge = "<span class=\"badge never\">" + escape(tr("never recorded")) + "</span>" }
                else if !g.hasGoodTake { badge = "<span class=\"badge nogood\">" + escape(tr("no good take")) + "</span>" }
                else { badge = "<span class=\"badge good\">" + escape(tr("good take")) + "</span>" }
            }
            page += "<div class=\"shot\"><h2 class=\"shot-title\">\(escape(name))\(badge.isEmpty ? "" : " · " + badge)</h2>\n"
            if !g.recorded { page += "<div class=\"facts\">" + escape(tr("no take was recorded for this shot")) + "</div>\n" }
            if g.id != nil { page += scriptSummary(g) }
            for take in g.takes { page += section(take) }
            page += "</div>\n"
        }
        return page
    }

    static let shotStyle = """
        .shot { border-left: 6px solid #888; padding-left: 12px; margin-bottom: 26px; }
        .shot-title { font-size: 20px; margin: 0 0 10px; }
        .badge { font-size: 18px; margin-left: 6px; }
        .badge.good { color: #1b7f2a; } .badge.nogood { color: #d00000; } .badge.never { color: #444; }
        .script-summary.missing { color: #b00; }
        .mark { font-weight: bold; } .mark.good { color: #1b7f2a; } .mark.no-good { color: #d00000; }

        """
}
