/// An option's value that is one word of a few (`--framing single`, `--theme high-contrast`): each
/// case's raw value is its word, and any other word is a usage error that says which words to give.
///
/// Thread: a protocol for value types (the enums of the options).
public protocol OptionWord: RawRepresentable where RawValue == String {
    /// The one-line error for `text`, naming the words to use instead.
    static func unknownWord(_ text: String) -> String
}

extension OptionWord {
    public static func parse(_ text: String) throws(DuoError) -> Self {
        guard let value = Self(rawValue: text) else { throw .usage(unknownWord(text)) }
        return value
    }
}
