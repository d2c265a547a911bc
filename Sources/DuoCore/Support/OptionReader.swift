/// The one command-line reader: `duo-capture` and its sub-commands (render-subject) read their options
/// through it, so values, numbers and their errors behave the same everywhere.
///
/// - `--name value` and `--name=value` are the same;
/// - a value may not look like another option (`--…`), except `-` alone;
/// - numbers are plain decimals (`12`, `0.5`, `-3`): no hex, exponent, `inf` or `nan`.
///
/// Thread: value type; parsed on the main thread at start-up.
public struct OptionReader {
    private var args: ArraySlice<String>
    /// Appended to "needs a value" errors: where the syntax is explained.
    private let help: String

    public init(_ arguments: [String], help: String = tr("run duo-capture --help for the syntax")) {
        args = arguments[...]
        self.help = help
    }

    /// The next option or argument (with `--name=value` split: the value comes next), nil at the end.
    public mutating func next() -> String? {
        guard let arg = args.popFirst() else { return nil }
        if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
            args.insert(String(arg[arg.index(after: eq)...]), at: args.startIndex)
            return String(arg[..<eq])
        }
        return arg
    }

    public mutating func value(_ name: String) throws(DuoError) -> String {
        guard let v = args.popFirst(), !v.hasPrefix("--") || v == "-" else {
            throw .usage(.text("%s needs a value; %s", name, help))
        }
        return v
    }

    /// An option's value that may be left out (`--screen [MONITOR]`): the next argument unless there is
    /// none or it is another option (`-…`).
    public mutating func optionalValue() -> String? {
        guard let v = args.first, !v.hasPrefix("-") else { return nil }
        return args.popFirst()
    }

    /// A plain decimal within `range`.
    public mutating func number(_ name: String, _ range: ClosedRange<Double>) throws(DuoError) -> Double {
        let text = try value(name)
        guard let n = Self.decimal(text), range.contains(n) else {
            throw .usage(.text("%s %s: give a number from %s to %s", name, text, Self.clean(range.lowerBound), Self.clean(range.upperBound)))
        }
        return n
    }

    /// `text` as a plain decimal number, or nil (Swift's own `Double("0x10")` would read hex).
    public static func decimal(_ text: String) -> Double? {
        var digits = 0, dots = 0
        for (i, c) in text.enumerated() {
            if c == "-" || c == "+" { if i != 0 { return nil } }
            else if c == "." { dots += 1 }
            else if c.isASCII, c.isNumber { digits += 1 }
            else { return nil }
        }
        guard digits > 0, dots <= 1, let n = Double(text), n.isFinite else { return nil }
        return n
    }

    static func clean(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}

extension SubjectSetup {
    /// The subject-view options every command shares. Applies `name` when it is one (reading its value
    /// from `reader`) and returns true; returns false for any other option.
    public mutating func apply(_ name: String, from reader: inout OptionReader) throws(DuoError) -> Bool {
        switch name {
        case "--accessory": accessory = try AccessoryKind.parse(try reader.value(name))
        case "--script": scriptPath = try reader.value(name)
        case "--display-profile": displayProfilePath = try reader.value(name)
        case "--mirror": mirror = try MirrorFlags.parse(try reader.value(name)); mirrorGiven = true
        case "--lens": lens = try LensPosition.parse(try reader.value(name))
        case "--self-view": selfView = try SelfViewSize.parse(try reader.value(name))
        case "--talent-clock": talentClock = try TalentClock.parse(try reader.value(name))
        case "--theme": theme = try PromptTheme.parse(try reader.value(name))
        case "--subject-language":
            let tag = try reader.value(name)
            guard !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.@".contains($0)) }) else {
                throw .usage(tr("--subject-language '%s': give a language such as zh_CN, de or en", tag))
            }
            languageTag = tag
        case "--wpm": wordsPerMinute = try reader.number(name, 1...1000)
        case "--lines-per-minute": linesPerMinute = try reader.number(name, 0.1...300)
        case "--font-size":
            fontSize = try reader.number(name, 6...400)
            if lines != nil { throw .usage(.text("give --font-size or --lines, not both (--lines sizes the text to fit that many lines)")) }
        case "--lines":
            let n = try reader.number(name, 3...40)
            guard n == n.rounded() else { throw .usage(.text("--lines %s: give a whole number of lines from 3 to 40", OptionReader.clean(n))) }
            lines = Int(n)
            if fontSize != nil { throw .usage(.text("give --font-size or --lines, not both (--lines sizes the text to fit that many lines)")) }
        case "--reading-line": readingLine = try reader.number(name, 0.05...0.95)
        default: return false
        }
        return true
    }
}
