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

    public static func subRip(_ captions: [Caption]) -> String {
        var out = ""
        for (n, c) in captions.enumerated() {
            let text = c.text.replacingOccurrences(of: "-->", with: "->")
            out += "\(n + 1)\n\(timestamp(c.start, separator: ",")) --> \(timestamp(c.end, separator: ","))\n\(text)\n\n"
        }
        return out
    }
}
