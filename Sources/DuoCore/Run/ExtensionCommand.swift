/// A control command that another entry point registered, parsed by its own parser: its name and its
/// fields as text. duo-capture registers none; duo-capture-testhub registers the test hub's faults.
///
/// Thread: value type, Sendable.
public struct ExtensionCommand: Sendable, Hashable {
    public let name: String
    public let fields: [String: String]
    public init(name: String, fields: [String: String] = [:]) {
        self.name = name
        self.fields = fields
    }
}

/// The registry of extension commands, consulted by `ControlCommand.parse` for a `cmd` it does not know.
///
/// Thread: any; registered at start-up, before any command is parsed.
public enum CommandExtensions {
    /// Reads one command's JSON object; every problem is a one-line usage error saying what a good line
    /// looks like.
    public typealias Parser = @Sendable ([String: Any]) throws(DuoError) -> ExtensionCommand
    private static let parsers = Locked<[String: Parser]>([:])

    public static func register(_ name: String, _ parse: @escaping Parser) { parsers.update { $0[name] = parse } }
    public static func parser(for name: String) -> Parser? { parsers.value[name] }
    /// The registered commands' names, sorted.
    public static var names: [String] { parsers.value.keys.sorted() }
}
