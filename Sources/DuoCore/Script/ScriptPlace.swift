import Foundation

/// Where the teleprompter is in its script: the reading position (words, or laid-out lines for a script
/// without spaces), how far that is through the script, and the file's line it sits on. A take's sidecar
/// records one where the take began and one where it ended (its script range); the session journal keeps
/// one so a restarted session scrolls on from it.
///
/// Thread: value type, Sendable.
public struct ScriptPlace: Sendable, Equatable {
    /// The script file.
    public let script: String
    /// The scroll position, in the script's unit (words, or lines for a script without spaces).
    public let position: Double
    /// The script's length in the same unit.
    public let length: Double
    public let unitsAreWords: Bool
    /// The file's line (1-based) of the word being read.
    public let line: Int

    public init(script: String, position: Double, length: Double, unitsAreWords: Bool, line: Int) {
        self.script = script; self.position = position; self.length = length; self.unitsAreWords = unitsAreWords; self.line = line
    }

    /// Where `position` is in `parsed` (its file `script`).
    public init(script: String, position: Double, length: Double, unitsAreWords: Bool, parsed: ParsedScript) {
        let words = parsed.subject.wordCount
        // A script without spaces scrolls by laid-out lines: its word is found by the fraction read.
        let word = unitsAreWords ? Int(position) : Int((length > 0 ? position / length : 0) * Double(words))
        self.init(script: script, position: position, length: length, unitsAreWords: unitsAreWords,
                  line: parsed.line(atWord: min(max(0, word), max(0, words - 1))))
    }

    /// How far through the script, 0…1.
    public var fraction: Double { length > 0 ? min(1, max(0, position / length)) : 0 }
}
