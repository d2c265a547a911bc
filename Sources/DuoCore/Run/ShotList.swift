import Foundation

/// A shot list (`--shots FILE`): a session as numbered shots, or the steps of a test session, written as
/// Markdown a person edits. Each shot is a level-2 heading `## ID — Title`; the lines under it are what
/// the subject is asked to do or say, except the fields (`note:`, `script:`, `heading:`, `framing:`,
/// `aspect:`, `length:`), which only the operator sees:
///
///     # Product demo
///
///     ## 01 — Opening
///     Look into the lens and say your name and your role.
///     note: check the lavalier before this one
///     framing: single
///     length: 30s
///
///     ## 02 — The problem
///     Explain in two sentences what goes wrong today.
///     script: problem.md
///     heading: The problem
///
/// A `note-codes: BUG, Q, GOOD, PII, A11Y` line above the first shot sets the codes a note may carry in
/// this session (issue 39; `--note-codes` on the command line wins, and it wins over the settings file).
///
/// The id is the heading's first word (letters, digits, `-`, `_`, `.`); it names the take files
/// (`…-shot01-take02.mkv`) and must be unique. A `# Heading` (the list's title) and text before the first
/// shot are the operator's. Private notes fail closed exactly like a script's: a `note:` field, any
/// `[[note: …]]` or `<!-- … -->` in the title or instruction, and anything that could be a malformed note
/// (`[[nto: …]]`, `[note: …]`, an unclosed `[[`) are kept from the subject; the malformed ones are
/// reported with their line.
///
/// Thread: value type, Sendable; parsed off the director (at start-up, or on a save).
public struct ShotList: Sendable, Equatable {
    /// How the shot is framed.
    public enum Framing: String, Sendable, Equatable { case single, interview }

    /// One shot or test step.
    ///
    /// Thread: value type, Sendable.
    public struct Shot: Sendable, Equatable {
        /// What the subject may see of the shot: only the parser makes one, notes removed.
        public let subject: SubjectShot
        public var id: String { subject.id }
        public var title: String { subject.title }
        /// The operator's private notes (`note:` fields and `[[note: …]]`): never shown to the subject.
        public let notes: [String]
        /// `script:`: a script file (relative to the shot list's folder) to prompt for this shot.
        public let script: String?
        public let framing: Framing?
        public let aspect: AspectRatio?
        /// `length:`, seconds: how long the shot (or test step) is expected to run.
        public let expectedSeconds: Double?
        /// The line of its heading (1-based).
        public let line: Int
        /// `heading:`: the script's heading this shot starts at; every take of the shot (a re-take too)
        /// starts the teleprompter there. Without one, a shot's takes start where its first take did.
        public var heading: String? = nil
    }

    public let shots: [Shot]
    /// The `# Title` line, if any.
    public let title: String?
    /// Markup that could be a malformed note, kept from the subject: "FILE:LINE: what" each.
    public let problems: [String]
    /// `note-codes:` above the first shot: the session's note codes (nil: the list sets none).
    public var noteCodes: NoteCodeBook? = nil

    public static let maximumBytes = 1024 * 1024

    public func index(of id: String) -> Int? { shots.firstIndex { $0.id == id } }

