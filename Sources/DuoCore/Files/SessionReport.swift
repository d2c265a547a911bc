import Foundation

/// `duo-capture report DIR`: one self-contained HTML page for a folder of takes (images inline, no
/// network): the session's totals at the top; per take a strip of thumbnails, its length and format, a
/// timeline of what happened in it (countdown, markers passed, swaps, cameras lost and back, dropped
/// frames) and a plot of its audio level. A take that does not decode is listed as damaged, with why.
///
/// Thread: pure; builds a string.
public enum SessionReport {
    /// One take as the report needs it: its sidecar (when there is one) and what its file holds.
    public struct Take: Sendable {
        public var file: String
        public var sidecar: TakeSidecar?
        public var thumbnails: [Data]
        /// The screen track's thumbnails (`--screen`), shown under the camera's; empty without one.
        public var screenThumbnails: [Data] = []
        /// Seconds into the take and RMS level in dBFS.
        public var levels: [(seconds: Double, rmsDB: Double)]
        public var seconds: Double
        public var frames: Int64
        public var width: Int?
        public var height: Int?
        public var damage: String?
        /// Why the take's sidecar was left out (a value no take can have); the take itself is still shown.
        /// In English (`report --json` says it); `sidecarDamageShown` is the same in the operator's language.
        public var sidecarDamage: String?
        public var sidecarDamageShown: String?
        /// `sidecar` is checked first: one with a value no take can have (a file a user edited or a disk
        /// damaged) is left out, and `sidecarDamage` says why.
        public init(file: String, sidecar: TakeSidecar?, thumbnails: [Data], levels: [(seconds: Double, rmsDB: Double)],
                    seconds: Double, frames: Int64, width: Int?, height: Int?, damage: String?) {
            self.file = file; self.thumbnails = thumbnails; self.levels = levels
            self.seconds = seconds; self.frames = frames; self.width = width; self.height = height; self.damage = damage
            if let sidecar, let why = SessionReport.sidecarDamage(sidecar) {
                self.sidecar = nil
                self.sidecarDamage = why
                self.sidecarDamageShown = SessionReport.sidecarDamage(sidecar, in: Translation.operatorLanguage)
            } else {
                self.sidecar = sidecar
            }
        }
    }

