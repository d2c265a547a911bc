import Foundation

/// Reads and parses teleprompter scripts (UTF-8 `.txt` and Markdown). Every bad file is a one-line
/// `DuoError.input`; nothing here crashes or hangs, because the size is checked before a byte is read.
///
/// Thread: stateless; call it off the streaming thread (parsing is proportional to the script's length).
public enum ScriptParser {
    /// Scripts above this size are refused before reading. 2 MB is ~300,000 words, over 30 hours at
    /// 160 wpm; laying out 1 MB took ~5 s here (off the streaming thread), so much larger scripts would
    /// look like a hang.
    public static let maximumBytes = 2 * 1024 * 1024

    public static func load(path: String) throws(DuoError) -> ParsedScript {
        let fm = FileManager.default
        try InputFile.requireRegular(path, .text("script"), hint: .text("give a UTF-8 .txt or .md file to --script"))
        let size: Int
        do {
            let attributes = try fm.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw .input(.text("cannot read script %s; check its permissions", path))
        }
        guard size <= maximumBytes else {
            throw .input(.text("script %s is %s; scripts are limited to %s, split it into several files", path, megabytes(size), megabytes(maximumBytes)))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .input(.text("cannot read script %s; check its permissions", path))
        }
        defer { try? handle.close() }
        // Read at most one byte past the limit, in case the file grew after the size check.
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw .input(.text("cannot read script %s; check its permissions", path))
        }
        guard data.count <= maximumBytes else {
            throw .input(.text("script %s is over %s; split it into several files", path, megabytes(maximumBytes)))
        }
        return try parse(bytes: [UInt8](data), format: .forPath(path), name: path)
    }

    /// Validates raw bytes (NUL bytes, UTF-8, emptiness) and parses them.
    public static func parse(bytes: [UInt8], format: ScriptFormat, name: String = "script") throws(DuoError) -> ParsedScript {
        guard bytes.count <= maximumBytes else {
            throw .input(.text("%s is %s; scripts are limited to %s, split it into several files", name, megabytes(bytes.count), megabytes(maximumBytes)))
        }
        if bytes.isEmpty || bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .input(.text("%s is empty; write the text to prompt in it (UTF-8 .txt or .md)", name))
        }
        if let nul = bytes.firstIndex(of: 0) {
            throw .input(.text("%s looks binary (NUL byte at offset %s); give a UTF-8 .txt or .md script", name, nul))
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw .input(.text("%s is not valid UTF-8 (first bad byte at offset %s); re-save it as UTF-8", name, firstInvalidUTF8Offset(bytes)))
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // Other control characters (except tab, newline, CR, form feed) mean a binary file that happens to be UTF-8.
        let controls = text.unicodeScalars.lazy.filter {
            $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" && $0 != "\u{0C}"
        }.count
        if controls > 0 && controls * 100 > max(text.unicodeScalars.count, 1) {
            throw .input(.text("%s looks binary (%s control characters); give a UTF-8 .txt or .md script", name, controls))
        }
        let parsed = parse(text: text, format: format)
        guard parsed.subject.blocks.contains(where: { if case .pause = $0 { false } else { true } }) else {
            throw .input(.text("%s has no text for the subject (only notes or cues); add the words to prompt", name))
        }
        return parsed
    }

    /// Parses already-valid text. Never fails: an empty result is possible and checked by `parse(bytes:)`.
    public static func parse(text: String, format: ScriptFormat) -> ParsedScript {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        // Notes first: they may span lines, and must never survive into any subject block.
        var notes: [(text: String, paragraphIndex: Int)] = []
        var problems: [ScriptProblem] = []
        var sourceLines: [Int: Int] = [:]
        let stripped = stripNotes(normalised, found: { noteText, textSoFar in
            let paragraphsBefore = textSoFar.components(separatedBy: "\n\n").count - 1
            notes.append((noteText, paragraphsBefore))
        }, problem: { problems.append($0) }, sourceLine: { sourceLines[$0] = $1 })
        // Where each source line's words start (the sidecar's script range in lines).
        var wordLines: [WordLine] = []
        var wordsInBlocks = 0
        var blocks: [ScriptBlock] = []
        var noteBlockForParagraph: [Int: Int] = [:]
        var paragraphLines: [String] = []
        var paragraphIndex = 0
        var poses: [PoseCue] = []
        func wordCount(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }

        func flushParagraph() {
            defer { paragraphLines.removeAll() }
            let joined = joinLines(paragraphLines)
            guard !joined.isEmpty else { return }
            let runs = format == .markdown ? emphasisRuns(joined) : [StyledRun(joined)]
            blocks.append(.paragraph(runs: runs))
            wordsInBlocks += wordCount(runs.map(\.text).joined())
        }

        for (lineIndex, line) in stripped.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var trimmed = line.trimmingCharacters(in: .whitespaces)
            // [POSE: …] cues come out of the text (after the notes did), each at the word it precedes.
            let (withoutPoses, cues) = takePoseCues(trimmed)
            if !cues.isEmpty {
                let wordsBefore = wordsInBlocks + paragraphLines.reduce(0) { $0 + wordCount($1) }
                for cue in cues {
                    // The words before it on its line, without a heading's #s or a [PAUSE].
                    var onLine = cue.before.replacingOccurrences(of: "[PAUSE]", with: " ").trimmingCharacters(in: .whitespaces)
                    if format == .markdown, let level = headingLevel(onLine) { onLine = String(onLine.dropFirst(level)) }
                    poses.append(PoseCue(text: cue.text, wordPosition: wordsBefore + wordCount(onLine), blockIndex: blocks.count))
                }
                trimmed = withoutPoses.trimmingCharacters(in: .whitespaces)
                // A line of cues only is no blank line: it does not end the paragraph.
                if trimmed.isEmpty { continue }
            }
            if trimmed.isEmpty {
                flushParagraph()
                paragraphIndex += 1
                noteBlockForParagraph[paragraphIndex] = blocks.count
                continue
            }
            // [PAUSE] cues may sit on their own line or inside a line; each splits the paragraph.
            let pieces = trimmed.components(separatedBy: "[PAUSE]")
            for (i, piece) in pieces.enumerated() {
                if i > 0 {
                    flushParagraph()
                    blocks.append(.pause)
                }
                let p = piece.trimmingCharacters(in: .whitespaces)
                guard !p.isEmpty else { continue }
                if let source = sourceLines[lineIndex] {
                    wordLines.append(WordLine(word: wordsInBlocks + paragraphLines.reduce(0) { $0 + wordCount($1) }, line: source))
                }
                if format == .markdown, let heading = headingLevel(p) {
                    flushParagraph()
                    let title = p.dropFirst(heading).trimmingCharacters(in: .whitespaces)
                    if !title.isEmpty {
                        let runs = emphasisRuns(title)
                        blocks.append(.heading(level: heading, runs: runs))
                        wordsInBlocks += wordCount(runs.map(\.text).joined())
                    }
                } else {
                    paragraphLines.append(p)
                }
            }
        }
        flushParagraph()
        let operatorNotes = notes.map { note in
            OperatorNote(text: note.text, blockIndex: min(noteBlockForParagraph[note.paragraphIndex] ?? 0, max(blocks.count - 1, 0)))
        }
        return ParsedScript(subject: SubjectScript(blocks: blocks, poseCues: poses), operatorNotes: operatorNotes, problems: problems,
                            wordLines: wordLines)
    }

    /// True when at least a few percent of the text's characters are spaces between words.
    static func separatesWords(_ text: String) -> Bool {
        var letters = 0, spaces = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace { spaces += 1 } else { letters += 1 }
        }
        guard letters > 0 else { return true }
        return spaces * 20 >= letters
    }

    // MARK: - Pieces

    /// Removes every note from the subject's text, and fails closed on anything that could be one:
    ///
    /// - `[[note: …]]` is a note, however it is spelled: `[[Note: …]]`, `[[ note …]]`, `[[NOTE:…]]`;
    /// - an HTML comment `<!-- … -->` (one line or several) is a note too, in either format: every
    ///   Markdown renderer hides it, so its writer expects the subject never to see it;
    /// - any other `[[ … ]]` (a typo such as `[[nto: …]]`), a note inside a note, and a note opened with
    ///   one bracket (`[note: …]`) are kept from the subject and reported as problems;
    /// - look-alikes of a note are kept from the subject and reported: `［［note: …］］` (fullwidth
    ///   brackets), `((note: …))`, `{{note: …}}`, and a line that starts `note:`;
    /// - a `]]` left over after a note's end (`[[note: a ]] b ]]`: the writer's note ran to the second)
    ///   makes the note run to it, with everything between kept from the subject and reported; the same
    ///   for the look-alikes' closers. Such a stray closer counts up to the next opener of its kind;
    /// - an unclosed `[[`, `<!--` or look-alike hides the rest of the text from the subject.
    ///
    /// Work is linear in the text's length.
    /// `sourceLine(k, n)`: the subject's line `k` (0-based) starts its words on the text's line `n` (1-based).
    static func stripNotes(_ text: String, found: (String, Substring) -> Void,
                           problem: (ScriptProblem) -> Void = { _ in },
                           sourceLine: (Int, Int) -> Void = { _, _ in }) -> String {
        var output = ""
        var rest = Substring(text)
        var linesBefore = 1, counted = text.startIndex
        func line(at index: String.Index) -> Int {
            linesBefore += text[counted..<index].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            counted = index
            return linesBefore
        }
        var outputLine = 0, outputLineSaid = -1
        /// The subject's line gets its first word from `piece`: its source line is said once.
        func visible(_ piece: Substring) {
            guard outputLineSaid != outputLine, let first = piece.firstIndex(where: { !$0.isWhitespace }) else { return }
            outputLineSaid = outputLine
            sourceLine(outputLine, line(at: first))
        }
        /// Whether `s` (after spaces) starts with the word "note", in any case.
        func startsWithNote(_ s: Substring) -> Substring? {
            let t = s.drop { $0 == " " || $0 == "\t" }
            // Fullwidth letters (ｎｏｔｅ) read as "note" too: compatibility mapping folds them to ASCII.
            guard t.prefix(4).precomposedStringWithCompatibilityMapping.lowercased() == "note" else { return nil }
            let after = t.dropFirst(4)
            guard let next = after.first else { return after }
            return next == ":" || next == "：" || next.isWhitespace || "]）)}".contains(next) || lookAlikeClosers.contains(next) ? after : nil
        }
        /// Whether the subject's line so far (what is already in `output` since its last newline) is blank.
        func lineSoFarIsBlank() -> Bool {
            output.reversed().prefix { $0 != "\n" }.allSatisfy { $0 == " " || $0 == "\t" }
        }
        /// A kept-out piece on a line of its own goes with its line, so it never splits a paragraph: the
        /// subject's text (and layout) is the same whether or not the operator wrote notes.
        func dropOwnLine() {
            let lineSoFar = output.reversed().prefix { $0 != "\n" }
            if lineSoFar.allSatisfy({ $0 == " " || $0 == "\t" }) {
                let afterSpaces = rest.drop { $0 == " " || $0 == "\t" }
                if afterSpaces.first == "\n" || afterSpaces.isEmpty {
                    output.removeLast(lineSoFar.count)
                    rest = afterSpaces.dropFirst()
                }
            }
        }
        /// Where a doubled opener `oo` at the start of `at` is closed by `cc`, counting nested pairs; then,
        /// failing closed, extended over each stray `cc` before the next `oo`. `stray` is the last stray
        /// closer's start when there was one.
        func closing(_ at: Substring, _ o: Character, _ c: Character) -> (close: Range<String.Index>?, nested: Bool, stray: String.Index?) {
            var depth = 0, nested = false, i = at.startIndex, close: Range<String.Index>?
            while i < at.endIndex {
                let next = at.index(after: i)
                if at[i] == o, next < at.endIndex, at[next] == o {
                    depth += 1; if depth > 1 { nested = true }
                    i = at.index(after: next); continue
                }
                if at[i] == c, next < at.endIndex, at[next] == c {
                    depth -= 1
                    if depth == 0 { close = i..<at.index(after: next); break }
                    i = at.index(after: next); continue
                }
                i = next
            }
            guard var end = close else { return (nil, nested, nil) }
            var stray: String.Index?
            i = end.upperBound
            while i < at.endIndex {
                let next = at.index(after: i)
                if at[i] == o, next < at.endIndex, at[next] == o { break }
                if at[i] == c, next < at.endIndex, at[next] == c {
                    stray = i
                    end = i..<at.index(after: next)
                    i = end.upperBound; continue
                }
                i = next
            }
            return (end, nested, stray)
        }
        let specials = Set<Character>(["[", "\n", "<", "(", "{"]).union(lookAlikeOpeners.keys)
        var checkLineStart = true
        /// Reading goes on at `after`, past a note or a look-alike of one; the line it stood on alone goes too.
        func resume(after: Substring) {
            rest = after
            dropOwnLine()
            checkLineStart = true
        }
        while true {
            if checkLineStart, lineSoFarIsBlank() {
                // A line that starts `note:` (after spaces, a quote mark or a list bullet) reads as a note.
                var head = rest.drop { $0 == " " || $0 == "\t" }
                if let mark = head.first, ">-*+".contains(mark) { head = head.dropFirst().drop { $0 == " " || $0 == "\t" } }
                if let after = startsWithNote(head), after.drop(while: { $0 == " " || $0 == "\t" }).first.map({ $0 == ":" || $0 == "：" }) ?? false {
                    problem(ScriptProblem(line: line(at: rest.startIndex), message: tr("a line starting note: is kept from the subject; write [[note: …]] for a private note")))
                    rest = rest[(rest.firstIndex(of: "\n") ?? rest.endIndex)...]
                    dropOwnLine()
                    continue
                }
            }
            checkLineStart = false
            guard let open = rest.firstIndex(where: { specials.contains($0) }) else { break }
            visible(rest[..<open])
            output += rest[..<open]
            let at = rest[open...]
            switch at.first {
            case "\n":
                output += "\n"
                outputLine += 1
                rest = at.dropFirst()
                checkLineStart = true
            case "[" where at.hasPrefix("[["):
                let (close, nested, stray) = closing(at, "[", "]")
                let body = at[at.index(at.startIndex, offsetBy: 2)..<(close?.lowerBound ?? at.endIndex)]
                let lineNumber = line(at: open)
                if let noteBody = startsWithNote(body), !nested {
                    let text = noteBody.drop { $0 == " " || $0 == "\t" || $0 == ":" }
                    found(text.trimmingCharacters(in: .whitespacesAndNewlines), Substring(output))
                    if close == nil {
                        problem(ScriptProblem(line: lineNumber, message: tr("a note with no closing ]]: the rest of the script is hidden from the subject")))
                    }
                } else if close == nil {
                    problem(ScriptProblem(line: lineNumber, message: tr("[[ with no closing ]]: the rest of the script is hidden from the subject")))
                } else if nested {
                    problem(ScriptProblem(line: lineNumber, message: tr("[[ … ]] inside a note: kept from the subject; write notes one after another")))
                } else {
                    let shown = body.prefix(20).replacingOccurrences(of: "\n", with: " ")
                    problem(ScriptProblem(line: lineNumber, message: tr("[[%s%s]] is not a note: kept from the subject; write [[note: …]]", shown, body.count > 20 ? "…" : "")))
                }
                if let stray {
                    problem(ScriptProblem(line: line(at: stray), message: tr("a ]] after a note's end: everything up to it is kept from the subject as part of the note; remove the extra ]]")))
                }
                guard let close else { rest = ""; break }
                resume(after: at[close.upperBound...])
            case "[" where startsWithNote(at.dropFirst()) != nil:
                // [note: …] with one bracket: the writer meant a note. Kept out up to its end.
                let lineNumber = line(at: open)
                let end = at.firstIndex(of: "]").map { at.index(after: $0) } ?? at.endIndex
                var after = at[end...]
                if after.first == "]" { after = after.dropFirst() }
                problem(ScriptProblem(line: lineNumber, message: tr("[note … opens with one bracket: kept from the subject; write [[note: …]]")))
                resume(after: after)
            case "<" where at.hasPrefix("<!--"):
                // An HTML comment: hidden by every Markdown renderer, so a private note.
                let lineNumber = line(at: open)
                let bodyStart = at.index(at.startIndex, offsetBy: 4)
                let close = at[bodyStart...].range(of: "-->")
                found(at[bodyStart..<(close?.lowerBound ?? at.endIndex)].trimmingCharacters(in: .whitespacesAndNewlines), Substring(output))
                guard let close else {
                    problem(ScriptProblem(line: lineNumber, message: tr("<!-- with no closing -->: the rest of the script is hidden from the subject")))
                    rest = ""
                    break
                }
                resume(after: at[close.upperBound...])
            case let o? where lookAlikeOpeners[o] != nil && at.dropFirst().first != o && startsWithNote(at.dropFirst()) != nil:
                // A note's look-alike in one CJK bracket: 【note: …】, 「note: …」, ［note: …］. Kept out up to
                // its closer (a doubled closer goes with it).
                let c = lookAlikeOpeners[o]!
                let lineNumber = line(at: open)
                guard let closer = at.dropFirst().firstIndex(of: c) else {
                    problem(ScriptProblem(line: lineNumber, message: tr("%snote with no closing %s: the rest of the script is hidden from the subject; write [[note: …]]", o, c)))
                    rest = ""
                    break
                }
                problem(ScriptProblem(line: lineNumber, message: tr("%snote … %s is not a note: kept from the subject; write [[note: …]]", o, c)))
                var after = at[at.index(after: closer)...]
                if after.first == c { after = after.dropFirst() }
                resume(after: after)
            case let o? where ("({".contains(o) || lookAlikeOpeners[o] != nil) && at.dropFirst().first == o && startsWithNote(at.dropFirst(2)) != nil:
                // Look-alikes of a note: ((note: …)), {{note: …}}, and doubled CJK brackets such as
                // ［［note: …］］ or 【【note: …】】.
                let c: Character = o == "(" ? ")" : o == "{" ? "}" : lookAlikeOpeners[o]!
                let lineNumber = line(at: open)
                let (close, _, stray) = closing(at, o, c)
                if close == nil {
                    problem(ScriptProblem(line: lineNumber, message: tr("%s%snote with no closing %s%s: the rest of the script is hidden from the subject; write [[note: …]]", o, o, c, c)))
                } else {
                    problem(ScriptProblem(line: lineNumber, message: tr("%s%snote … %s%s is not a note: kept from the subject; write [[note: …]]", o, o, c, c)))
                }
                if let stray {
                    problem(ScriptProblem(line: line(at: stray), message: tr("a %s%s after a note's end: everything up to it is kept from the subject; remove the extra %s%s", c, c, c, c)))
                }
                guard let close else { rest = ""; break }
                resume(after: at[close.upperBound...])
            default:
                visible(at.prefix(1))
                output.append(at.first!)
                rest = at.dropFirst()
            }
            if rest.isEmpty && !checkLineStart { break }
        }
        visible(rest)
        output += rest
        return output
    }

    /// The CJK and fullwidth brackets a note's look-alike may be written in, single or doubled, opener → closer.
    static let lookAlikeOpeners: [Character: Character] = [
        "［": "］", "【": "】", "「": "」", "『": "』", "〔": "〕", "〖": "〗", "〘": "〙", "《": "》", "〈": "〉",
        "｛": "｝", "（": "）",
    ]
    static let lookAlikeClosers = Set(lookAlikeOpeners.values)

    static func headingLevel(_ line: String) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let after = line.dropFirst(hashes)
        return after.isEmpty || after.first == " " ? hashes : nil
    }

    /// Joins a paragraph's lines: with a space between words, with nothing between CJK characters.
    static func joinLines(_ lines: [String]) -> String {
        var result = ""
        for line in lines {
            if let last = result.unicodeScalars.last, let first = line.unicodeScalars.first,
               !(isCJK(last) && isCJK(first)) {
                result += " "
            }
            result += line
        }
        return result
    }

    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0xAC00...0xD7AF: true
        default: false
        }
    }

    /// Splits Markdown emphasis markers into runs. Markers without a partner stay as literal text.
    static func emphasisRuns(_ text: String) -> [StyledRun] {
        var runs: [StyledRun] = []
        var bold = false, italic = false
        var current = ""
        let chars = Array(text)
        func emphasis() -> Emphasis {
            switch (bold, italic) {
            case (true, true): .boldItalic
            case (true, false): .bold
            case (false, true): .italic
            case (false, false): .none
            }
        }
        func flush() {
            if !current.isEmpty { runs.append(StyledRun(current, emphasis())) }
            current = ""
        }
        func hasClosing(_ marker: [Character], from index: Int) -> Bool {
            var j = index
            while j + marker.count <= chars.count {
                if Array(chars[j..<(j + marker.count)]) == marker { return true }
                j += 1
            }
            return false
        }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, "*_".contains(chars[i + 1]) {
                current.append(chars[i + 1])
                i += 2
                continue
            }
            if c == "*" || c == "_" {
                let double = i + 1 < chars.count && chars[i + 1] == c
                // Intra-word underscores (snake_case) are literal.
                if c == "_", !double, i > 0, chars[i - 1].isLetter, i + 1 < chars.count, chars[i + 1].isLetter {
                    current.append(c); i += 1; continue
                }
                if double {
                    if bold || hasClosing([c, c], from: i + 2) {
                        flush(); bold.toggle(); i += 2; continue
                    }
                } else if italic || hasClosing([c], from: i + 1) {
                    flush(); italic.toggle(); i += 1; continue
                }
            }
            current.append(c)
            i += 1
        }
        flush()
        return runs.isEmpty ? [StyledRun(text)] : runs
    }

    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length: Int
            switch b {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return i
            }
            guard i + length <= bytes.count else { return i }
            let slice = Array(bytes[i..<(i + length)])
            if String(validating: slice, as: UTF8.self) == nil { return i }
            i += length
        }
        return i
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
