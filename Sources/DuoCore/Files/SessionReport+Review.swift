import Foundation

extension SessionReport {
    /// A take's script review (its sidecar's `review`, issue 38): the take playable on the page (its MP4
    /// when one was remuxed beside it, else the take), and the script's lines with their marks and times,
    /// each time a link that plays the take from there; unscripted stretches and the pace per paragraph.
    /// Empty without a review.
    static func reviewSection(_ take: Take) -> String {
        guard let sc = take.sidecar, let review = sc.review else {
            if let why = take.sidecar?.captions, why.hasPrefix("none") { return "<div class=\"facts\">" + escape(tr("captions: %s", why)) + "</div>\n" }
            return ""
        }
        let name = (take.file as NSString).lastPathComponent
        let mp4 = ((take.file as NSString).deletingPathExtension as NSString).appendingPathExtension("mp4")!
        let playable = FileManager.default.fileExists(atPath: mp4) ? (mp4 as NSString).lastPathComponent : name
        let id = "take\(sc.take)-\(name.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) % 1_000_003 })"
        let source = escape(playable.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? playable)
        func at(_ t: Double) -> String {
            let label = String(format: "%d:%04.1f", Int(t) / 60, t.truncatingRemainder(dividingBy: 60))
            return "<a class=\"at\" href=\"\(source)#t=\(String(format: "%.1f", t))\" onclick=\"return duoPlay('\(id)', \(String(format: "%.2f", t)))\">\(label)</a>"
        }
        let read = review.lines.filter { $0.state != .skipped }.count
        var s = "<details class=\"review\" open><summary>" + escape(tr("Script: %1$d of %2$d lines read", read, review.lines.count))
        if let range = review.scriptRange {
            s += " " + escape(tr("(lines %1$d–%2$d: “%3$s …” to “… %4$s”)", range.fromLine, range.toLine, range.from, range.to))
        }
        s += "</summary>\n<video id=\"\(id)\" controls preload=\"metadata\" width=\"480\" src=\"\(source)\"></video>\n<ol class=\"lines\">\n"
        let marks: [CaptionReview.State: String] = [.read: "✓ " + tr("read"), .skipped: "✗ " + tr("skipped"), .repeated: "↻ " + tr("repeated"),
                                                    .partly: "◐ " + tr("partly")]
        for (n, line) in review.lines.enumerated() {
            let time = line.start.map { at($0) } ?? "<span class=\"at\">–</span>"
            s += "<li value=\"\(n + 1)\" class=\"\(line.state.rawValue)\">\(time) <span class=\"state\">\(escape(marks[line.state] ?? ""))</span> \(escape(line.text))</li>\n"
        }
        s += "</ol>\n"
        if !review.unscripted.isEmpty {
            s += "<div class=\"facts\">" + escape(tr("not in the script:")) + " " + review.unscripted.map { "\(at($0.start))–\(String(format: "%.1f", $0.end)) s" }.joined(separator: ", ") + "</div>\n"
        }
        let paces = review.paragraphs.compactMap { p in p.wpm.map { tr("¶%1$d %2$d wpm", p.block, Int($0.rounded())) } }
        if !paces.isEmpty { s += "<div class=\"facts\">" + escape(tr("pace: %s", paces.joined(separator: " · "))) + "</div>\n" }
        return s + "</details>\n"
    }

    /// The page's one script: a review's time plays its take from there (the link's own `#t=` when the
    /// page cannot play the file itself).
    static let reviewScript = """
        <script>function duoPlay(id, t) { var v = document.getElementById(id); if (!v || !v.canPlayType) return true;
        v.currentTime = t; var p = v.play(); if (p && p.catch) p.catch(function () {}); v.scrollIntoView({block: "nearest"}); return false; }</script>
        <style>.review ol.lines { font-size: 14px; } .review li.skipped { color: #999; } .review li.repeated .state { color: #b60; }
        .review li.partly .state { color: #a80; } .review li.read .state { color: #080; } .review a.at { font-family: monospace; margin-right: .5em; }</style>

        """
}
