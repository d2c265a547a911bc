import Foundation

//  What a parsed script is: the subject's styled blocks, the operator's private notes in their own type,
//  and what was kept from the subject. ScriptParser (Script.swift) makes them.

/// How a run of prompt text is emphasised (Markdown `*…*`, `_…_`, `**…**`, `__…__`).
///
/// Thread: value type, Sendable.
public enum Emphasis: Sendable, Hashable {
    case none, italic, bold, boldItalic
}

/// A run of subject-visible text with one emphasis.
///
/// Thread: value type, Sendable.
public struct StyledRun: Sendable, Hashable {
    public let text: String
    public let emphasis: Emphasis
    init(_ text: String, _ emphasis: Emphasis = .none) {
        self.text = text
        self.emphasis = emphasis
    }
}

/// One block of the subject's script. Headings are markers; `pause` is a `[PAUSE]` cue that stops scrolling.
///
/// Thread: value type, Sendable.
public enum ScriptBlock: Sendable, Hashable {
    case heading(level: Int, runs: [StyledRun])
    case paragraph(runs: [StyledRun])
    case pause
}

/// The script as the subject may see it. It has, by construction, no field for operator notes: the parser
/// strips `[[note: …]]` into `ParsedScript.operatorNotes`, and only `ScriptParser` can make one, so no
/// caller can put private text here.
///
/// Thread: value type, Sendable; built off the streaming thread.
public struct SubjectScript: Sendable, Hashable {
    public let blocks: [ScriptBlock]
    /// True when the text separates words with spaces; false for scripts such as Chinese or Japanese,
    /// whose speed is then set in lines per minute.
    public let separatesWords: Bool
    /// The `[POSE: …]` cues, in reading order (subject text, taken out after the notes).
    public let poseCues: [PoseCue]

    /// Only `ScriptParser` builds scripts (internal init), so notes can never be smuggled in.
    init(blocks: [ScriptBlock], poseCues: [PoseCue] = []) {
        self.blocks = blocks
        self.poseCues = poseCues
        var all = ""
        for block in blocks {
            switch block {
            case .heading(_, let runs), .paragraph(let runs):
                for run in runs { all += run.text }
            case .pause: break
            }
        }
        self.separatesWords = ScriptParser.separatesWords(all)
    }

    /// Every word, in reading order, with the block it sits in. Words are whitespace-separated runs.
    public var wordCount: Int {
        blocks.reduce(0) { n, block in
            switch block {
            case .heading(_, let runs), .paragraph(let runs):
                n + runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).count
            case .pause: n
            }
        }
    }

    /// Every word in reading order (whitespace-separated runs of headings and paragraphs), as shown.
    public var words: [String] {
        blocks.flatMap { block -> [String] in
            switch block {
            case .heading(_, let runs), .paragraph(let runs):
                runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).map(String.init)
            case .pause: []
            }
        }
    }

    /// Where each `[PAUSE]` cue sits, in words from the start (the scroll units of a script with spaces).
    public var pauseCueWordPositions: [Double] {
        var words = 0
        var cues: [Double] = []
        for block in blocks {
            switch block {
            case .heading(_, let runs), .paragraph(let runs):
                words += runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).count
            case .pause:
                cues.append(Double(words))
            }
        }
        return cues
    }

    /// Where each heading (marker) starts, in words from the start.
    public var markerWordPositions: [Double] {
        var words = 0
        var markers: [Double] = []
        for block in blocks {
            switch block {
            case .heading(_, let runs):
                markers.append(Double(words))
                words += runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).count
            case .paragraph(let runs):
                words += runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).count
            case .pause:
                break
            }
        }
        return markers
    }

    /// The headings' text, in order (one per marker).
    public var headingTitles: [String] {
        blocks.compactMap { if case .heading(_, let runs) = $0 { runs.map(\.text).joined() } else { nil } }
    }

    /// Indices into `blocks` of the headings: the markers an operator jumps between.
    public var markerBlockIndices: [Int] {
        blocks.indices.filter { if case .heading = blocks[$0] { true } else { false } }
    }
}

/// A `[[note: …]]` the operator sees and the subject never does.
///
/// Thread: value type, Sendable.
public struct OperatorNote: Sendable, Hashable {
    public let text: String
    /// The subject block the note sits in or just before (for showing it on the operator view at the right time).
    public let blockIndex: Int
}

/// A parsed script: the subject's part and the operator's private notes, kept in separate types.
///
/// Thread: value type, Sendable.
public struct ParsedScript: Sendable, Hashable {
    public let subject: SubjectScript
    public let operatorNotes: [OperatorNote]
    /// Markup that looks like a note but is not a well-formed one (a typo, a missing bracket, a note in a
    /// note, no closing `]]`). Its text was kept from the subject; the operator is told where.
    public var problems: [ScriptProblem] = []
    /// Where the words of each of the file's lines start, in reading order (see `line(atWord:)`).
    public var wordLines: [WordLine] = []

    /// The file's line (1-based) that holds word `word` of the subject's script (1 without words).
    public func line(atWord word: Int) -> Int {
        var low = 0, high = wordLines.count
        while low < high {
            let mid = (low + high) / 2
            if wordLines[mid].word <= word { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? wordLines[low - 1].line : wordLines.first?.line ?? 1
    }
}

/// The file's line `line` (1-based) starts its words at word `word` of the subject's script.
///
/// Thread: value type, Sendable.
public struct WordLine: Sendable, Hashable {
    public let word: Int
    public let line: Int
}

/// Something in a script that was kept from the subject because it could be a private note.
///
/// Thread: value type, Sendable.
public struct ScriptProblem: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the script where the markup starts.
    public let line: Int
    public let message: String
    public var description: String { "line \(line): \(message)" }
}

/// Which parser a script file gets.
///
/// Thread: value type, Sendable.
public enum ScriptFormat: Sendable, Hashable {
    case plainText, markdown

    /// `.md` and `.markdown` are Markdown; everything else is plain UTF-8 text.
    public static func forPath(_ path: String) -> ScriptFormat {
        switch (path as NSString).pathExtension.lowercased() {
        case "md", "markdown": .markdown
        default: .plainText
        }
    }
}
