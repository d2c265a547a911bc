/// An option's value that is one word of a few (`--framing single`, `--theme high-contrast`): each
/// case's raw value is its word, and any other word is a usage error that says which words to give
/// (and, for a CaseIterable type, which one was likely meant).
///
/// Thread: a protocol for value types (the enums of the options).
public protocol OptionWord: RawRepresentable where RawValue == String {
    /// The one-line error for `text`, naming the words to use instead.
    static func unknownWord(_ text: String) -> String
}

extension OptionWord {
    public static func parse(_ text: String) throws(DuoError) -> Self {
        guard let value = Self(rawValue: text) else {
            throw .usage(Suggestion.adding(to: unknownWord(text), for: text, among: knownWords))
        }
        return value
    }

    /// Every word this option takes, when its type lists its cases (for "did you mean").
    public static var knownWords: [String] {
        guard let all = Self.self as? any CaseIterable.Type else { return [] }
        return words(of: all)
    }

    private static func words<Cases: CaseIterable>(of type: Cases.Type) -> [String] {
        Cases.allCases.compactMap { ($0 as? Self)?.rawValue }
    }
}
