import Foundation

/// A compiled gettext catalogue (`.mo`, as `msgfmt` writes it) read in pure Swift, for a language other
/// than the process's: the subject's (`--subject-language`), a phone's (`Accept-Language`). The
/// operator's language goes through gettext itself (DuoPlatform's `Gettext`), which knows one language
/// per process.
///
/// Thread: immutable value; any thread.
public struct MessageCatalog: Sendable {
    public let language: String
    /// msgid (the singular, for plural entries) → its translations (one, or one per plural form).
    private let entries: [String: [String]]
    private let rule: PluralRule

    /// Reads `data` (a `.mo` file's bytes) as the catalogue of `language`.
    public init(language: String, data: [UInt8]) throws(DuoError) {
        func bad(_ why: String) -> DuoError { .input("the \(language) translation is damaged (\(why)); reinstall duo-capture") }
        guard data.count >= 28 else { throw bad("too short") }
        let little: Bool
        switch (data[0], data[1], data[2], data[3]) {
        case (0xde, 0x12, 0x04, 0x95): little = true
        case (0x95, 0x04, 0x12, 0xde): little = false
        default: throw bad("not a gettext catalogue")
        }
        func word(_ at: Int) throws(DuoError) -> Int {
            guard at >= 0, at + 4 <= data.count else { throw bad("a table runs past the end") }
            let b = (UInt32(data[at]), UInt32(data[at + 1]), UInt32(data[at + 2]), UInt32(data[at + 3]))
            return Int(little ? b.0 | b.1 << 8 | b.2 << 16 | b.3 << 24 : b.3 | b.2 << 8 | b.1 << 16 | b.0 << 24)
        }
        func string(_ table: Int, _ i: Int) throws(DuoError) -> [String] {
            let length = try word(table + 8 * i), offset = try word(table + 8 * i + 4)
            guard offset + length <= data.count else { throw bad("a string runs past the end") }
            return data[offset..<offset + length].split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        let count = try word(8), originals = try word(12), translations = try word(16)
        var entries: [String: [String]] = [:]
        var header = ""
        for i in 0..<count {
            let id = try string(originals, i), text = try string(translations, i)
            guard let key = id.first else { continue }
            if key.isEmpty { header = text.first ?? ""; continue }
            // A fuzzy or empty translation is not shipped by msgfmt; an empty form falls back to English.
            if text.contains(where: { !$0.isEmpty }) { entries[key] = text }
        }
        self.language = language
        self.entries = entries
        let forms = header.split(separator: "\n").first { $0.lowercased().hasPrefix("plural-forms:") }
        let expression = forms.flatMap { line in
            line.split(separator: ";").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("plural=") }
                .map { String($0.trimmingCharacters(in: .whitespaces).dropFirst("plural=".count)) }
        }
        rule = expression.flatMap { try? PluralRule($0) } ?? PluralRule.germanic
    }

    /// Reads `path`.
    public init(language: String, path: String) throws(DuoError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input("cannot read the \(language) translation \(path); reinstall duo-capture")
        }
        try self.init(language: language, data: Array(data))
    }

    public var count: Int { entries.count }

    public func translation(_ msgid: String) -> String? {
        guard let t = entries[msgid]?.first, !t.isEmpty else { return nil }
        return t
    }

    public func translation(_ one: String, count n: Int) -> String? {
        guard let forms = entries[one] else { return nil }
        let i = rule.form(for: n)
        guard i < forms.count, !forms[i].isEmpty else { return nil }
        return forms[i]
    }

    /// The catalogue for `language` in `directory` (`share/locale`), trying `zh_CN.UTF-8`, `zh_CN`, `zh`
    /// in turn; nil when none is installed.
    public static func find(_ language: String, in directory: String) -> String? {
        for candidate in LanguageTag.candidates(language) {
            let path = "\(directory)/\(candidate)/LC_MESSAGES/\(domain).mo"
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        return nil
    }

    /// The languages installed in `directory` (folder names holding our catalogue), sorted.
    public static func installed(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: "\(directory)/\($0)/LC_MESSAGES/\(domain).mo") }.sorted()
    }

    /// gettext's text domain.
    public static let domain = "duo-capture"
}

/// Language names as people and browsers write them.
///
/// Thread: stateless.
public enum LanguageTag {
    /// `zh-CN.UTF-8@x` → [`zh_CN.UTF-8@x`, `zh_CN.UTF-8`, `zh_CN`, `zh`] (BCP 47 hyphens become POSIX underscores).
    public static func candidates(_ tag: String) -> [String] {
        var name = tag.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return [] }
        // Hyphens only in the language and region (`zh-CN`), never in the codeset (`UTF-8`).
        let end = name.firstIndex { $0 == "." || $0 == "@" } ?? name.endIndex
        name = name[..<end].replacingOccurrences(of: "-", with: "_") + name[end...]
        if let u = name.firstIndex(of: "_") {
            let region = name[name.index(after: u)...].prefix { $0.isLetter || $0.isNumber }
            name = name[..<u].lowercased() + "_" + region.uppercased() + name[name.index(after: u)...].dropFirst(region.count)
        } else {
            name = name.lowercased()
        }
        var out = [name]
        if let at = name.firstIndex(of: "@") { out.append(String(name[..<at])) }
        if let dot = out.last!.firstIndex(of: ".") { out.append(String(out.last![..<dot])) }
        if let u = out.last!.firstIndex(of: "_") { out.append(String(out.last![..<u])) }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    /// An HTTP `Accept-Language` value's languages, best first (`zh-CN,zh;q=0.9,en;q=0.8`); `*` and
    /// q=0 left out.
    public static func accepted(_ header: String) -> [String] {
        var ranked: [(tag: String, q: Double, order: Int)] = []
        for (i, part) in header.split(separator: ",").enumerated() {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = fields.first, !tag.isEmpty, tag != "*" else { continue }
            var q = 1.0
            for f in fields.dropFirst() where f.hasPrefix("q=") { q = Double(f.dropFirst(2)) ?? 0 }
            if q > 0 { ranked.append((tag, q, i)) }
        }
        return ranked.sorted { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }.map(\.tag)
    }

