/// Errors a user can act on. Each carries one line saying what is wrong and what to do, and a kind that
/// decides the process exit code. Programmer mistakes are preconditions, never a `DuoError`.
///
/// Thread: value type, Sendable; created anywhere.
public struct DuoError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// A bad option or option value (exit 64, like sysexits' EX_USAGE).
        case usage
        /// A file the user gave us is unreadable or malformed: profile, script, pipeline file (exit 65, EX_DATAERR).
        case input
        /// A GStreamer plugin, element or system package is missing (exit 69, EX_UNAVAILABLE).
        case dependency
        /// Something failed while running: the pipeline errored, a device vanished, a disk filled (exit 70, EX_SOFTWARE).
        case runtime

        public var exitCode: Int32 {
            switch self {
            case .usage: 64
            case .input: 65
            case .dependency: 69
            case .runtime: 70
            }
        }
    }

    public let kind: Kind
    /// The line in the operator's language (the terminal, the HUD).
    public let message: String
    /// The same line in English, for what a machine reads (an `error` event, the control socket's answer);
    /// `message` itself when the error was made from a plain string.
    public let english: String

    /// Every error is one line, whatever user text it quotes: line breaks and other control characters
    /// in `message` are written as escapes (`\n`, `\u{7}`).
    public init(_ kind: Kind, _ message: String) {
        self.init(kind, Said(verbatim: message))
    }

    /// An error whose line is marked for translation: `DuoError(.input, .text("cannot read %s", path))`.
    public init(_ kind: Kind, _ said: Said) {
        self.kind = kind
        message = Self.oneLine(said.text)
        english = said.english == said.text ? message : Self.oneLine(said.english)
    }

    private static func oneLine(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return message
        }
        var line = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.properties.generalCategory == .control: line += "\\u{\(String(scalar.value, radix: 16))}"
            default: line.unicodeScalars.append(scalar)
            }
        }
        return line
    }

    public static func usage(_ message: String) -> DuoError { DuoError(.usage, message) }
    public static func input(_ message: String) -> DuoError { DuoError(.input, message) }
    public static func dependency(_ message: String) -> DuoError { DuoError(.dependency, message) }
    public static func runtime(_ message: String) -> DuoError { DuoError(.runtime, message) }
    public static func usage(_ said: Said) -> DuoError { DuoError(.usage, said) }
    public static func input(_ said: Said) -> DuoError { DuoError(.input, said) }
    public static func dependency(_ said: Said) -> DuoError { DuoError(.dependency, said) }
    public static func runtime(_ said: Said) -> DuoError { DuoError(.runtime, said) }

    public var description: String { message }

    /// The line in both languages, to quote inside another marked line: `.text("--operator-display: %s", error.said)`.
    public var said: Said { Said(english: english, text: message) }
}