    /// Reads and parses `path`; every problem is one line naming the file and line.
    public static func load(path: String) throws(DuoError) -> ShotList {
        try InputFile.requireRegular(path, .text("shot list"), hint: .text("give a Markdown file of '## 01 — Title' shots (see Assets/example-shots.md)"))
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(.text("shot list %s cannot be read; check its permissions", path))
        }
        guard data.count <= maximumBytes else { throw .input(.text("shot list %s is over 1 MB; a shot list holds shots, not scripts", path)) }
        return try parse(bytes: [UInt8](data), name: path)
    }

    public static func parse(bytes: [UInt8], name: String) throws(DuoError) -> ShotList {
        if let nul = bytes.firstIndex(of: 0) {
            throw .input(.text("%s: looks binary (NUL byte at offset %s); give a UTF-8 Markdown shot list", name, nul))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .input(.text("%s: is not valid UTF-8; re-save it as UTF-8", name))
        }
        return try parse(text, name: name)
    }

    /// The list's own field, above the first shot: the session's note codes.
    static let noteCodesKey = "note-codes"
    static let fieldNames: Set<String> = ["note", "notes", "script", "heading", "framing", "aspect", "length"]

    public static func parse(_ text: String, name: String) throws(DuoError) -> ShotList {
        var body = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if body.hasPrefix("\u{FEFF}") { body.removeFirst() }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var shots: [Shot] = []
        var title: String?
        var problems: [String] = []
        var firstLine: [String: Int] = [:]
        var noteCodes: (book: NoteCodeBook, line: Int)?

        /// A shot being read: its heading and the lines under it.
        struct Open { var id: String; var title: String; var titleLine: Int; var lines: [(Int, String)] }
        var open: Open?

        func close(_ o: Open) throws(DuoError) {
            var notes: [String] = [], script: String?, framing: Framing?, aspect: AspectRatio?, length: Double?, heading: String?
            var instruction: [(Int, String)] = []
            for (number, line) in o.lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let colon = trimmed.firstIndex(of: ":") {
                    let key = trimmed[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                    let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    if key == noteCodesKey {
                        throw .input(.text("%s:%s: note-codes: is for the whole list; move it above the first shot (## …)", name, number))
                    }
                    if fieldNames.contains(key) {
                        let at = "\(name):\(number)"
                        switch key {
                        case "note", "notes": if !value.isEmpty { notes.append(value) }
                        case "script":
                            guard !value.isEmpty else { throw .input(.text("%s: script: needs a file, such as script: intro.md", at)) }
                            script = value
                        case "heading":
                            let title = value.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                            guard !title.isEmpty else { throw .input(.text("%s: heading: needs a heading of the script, such as heading: The problem", at)) }
                            heading = title
                        case "framing":
                            guard let f = Framing(rawValue: value.lowercased()) else {
                                throw .input(.text("%s: framing '%s' is not one; write framing: single or framing: interview", at, value))
                            }
                            framing = f
                        case "aspect":
                            guard let a = AspectRatio.parse(value) else {
                                throw .input(.text("%s: aspect '%s' is not an aspect; write aspect: 16:9, 9:16, 1:1 or 4:3", at, value))
                            }
                            aspect = a
                        default:
                            guard let s = parseLength(value) else {
                                throw .input(.text("%s: length '%s' is not a length; write seconds (length: 30s) or minutes and seconds (length: 1:30)", at, value))
                            }
                            length = s
                        }
                        continue
                    }
                }
                instruction.append((number, line))
            }
            // The subject's part: title and instruction with every note (and anything that could be one)
            // removed, through the script's own note stripper. `lineOf` maps its lines to the file's.
            func strip(_ text: String, lineOf: @escaping (Int) -> Int) -> String {
                ScriptParser.stripNotes(text, found: { note, _ in
                    let n = note.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !n.isEmpty { notes.append(n) }
                }, problem: { p in
                    problems.append("\(name):\(lineOf(p.line)): \(p.message)")
                })
            }
            let shownTitle = collapse(strip(o.title, lineOf: { _ in o.titleLine }))
            // The field lines are gone from the instruction (they join no paragraph and split none);
            // blank lines between paragraphs stay.
            let numbers = instruction.map(\.0)
            let shownInstruction = strip(instruction.map(\.1).joined(separator: "\n"),
                                         lineOf: { numbers.isEmpty ? o.titleLine : numbers[min(max($0, 1), numbers.count) - 1] })
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .split(separator: "", omittingEmptySubsequences: true)
                .map { collapse($0.joined(separator: " ")) }
                .joined(separator: "\n")
            shots.append(Shot(subject: SubjectShot(id: o.id, title: shownTitle, instruction: shownInstruction, length: length),
                              notes: notes, script: script, framing: framing, aspect: aspect, expectedSeconds: length,
                              line: o.titleLine, heading: heading))
        }

        var inComment = false
        for (i, line) in lines.enumerated() {
            let number = i + 1
            // A heading inside an HTML comment is the comment's (a private note), not a shot.
            let headingLike = !inComment && line.hasPrefix("## ") && !line.hasPrefix("### ")
            if line.contains("<!--") { inComment = !line[line.range(of: "<!--")!.upperBound...].contains("-->") }
            else if inComment, line.contains("-->") { inComment = false }
            if headingLike {
                if let o = open { try close(o) }
                let heading = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                let id = String(heading.prefix { !$0.isWhitespace && !"—–:".contains($0) })
                guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }),
                      id.count <= 32, !id.hasPrefix(".") else {
                    throw .input(.text("%s:%s: '%s' does not start with a shot id; write '## 01 — Title' (the id: letters, digits, - _ or ., at most 32)", name, number, heading))
                }
                var rest = Substring(heading.dropFirst(id.count))
                rest = rest.drop { $0.isWhitespace || "—–-:.".contains($0) }
                let shotTitle = rest.trimmingCharacters(in: .whitespaces)
                guard !shotTitle.isEmpty else {
                    throw .input(.text("%s:%s: shot %s has no title; write '## %s — Title'", name, number, id, id))
                }
                if let first = firstLine[id] {
                    throw .input(.text("%s:%s: shot id %s is used twice (first at line %s); give each shot its own id", name, number, id, first))
                }
                firstLine[id] = number
                open = Open(id: id, title: shotTitle, titleLine: number, lines: [])
            } else if open != nil {
                open!.lines.append((number, line))
            } else if title == nil, line.hasPrefix("# ") {
                title = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
            } else if !inComment, let colon = line.firstIndex(of: ":"),
                      line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == noteCodesKey {
                guard noteCodes == nil else {
                    throw .input(.text("%s:%s: note-codes: is given twice (first at line %s); keep one line", name, number, noteCodes!.line))
                }
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                noteCodes = (try NoteCodeBook.parse(value, at: "\(name):\(number)"), number)
            }
        }
        if let o = open { try close(o) }
        guard !shots.isEmpty else {
            throw .input(.text("%s:1: no shots; write each shot as a heading '## 01 — Title' with what the subject does under it (see Assets/example-shots.md)", name))
        }
        var list = ShotList(shots: shots, title: title, problems: problems)
        list.noteCodes = noteCodes?.book
        return list
    }

    /// `30`, `30s`, `1:30`, `2m`, `1m30s`: seconds, or nil.
    static func parseLength(_ text: String) -> Double? {
        let t = text.lowercased().replacingOccurrences(of: " ", with: "")
        if let colon = t.firstIndex(of: ":") {
            guard let m = Int(t[..<colon]), let s = Int(t[t.index(after: colon)...]), m >= 0, (0..<60).contains(s) else { return nil }
            return Double(m * 60 + s)
        }
        var total = 0.0, number = "", any = false
        for c in t {
            if c.isNumber || c == "." { number.append(c); continue }
            guard let v = Double(number), c == "s" || c == "m" else { return nil }
            total += c == "m" ? v * 60 : v
            number = ""; any = true
        }
        if !number.isEmpty { guard let v = Double(number) else { return nil }; total += v; any = true }
        return any && total > 0 && total <= 86_400 ? total : nil
    }

    static func collapse(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// What the subject may see of a shot: its id, its title and what it asks of them, notes removed. Only
/// `ShotList`'s parser makes one (internal init), so operator notes cannot be put here.
///
/// Thread: value type, Sendable.
public struct SubjectShot: Sendable, Hashable {
    public let id: String
    public let title: String
    /// What the subject should do or say; paragraphs separated by newlines.
    public let instruction: String
    /// The shot's `length:`, seconds (nil: none): the talent's clock counts down to it (`--talent-clock target`).
    public let length: Double?
    init(id: String, title: String, instruction: String, length: Double? = nil) {
        self.id = id; self.title = title; self.instruction = instruction; self.length = length
    }
}
