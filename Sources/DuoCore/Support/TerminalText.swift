/// Text that someone else chose (a remote peer's refusal reason, a camera's name from its USB
/// descriptor) made safe to print on the operator's terminal or to put in an event: control characters
/// are shown as visible escapes instead of acting on the terminal (an ESC starting a title change or a
/// screen clear, a newline forging a log line, a bidi override reordering what follows), and its length
/// is bounded.
///
/// Thread: pure functions.
public enum TerminalText {
    /// `text` with every C0 control (U+0000–U+001F), DEL, C1 control (U+0080–U+009F), bidi control
    /// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and line/paragraph separator (U+2028,
    /// U+2029) written as `\u{1B}`, cut to at most `limit` characters of output (then ending in "…").
    public static func escaped(_ text: String, limit: Int = 200) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            let piece: String.UnicodeScalarView = isControl(scalar)
                ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars
                : String(scalar).unicodeScalars
            guard count + piece.count <= max(0, limit) else {
                out.append("…")
                return String(out)
            }
            out.append(contentsOf: piece)
            count += piece.count
        }
        return String(out)
    }

    /// Whether `scalar` would act on a terminal or reorder the text around it.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