    /// Whether `tag` names English, the language the sources are written in.
    public static func isEnglish(_ tag: String) -> Bool {
        let c = candidates(tag).last ?? ""
        return c == "en" || c == "c" || c == "posix"
    }
}

/// A catalogue's `Plural-Forms` rule (`plural=(n != 1);`, `plural=0;`, the Slavic three-way rules): a C
/// expression in `n` evaluated to the index of the form.
///
/// Thread: immutable value.
public struct PluralRule: Sendable {
    private indirect enum Node: Sendable {
        case n, number(Int)
        case not(Node)
        case binary(String, Node, Node)
        case choice(Node, Node, Node)
    }
    private let root: Node

    /// English, German and most others: the first form for 1, the second otherwise.
    public static let germanic = try! PluralRule("n != 1")

    public init(_ expression: String) throws(DuoError) {
        var p = Parser(tokens: try Self.tokens(expression))
        root = try p.ternary()
        guard p.at == p.tokens.count else { throw .input("the plural rule \(expression) has text after its end") }
    }

    public func form(for n: Int) -> Int { max(0, Self.evaluate(root, n)) }

    private static func evaluate(_ node: Node, _ n: Int) -> Int {
        switch node {
        case .n: return n
        case .number(let v): return v
        case .not(let a): return evaluate(a, n) == 0 ? 1 : 0
        case .choice(let c, let a, let b): return evaluate(c, n) != 0 ? evaluate(a, n) : evaluate(b, n)
        case .binary(let op, let a, let b):
            let x = evaluate(a, n), y = evaluate(b, n)
            switch op {
            case "||": return x != 0 || y != 0 ? 1 : 0
            case "&&": return x != 0 && y != 0 ? 1 : 0
            case "==": return x == y ? 1 : 0
            case "!=": return x != y ? 1 : 0
            case "<": return x < y ? 1 : 0
            case "<=": return x <= y ? 1 : 0
            case ">": return x > y ? 1 : 0
            case ">=": return x >= y ? 1 : 0
            case "+": return x &+ y
            case "-": return x &- y
            case "*": return x &* y
            case "/": return y == 0 ? 0 : x / y
            case "%": return y == 0 ? 0 : x % y
            default: return 0
            }
        }
    }

    private static func tokens(_ s: String) throws(DuoError) -> [String] {
        var out: [String] = []
        var chars = Array(s)[...]
        while let c = chars.first {
            if c.isWhitespace { chars = chars.dropFirst(); continue }
            if c.isNumber {
                let digits = chars.prefix(while: \.isNumber)
                out.append(String(digits)); chars = chars.dropFirst(digits.count); continue
            }
            let two = String(chars.prefix(2))
            if ["||", "&&", "==", "!=", "<=", ">="].contains(two) { out.append(two); chars = chars.dropFirst(2); continue }
            guard "n!<>+-*/%?:()".contains(c) else { throw .input("the plural rule \(s) has \(c), which gettext does not know") }
            out.append(String(c)); chars = chars.dropFirst()
        }
        return out
    }

    private struct Parser {
        let tokens: [String]
        var at = 0
        mutating func take(_ t: String) -> Bool {
            guard at < tokens.count, tokens[at] == t else { return false }
            at += 1
            return true
        }
        mutating func ternary() throws(DuoError) -> Node {
            let c = try binary(0)
            guard take("?") else { return c }
            let a = try ternary()
            guard take(":") else { throw .input("the plural rule has ? without :") }
            return .choice(c, a, try ternary())
        }
        static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]
        mutating func binary(_ level: Int) throws(DuoError) -> Node {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level + 1)
            while at < tokens.count, Self.levels[level].contains(tokens[at]) {
                let op = tokens[at]; at += 1
                left = .binary(op, left, try binary(level + 1))
            }
            return left
        }
        mutating func unary() throws(DuoError) -> Node {
            if take("!") { return .not(try unary()) }
            if take("(") {
                let inner = try ternary()
                guard take(")") else { throw .input("the plural rule has ( without )") }
                return inner
            }
            guard at < tokens.count else { throw .input("the plural rule ends too soon") }
            let t = tokens[at]; at += 1
            if t == "n" { return .n }
            if let v = Int(t) { return .number(v) }
            throw .input("the plural rule has \(t) where a number or n belongs")
        }
    }
}