    /// The page's `lang`: the operator's language as HTML writes it (`zh-CN`), `en` for English.
    static var htmlLanguage: String {
        let language = Translation.operatorLanguage
        return language.isEnglish ? "en" : LanguageTag.html(language.language)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The longest time a sidecar may name: a year. Anything longer (or negative, or not a number) was
    /// not written by duo-capture.
    static let longestSeconds = 366.0 * 86_400
    /// The most frames a sidecar may count: a year at 1000 fps is 3.2e10; this leaves room and keeps any
    /// sum of a session's takes far from Int64's end.
    static let mostFrames: Int64 = 1_000_000_000_000

    /// Why a sidecar cannot be believed, or nil: the first time that no take has (a marker at 1e300 s, a
    /// swap before the take began) or count that no take reaches. The report never does arithmetic that
    /// could trap on a sidecar that passed this.
    /// In `language` (English unless given: `report --json` says it as written).
    public static func sidecarDamage(_ sc: TakeSidecar, in language: Translator = .english) -> String? {
        let t = language
        func bad(_ t: Double) -> Bool { !t.isFinite || t < 0 || t > longestSeconds }
        func badCount(_ n: Int64?) -> Bool { n.map { $0 < 0 || $0 > mostFrames } ?? false }
        func time(_ t: Double) -> String { t.isFinite ? "\(t) s" : "\(t)" }
        if let m = sc.markersPassed.first(where: { bad($0.atSeconds) }) {
            return t.text("its marker \"%1$s\" is at %2$s, outside any take", [m.title, time(m.atSeconds)])
        }
        if let w = sc.swaps.first(where: { bad($0.atSeconds) }) {
            return t.text("its swap to %1$s is at %2$s, outside any take", [w.to, time(w.atSeconds)])
        }
        if let i = sc.interruptions?.first(where: { bad($0.atSeconds) }) {
            return t.text("its %1$s %2$s is at %3$s, outside any take", [i.device, i.what, time(i.atSeconds)])
        }
        if let n = sc.notes?.first(where: { $0.atSeconds.map(bad) ?? false }) {
            return t.text("its %1$s \"%2$s\" is at %3$s, outside any take", [n.kind, n.title, time(n.atSeconds ?? 0)])
        }
        if badCount(sc.droppedFrames) { return t.text("its droppedFrames %s is more than any take holds", [sc.droppedFrames ?? 0]) }
        if badCount(sc.frames) { return t.text("its frames %s is more than any take holds", [sc.frames ?? 0]) }
        if badCount(sc.audio?.buffers) { return t.text("its audio buffers %s are more than any take holds", [sc.audio?.buffers ?? 0]) }
        if let d = sc.durationSeconds, bad(d) { return t.text("its durationSeconds %s is no take's length", [time(d)]) }
        if sc.countdownSeconds < 0 || Double(sc.countdownSeconds) > longestSeconds {
            return t.text("its countdownSeconds %s is no countdown's length", [sc.countdownSeconds])
        }
        return nil
    }

    /// Adds without trapping: a sum past Int64's end stays at its end.
    static func saturatingSum(_ values: [Int64]) -> Int64 {
        values.reduce(0) { total, n in
            let (sum, overflow) = total.addingReportingOverflow(n)
            return overflow ? (n < 0 ? .min : .max) : sum
        }
    }

    /// m:ss for any number: NaN and negatives are 0:00, and times beyond a year are clamped there (the
    /// conversion to Int would trap past Int's range).
    static func clock(_ seconds: Double) -> String {
        let s = seconds.isFinite ? Int(min(max(seconds, 0), longestSeconds).rounded()) : 0
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    /// `list`: the shot list the session was recorded with (`--shots`): takes are grouped by its shots.
    /// `sessionNotes`: the notes made between takes (the session notes file).
    public static func html(folder: String, takes: [Take], generated: Date = Date(), list: ShotList? = nil,
                            sessionNotes: [TakeNote] = []) -> String {
        let damaged = takes.filter { $0.damage != nil }.count
        let total = takes.filter { $0.damage == nil }.reduce(0) { $0 + $1.seconds }
        let dropped = saturatingSum(takes.compactMap { $0.sidecar?.droppedFrames })
        let swaps = saturatingSum(takes.compactMap { $0.sidecar.map { Int64($0.swaps.count) } })
        let losses = saturatingSum(takes.compactMap { $0.sidecar?.interruptions.map { Int64($0.filter { $0.what == "lost" }.count) } })
        // Marked outside the literal below (xgettext reads no call inside an interpolation).
        let title = escape(tr("duo-capture session: %s", folder)), heading = escape(tr("duo-capture session"))
        let counted = escape(trn("%d take", "%d takes", takes.count, takes.count)), made = escape(tr("report made %s", TakeSidecar.timestamp(generated)))
        let labels = [tr("takes"), tr("recorded"), tr("damaged"), tr("dropped frames"), tr("swaps"), tr("cameras lost")].map(escape)
        var page = """
            <!DOCTYPE html>
            <html lang="\(htmlLanguage)"><head><meta charset="utf-8"><title>\(title)</title>
            <style>
            body { font: 15px/1.4 "DejaVu Sans", sans-serif; background: #f4f4f2; color: #222; margin: 24px; }
            h1 { font-size: 22px; margin: 0 0 4px; } .sub { color: #666; margin-bottom: 16px; }
            .totals { display: flex; gap: 24px; background: #fff; padding: 12px 16px; border-radius: 6px; margin-bottom: 20px; }
            .totals b { display: block; font-size: 20px; }
            .take { background: #fff; border-radius: 6px; padding: 14px 16px; margin-bottom: 18px; }
            .take h2 { font-size: 17px; margin: 0 0 6px; } .facts { color: #555; margin-bottom: 8px; }
            .strip { display: flex; gap: 4px; margin: 8px 0; } .strip img { width: 160px; border: 1px solid #ccc; }
            .damaged { background: #d00000; color: #fff; padding: 10px 14px; border-radius: 4px; font-weight: bold; }
            .legend span { margin-right: 14px; font-size: 13px; }
            \(shotStyle)\(notesStyle)</style></head><body>
            <h1>\(heading)</h1>
            <div class="sub">\(escape(folder)) · \(counted) · \(made)</div>
            <div class="totals"><div><b>\(takes.count)</b>\(labels[0])</div><div><b>\(clock(total))</b>\(labels[1])</div>
            <div><b>\(damaged)</b>\(labels[2])</div><div><b>\(dropped)</b>\(labels[3])</div><div><b>\(swaps)</b>\(labels[4])</div>
            <div><b>\(losses)</b>\(labels[5])</div></div>

            """
        page += notesSection(takes, session: sessionNotes) + replaysSection(takes)
        if usesShots(takes, list: list) { page += shotSections(takes, list: list) } else { for take in takes { page += section(take) } }
        if takes.contains(where: { $0.sidecar?.review != nil }) { page += reviewScript }
        page += "</body></html>\n"
        return page
    }

    static func section(_ take: Take) -> String {
        let name = (take.file as NSString).lastPathComponent
        var heading = escape(take.sidecar.map { tr("Take %d", $0.take) } ?? tr("Take"))
        if let sc = take.sidecar, let shot = sc.shot, sc.replay == nil {
            heading = escape(tr("Shot %1$s take %2$d", shot, sc.shotTake ?? 0))
            if let mark = sc.mark { heading += " <span class=\"mark \(escape(mark))\">" + escape(mark == "good" ? tr("GOOD") : tr("NO GOOD")) + "</span>" }
        }
        // A replay is no take of its shot (it has no shot take number, no mark): its span says what it is.
        if let sc = take.sidecar, let replay = sc.replay {
            heading = escape(tr("Replay %1$d (%2$s to %3$s)", sc.take, replay.spanStart, replay.spanEnd))
        }
        var s = "<div class=\"take\">\n<h2>\(heading) · \(escape(name))</h2>\n"
        if let why = take.sidecarDamage {
            s += "<div class=\"damaged\">" + escape(tr("sidecar damaged: %s; its events are left out", take.sidecarDamageShown ?? why)) + "</div>\n"
        }
        if let damage = take.damage {
            s += "<div class=\"damaged\">" + escape(tr("damaged: %s", damage)) + "</div>\n</div>\n"
            return s
        }
        var facts = [clock(take.seconds), trn("%d frame", "%d frames", Int(clamping: take.frames), take.frames)]
        if let w = take.width, let h = take.height { facts.append("\(w)x\(h)") }
        if let sc = take.sidecar {
            facts.append(sc.format)
            facts.append(sc.cameras.map(\.label).joined(separator: ", "))
            if let audio = sc.audio { facts.append(tr("sound: %s", audio.source)) }
            if let error = sc.error { facts.append(tr("ended by: %s", error)) }
        }
        s += "<div class=\"facts\">\(facts.map(escape).joined(separator: " · "))</div>\n<div class=\"strip\">"
        for png in take.thumbnails { s += "<img alt=\"" + escape(tr("thumbnail")) + "\" src=\"data:image/png;base64,\(png.base64EncodedString())\">" }
        s += "</div>\n" + screenStrip(take) + timeline(take) + levelPlot(take) + reviewSection(take) + "</div>\n"
        return s
    }

    /// The screen track's pictures (`--screen`) under the camera's, at the same times, with the monitor
    /// it recorded; nothing without one.
    static func screenStrip(_ take: Take) -> String {
        guard !take.screenThumbnails.isEmpty else { return "" }
        let monitor = take.sidecar?.screen.map { " · \($0.connector) \($0.width)x\($0.height)@\($0.rate)" } ?? ""
        var s = "<div class=\"facts\">" + escape(tr("screen") + monitor) + "</div>\n<div class=\"strip screen\">"
        for png in take.screenThumbnails {
            s += "<img alt=\"" + escape(tr("screen thumbnail")) + "\" src=\"data:image/png;base64,\(png.base64EncodedString())\">"
        }
        return s + "</div>\n"
    }

    /// The take's events on a line as long as the take: markers (blue), notes (brown), flags (purple),
    /// swaps (orange), a camera lost (red) and back (green); the countdown before it and the dropped
    /// frames said beside it. The legend names only the kinds the take has beyond markers.
    static func timeline(_ take: Take) -> String {
        let width = 960.0, length = max(take.seconds, 0.1)
        func x(_ t: Double) -> Double { 10 + min(max(t / length, 0), 1) * (width - 20) }
        var marks = ""
        func mark(_ t: Double, _ colour: String, _ label: String) {
            marks += "<line x1=\"\(x(t))\" y1=\"8\" x2=\"\(x(t))\" y2=\"34\" stroke=\"\(colour)\" stroke-width=\"3\"><title>\(escape(label))</title></line>"
        }
        if let sc = take.sidecar {
            for m in sc.markersPassed { mark(m.atSeconds, "#1f5fd0", tr("marker: %1$s at %2$s", m.title, clock(m.atSeconds))) }
            // A replay's notes are its own (timed from its first frame), kept apart from take notes.
            for n in (sc.notes ?? []) + (sc.replay?.notes ?? []) {
                mark(n.atSeconds ?? 0, n.kind == "flag" ? "#a000c0" : "#604000", tr("%1$s at %2$s", n.title, clock(n.atSeconds ?? 0)))
            }
            for w in sc.swaps { mark(w.atSeconds, "#e08000", tr("swap to %1$s at %2$s", w.to, clock(w.atSeconds))) }
            for i in sc.interruptions ?? [] {
                // The sidecar's words (device, "lost"/"back", the reason) are data, shown as recorded.
                let what = "\(i.device) \(i.what)\(i.reason.map { ": \($0)" } ?? "")"
                mark(i.atSeconds, i.what == "lost" ? "#d00000" : "#00a000", tr("%1$s at %2$s", what, clock(i.atSeconds)))
            }
        }
        let countdown = take.sidecar?.countdownSeconds ?? 0
        let recorded = countdown > 0 ? tr("countdown %1$d s, then %2$s recorded", countdown, clock(take.seconds)) : tr("%s recorded", clock(take.seconds))
        let dropped = take.sidecar?.droppedFrames.map { " · " + trn("%d dropped frame", "%d dropped frames", Int(clamping: $0), $0) } ?? ""
        let notes = (take.sidecar?.notes ?? []) + (take.sidecar?.replay?.notes ?? [])
        var kinds: [(colour: String, name: String)] = [("#1f5fd0", tr("markers"))]
        if notes.contains(where: { $0.kind != "flag" }) { kinds.append(("#604000", tr("notes"))) }
        if notes.contains(where: { $0.kind == "flag" }) { kinds.append(("#a000c0", tr("flags"))) }
        kinds += [("#e08000", tr("swaps")), ("#d00000", tr("camera lost")), ("#00a000", tr("back"))]
        let legend = kinds.map { "<span style=\"color:\($0.colour)\">■ \(escape($0.name))</span>" }.joined()
        return """
            <div class="legend">\(escape(recorded))\(escape(dropped)) · \(legend)</div>
            <svg class="timeline" width="\(Int(width))" height="42" viewBox="0 0 \(Int(width)) 42"><rect x="10" y="16" width="\(Int(width - 20))" height="10" fill="#bbb"/>\(marks)</svg>

            """
    }

    /// The audio level over the take (RMS, -60 to 0 dBFS), or a line saying the take has no sound.
    static func levelPlot(_ take: Take) -> String {
        guard !take.levels.isEmpty else { return "<div class=\"facts\">" + escape(tr("no sound in this take")) + "</div>\n" }
        let width = 960.0, height = 80.0, length = max(take.seconds, take.levels.last?.seconds ?? 0.1)
        let points = take.levels.map { p -> String in
            let x = 10 + p.seconds / length * (width - 20)
            // Silence is -inf (and the level element's last reading can be NaN): the floor.
            let db = p.rmsDB.isFinite ? min(max(p.rmsDB, -60), 0) : -60
            let y = height - 4 - (db + 60) / 60 * (height - 8)
            return String(format: "%.1f,%.1f", x, y)
        }.joined(separator: " ")
        let label = escape(tr("audio level (RMS, -60 to 0 dBFS)"))
        return """
            <div class="facts">\(label)</div>
            <svg class="levels" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))"><rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#101010"/><polyline fill="none" stroke="#00c000" stroke-width="3" points="\(points)"/></svg>

            """
    }
}
