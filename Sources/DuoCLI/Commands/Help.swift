import DuoCore

/// `duo-capture --help`: the whole story in one screen, in the operator's language.
///
/// The help is a list of `HelpItem`s, one translatable unit each (a section heading, an option's or
/// command's description, a paragraph); the option and command names on the left are never translated.
/// English is printed exactly as written; a translation is wrapped at `width` display columns (a CJK
/// character takes two), each line of its text at the description's column.
///
/// Thread: constant text; any thread.
enum Help {
    /// Every long option the help names (`--accessory`, …), in order of first mention: the words a
    /// misspelt option is compared with for "did you mean". Read from the English help, whatever the
    /// operator's language.
    static let optionNames: [String] = {
        var names: [String] = [], seen: Set<String> = []
        for word in english.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }) where word.hasPrefix("--") {
            var name = String(word)
            while name.hasSuffix("-") { name.removeLast() }
            if name.count > 3, seen.insert(name).inserted { names.append(name) }
        }
        return names
    }()

    /// The help in the operator's language.
    static var text: String { render(in: Translation.operatorLanguage) }

    /// The help as written, in English (what the man page is made from).
    static let english = render(in: .english)

    /// Every item, in order.
    static var items: [HelpItem] {
        let sections: [[HelpItem]] = [intro, usage, camera, running, subjectView, shotLists, notes, DesktopOptions.help,
                                      remoteDisplays, recording, settings, advanced, exitCodes]
        return sections.flatMap { $0 }
    }

    /// The help in `translator`'s language.
    static func render(in translator: Translator) -> String {
        items.flatMap { $0.lines(in: translator) }.joined(separator: "\n")
    }

    /// How wide a translated help line may be, in display columns.
    static let width = 100
}

/// One translatable piece of the help's layout.
///
/// Thread: immutable value; any thread.
struct HelpItem: Sendable {
    /// Spaces before the term (or the paragraph).
    let indent: Int
    /// An option or command as typed (never translated), or nil for a heading or a paragraph.
    let term: String?
    /// The display column the text starts at.
    let column: Int
    /// The English text (the msgid): its lines break where the English help's do.
    let text: String
    /// False for a line kept as written.
    let translated: Bool

    static let blank = HelpItem(indent: 0, term: nil, column: 0, text: "", translated: false)
    /// A section heading, at the margin.
    static func heading(_ msgid: String) -> HelpItem { HelpItem(indent: 0, term: nil, column: 0, text: msgid, translated: true) }
    /// A paragraph of prose.
    static func prose(_ msgid: String, indent: Int = 2) -> HelpItem {
        HelpItem(indent: indent, term: nil, column: indent, text: msgid, translated: true)
    }
    /// An option or command (indent 2) with its description at column 39.
    static func option(_ term: String, _ msgid: String) -> HelpItem { HelpItem(indent: 2, term: term, column: 39, text: msgid, translated: true) }
    /// A key of the operator window (indent 4) with what it does at column 17.
    static func key(_ key: String, _ msgid: String) -> HelpItem { HelpItem(indent: 4, term: key, column: 17, text: msgid, translated: true) }
    /// A line kept exactly as written.
    static func raw(_ line: String) -> HelpItem { HelpItem(indent: 0, term: nil, column: 0, text: line, translated: false) }

    /// The item's lines in `translator`'s language.
    func lines(in translator: Translator) -> [String] {
        let shown = translated && !text.isEmpty ? translator.text(text) : text
        var body = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if shown != text {
            body = body.flatMap { HelpWrap.wrap($0, width: max(20, Help.width - column)) }
        }
        let margin = String(repeating: " ", count: column)
        guard let term else {
            return body.map { $0.isEmpty ? "" : margin + $0 }
        }
        let left = String(repeating: " ", count: indent) + term
        var out: [String] = []
        if left.count + 2 <= column, let first = body.first {
            out.append(left.padding(toLength: column, withPad: " ", startingAt: 0) + first)
            body.removeFirst()
        } else {
            out.append(left)
        }
        return out + body.map { margin + $0 }
    }
}

/// Line breaking for translated help text by display width: a CJK character takes two columns and a
/// line may break between two of them; other text breaks at spaces.
///
/// Thread: pure functions; any thread.
enum HelpWrap {
    /// Columns `text` takes on a terminal.
    static func width(_ text: Substring) -> Int { text.unicodeScalars.reduce(0) { $0 + width($1) } }

    static func width(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD: 2
        case 0x0300...0x036F, 0x200B...0x200F: 0
        default: 1
        }
    }

    /// Punctuation that may not start a line (it stays with the character before it).
    private static let closing: Set<Character> = ["，", "。", "；", "：", "、", "）", "」", "』", "！", "？", "》", ",", ".", ";", ":", ")"]
    /// Punctuation that may not end a line (it goes with the character after it).
    private static let opening: Set<Character> = ["（", "「", "『", "《", "“", "‘", "("]

    /// `line` in pieces of at most `width` columns (a word longer than that gets a line of its own);
    /// the line's leading spaces stay on its first piece.
    static func wrap(_ line: String, width limit: Int) -> [String] {
        let lead = line.prefix(while: { $0 == " " })
        guard width(Substring(line)) > limit else { return [line] }
        // Units a line may break between: a run of narrow characters (a word), or one wide character
        // with any closing punctuation after it; `space` says whether a space came before the unit.
        var units: [(text: String, space: Bool)] = []
        var pendingSpace = false
        for ch in line.dropFirst(lead.count) {
            if ch == " " { pendingSpace = true; continue }
            let wide = ch.unicodeScalars.first.map { width($0) == 2 } ?? false
            if let last = units.last, !pendingSpace, let end = last.text.last,
               closing.contains(ch) || opening.contains(end) || (!wide && !isWide(end)) {
                units[units.count - 1].text.append(ch)
            } else {
                units.append((String(ch), pendingSpace))
            }
            pendingSpace = false
        }
        var lines: [String] = [], current = String(lead)
        var used = width(Substring(current)), fresh = true
        for unit in units {
            let w = width(Substring(unit.text)), gap = unit.space && !fresh ? 1 : 0
            if !fresh, used + gap + w > limit {
                lines.append(current)
                current = unit.text; used = w
            } else {
                if gap == 1 { current.append(" ") }
                current += unit.text; used += gap + w
            }
            fresh = false
        }
        lines.append(current)
        return lines
    }

    private static func isWide(_ ch: Character) -> Bool { ch.unicodeScalars.first.map { width($0) == 2 } ?? false }
}
