import Foundation

/// What a take did with its script (the sidecar's `review`): every sentence read, skipped, repeated or
/// partly read with its times, the stretches not in the script, words per minute per paragraph and the
/// script range the take covered. Only script words as written (the subject's text) and times: never a
/// note, a path or a device.
///
/// Thread: value type, Sendable.
public struct CaptionReview: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable { case read, skipped, repeated, partly }

    public struct Line: Sendable, Codable, Equatable {
        /// 1-based block (heading or paragraph) number.
        public var block: Int
        public var text: String
        public var state: State
        /// Seconds into the take (the last reading of a repeated line); nil when skipped.
        public var start: Double?
        public var end: Double?
    }

    public struct Stretch: Sendable, Codable, Equatable {
        public var start: Double
        public var end: Double
    }

    public struct Paragraph: Sendable, Codable, Equatable {
        public var block: Int
        public var words: Int
        /// Words per minute over the paragraph's read lines; nil when none was read.
        public var wpm: Double?
    }

    public struct Range: Sendable, Codable, Equatable {
        /// 1-based numbers of the first and last line read.
        public var fromLine: Int
        public var toLine: Int
        /// The first and last few words of that range, as written.
        public var from: String
        public var to: String
    }

    public var lines: [Line]
    public var unscripted: [Stretch]
    public var paragraphs: [Paragraph]
    /// nil when nothing of the script was read.
    public var scriptRange: Range?

    public init(lines: [Line], unscripted: [Stretch], paragraphs: [Paragraph], scriptRange: Range?) {
        self.lines = lines
        self.unscripted = unscripted
        self.paragraphs = paragraphs
        self.scriptRange = scriptRange
    }
}

/// One timed caption.
///
/// Thread: value type, Sendable.
public struct Caption: Sendable, Hashable {
    public var start: Double
    public var end: Double
    /// One or two lines, `\n` between.
    public var text: String
    public init(start: Double, end: Double, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// WebVTT and SubRip texts of a take's captions.
///
/// Thread: pure functions.
public enum CaptionFiles {
    /// `HH:MM:SS.mmm` (WebVTT) or `HH:MM:SS,mmm` (SubRip).
    static func timestamp(_ seconds: Double, separator: Character) -> String {
        let ms = max(0, Int((seconds * 1000).rounded()))
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let frac = String(f + 1000).dropFirst()
        return "\(two(h)):\(two(m)):\(two(s))\(separator)\(frac)"
    }

    /// A cue's text made safe for WebVTT: `&`, `<` and `>` escaped, and no line that is blank or holds `-->`.
    static func vttText(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    public static func webVTT(_ captions: [Caption]) -> String {
        var out = "WEBVTT\n\n"
        for (n, c) in captions.enumerated() {
            out += "\(n + 1)\n\(timestamp(c.start, separator: ".")) --> \(timestamp(c.end, separator: "."))\n\(vttText(c.text))\n\n"
        }
        return out
    }

    /// SubViewer 2 text, the one subtitle format GStreamer's `subparse` passes on as plain UTF-8 (SubRip
    /// comes out as Pango markup, with `&` escaped and anything like a tag dropped, and neither Matroska's
    /// text track nor MP4's `mov_text` takes markup): lines joined by `[br]`; the fraction after the
    /// seconds in milliseconds, as subparse reads it (it takes `.46` for 46 ms, not 460).
    public static func subViewer(_ captions: [Caption]) -> String {
        func stamp(_ seconds: Double) -> String { timestamp(seconds, separator: ".") }
        var out = "[INFORMATION]\n[TITLE]captions\n[END INFORMATION]\n[SUBTITLE]\n"
        for c in captions {
            let text = c.text.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "[br]")
            out += "\(stamp(c.start)),\(stamp(c.end))\n\(text)\n\n"
        }
        return out
    }

    /// The cues of a SubRip text (as `subRip` writes it, or any well-formed one); malformed blocks are
    /// passed by.
    public static func parseSubRip(_ text: String) -> [Caption] {
        func seconds(_ stamp: Substring) -> Double? {
            let f = stamp.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").split(separator: ":")
            guard f.count == 3, let h = Double(f[0]), let m = Double(f[1]), let s = Double(f[2]) else { return nil }
            return h * 3600 + m * 60 + s
        }
        var captions: [Caption] = []
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\u{FEFF}", with: "")
        for block in normalised.components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let at = lines.firstIndex(where: { $0.contains("-->") }) else { continue }
            let ends = lines[at].components(separatedBy: "-->")
            guard ends.count == 2, let a = seconds(Substring(ends[0])), let b = seconds(Substring(ends[1].split(separator: " ").first ?? "")) else { continue }
            let body = lines[(at + 1)...].joined(separator: "\n").trimmingCharacters(in: .newlines)
            if !body.isEmpty { captions.append(Caption(start: a, end: b, text: body)) }
        }
        return captions
    }

    public static func subRip(_ captions: [Caption]) -> String {
        var out = ""
        for (n, c) in captions.enumerated() {
            let text = c.text.replacingOccurrences(of: "-->", with: "->")
            out += "\(n + 1)\n\(timestamp(c.start, separator: ",")) --> \(timestamp(c.end, separator: ","))\n\(text)\n\n"
        }
        return out
    }
}
