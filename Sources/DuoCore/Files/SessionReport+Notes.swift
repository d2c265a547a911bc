import Foundation

//  The report's session sheet (issue 39): every note and flag, grouped by code and by take, each with a
//  link that plays its take from that time; the session's notes (made between takes) too.

extension SessionReport {
    /// One note as the sheet lists it: the note, and its take's file (nil: the session's).
    struct SheetNote {
        var note: TakeNote
        var file: String?
    }

    static func sheetNotes(_ takes: [Take], session: [TakeNote]) -> [SheetNote] {
        session.map { SheetNote(note: $0, file: nil) }
            + takes.flatMap { t in (t.sidecar?.notes ?? []).map { SheetNote(note: $0, file: (t.file as NSString).lastPathComponent) } }
    }

    static let notesStyle = """
        .notes { background: #fff; border-radius: 6px; padding: 12px 16px; margin-bottom: 20px; }
        .notes h2 { font-size: 17px; margin: 0 0 6px; } .notes h3 { font-size: 15px; margin: 10px 0 4px; }
        .notes li { margin: 2px 0; } .code { font-weight: bold; padding: 0 6px; border-radius: 3px; background: #eee; }

        """

    /// The session sheet: notes by code, then by take (nil when the session has none).
    static func notesSection(_ takes: [Take], session: [TakeNote]) -> String {
        let all = sheetNotes(takes, session: session)
        guard !all.isEmpty else { return "" }
        func item(_ s: SheetNote) -> String {
            let n = s.note
            let text = n.text.isEmpty ? "" : " " + escape(n.text)
            let shot = n.shot.map { " · " + escape(tr("shot %s", $0)) } ?? ""
            guard let file = s.file, let at = n.atSeconds else {
                return "<li><span class=\"code\">\(escape(n.code))</span>\(text) · " + escape(tr("between takes")) + "\(shot) · \(escape(n.wall))</li>"
            }
            let link = "\(escape(file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file))#t=\(String(format: "%.3f", at))"
            return "<li><span class=\"code\">\(escape(n.code))</span>\(text) · <a href=\"\(link)\">" + escape(tr("take %1$d at %2$s", n.take ?? 0, clock(at))) + "</a>\(shot) · \(escape(n.wall))</li>"
        }
        var s = "<div class=\"notes\" id=\"notes\"><h2>" + escape(tr("Notes and flags (%d)", all.count)) + "</h2>\n"
        var codes: [String] = []
        for n in all where !codes.contains(n.note.code) { codes.append(n.note.code) }
        s += "<div class=\"by-code\"><div class=\"facts\">" + escape(tr("by code")) + "</div>"
        for code in codes {
            let these = all.filter { $0.note.code == code }
            s += "<h3>\(escape(code)) (\(these.count))</h3><ul>" + these.map(item).joined() + "</ul>\n"
        }
        s += "</div><div class=\"by-take\"><div class=\"facts\">" + escape(tr("by take")) + "</div>"
        let sessionOnes = all.filter { $0.file == nil }
        if !sessionOnes.isEmpty { s += "<h3>" + escape(tr("Between takes (%d)", sessionOnes.count)) + "</h3><ul>" + sessionOnes.map(item).joined() + "</ul>\n" }
        for t in takes {
            guard let sc = t.sidecar, let notes = sc.notes, !notes.isEmpty else { continue }
            let file = (t.file as NSString).lastPathComponent
            s += "<h3>" + escape(tr("Take %1$d · %2$s (%3$d)", sc.take, file, notes.count)) + "</h3><ul>" + notes.map { item(SheetNote(note: $0, file: file)) }.joined() + "</ul>\n"
        }
        return s + "</div></div>\n"
    }

    /// The session sheet's replays (`--replay`, save-replay): each file with its wall-clock span, its
    /// length and the notes made in it (nil when the session saved none).
    static func replaysSection(_ takes: [Take]) -> String {
        let replays = takes.filter { $0.sidecar?.replay != nil }
        guard !replays.isEmpty else { return "" }
        var s = "<div class=\"notes\" id=\"replays\"><h2>" + escape(tr("Replays (%d)", replays.count)) + "</h2><ul>"
        for t in replays {
            guard let sc = t.sidecar, let replay = sc.replay else { continue }
            let file = (t.file as NSString).lastPathComponent
            let link = escape(file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file)
            let notes = replay.notes?.count ?? 0
            s += "<li><a href=\"\(link)\">" + escape(tr("Replay %d", sc.take)) + "</a> · " + escape(file) + " · "
                + escape(tr("%1$s to %2$s", replay.spanStart, replay.spanEnd)) + " · " + escape(clock(t.seconds))
                + (sc.shot.map { " · " + escape(tr("shot %s", $0)) } ?? "")
                + " · " + escape(trn("%d note or flag in its span", "%d notes or flags in its span", notes, notes)) + "</li>"
        }
        return s + "</ul></div>\n"
    }

    /// `report --json`'s notes: each with its take's file (null: the session's), and a count per code.
    static func notesJSON(_ takes: [Take], session: [TakeNote]) -> [String: Any] {
        let all = sheetNotes(takes, session: session)
        var byCode: [String: Int] = [:]
        for n in all { byCode[n.note.code, default: 0] += 1 }
        let list: [[String: Any]] = all.map { s in
            let n = s.note
            return ["kind": n.kind, "code": n.code, "text": n.text, "take": n.take ?? NSNull(), "atSeconds": n.atSeconds ?? NSNull(),
                    "wall": n.wall, "shot": n.shot ?? NSNull(), "file": s.file ?? NSNull()]
        }
        return ["list": list, "byCode": byCode]
    }
}
