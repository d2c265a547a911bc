/// The small drawing shown with a pose cue, picked from the cue's words.
///
/// Thread: value type, Sendable.
public enum PosePictogram: String, Sendable, Hashable, CaseIterable {
    /// Eyes on the lens.
    case lens
    /// Turn toward the subject's own left / right.
    case turnLeft, turnRight
    /// Chin up / down.
    case up, down
    /// Any other instruction: a head.
    case head

    /// The pictogram for an instruction: "look at the lens" → lens, "turn three-quarters left" → turnLeft.
    public static func forInstruction(_ text: String) -> PosePictogram {
        let words = Set(text.lowercased().split { !$0.isLetter }.map(String.init))
        if words.contains("lens") || words.contains("camera") { return .lens }
        if words.contains("left") { return .turnLeft }
        if words.contains("right") { return .turnRight }
        if words.contains("up") || words.contains("raise") || words.contains("higher") { return .up }
        if words.contains("down") || words.contains("lower") { return .down }
        return .head
    }
}

/// A `[POSE: …]` cue of the script: a short instruction for the subject, shown with a pictogram from its
/// place in the script until the next pose cue or heading. Made only by `ScriptParser`, after the
/// operator's notes are removed, so it never carries a note; it is subject text like the rest.
/// `[POSE]` with nothing after it ends the one shown.
///
/// Thread: value type, Sendable.
public struct PoseCue: Sendable, Hashable {
    /// The instruction, at most `maximumLength` characters; empty ends the cue before it.
    public let text: String
    public let pictogram: PosePictogram
    /// Words of the script before the cue (the scroll unit of scripts with spaces).
    public let wordPosition: Int
    /// The block that follows the cue (for scripts read in lines).
    public let blockIndex: Int

    public static let maximumLength = 60

    init(text: String, wordPosition: Int, blockIndex: Int) {
        self.text = text
        pictogram = PosePictogram.forInstruction(text)
        self.wordPosition = wordPosition
        self.blockIndex = blockIndex
    }

    /// The index into `cues` (at `units`, ascending) of the cue shown at scroll position `position`: the
    /// last one at or before it, unless a marker (heading) lies between, or it is an ending `[POSE]`.
    public static func active(at position: Double, cueUnits: [Double], cues: [PoseCue], markerUnits: [Double]) -> Int? {
        var found: Int?
        for (i, u) in cueUnits.enumerated() where u <= position + 1e-9 { found = i }
        guard let i = found, i < cues.count, !cues[i].text.isEmpty else { return nil }
        let start = cueUnits[i]
        if markerUnits.contains(where: { $0 > start + 1e-9 && $0 <= position + 1e-9 }) { return nil }
        return i
    }
}

extension ScriptParser {
    /// Takes the `[POSE: …]` cues out of one line of subject text (notes already removed): the line
    /// without them, and each cue with the text before it on the line. Case-insensitive `[pose: …]`.
    static func takePoseCues(_ line: String) -> (rest: String, cues: [(before: String, text: String)]) {
        guard line.range(of: "[pose", options: .caseInsensitive) != nil else { return (line, []) }
        var rest = ""
        var cues: [(String, String)] = []
        var s = Substring(line)
        while let open = s.range(of: "[pose", options: .caseInsensitive) {
            let after = s[open.upperBound...]
            // "[POSE:" or "[POSE]" or "[POSE " only: "[poser]" stays text.
            guard let next = after.first, next == ":" || next == "]" || next == " " else {
                rest += s[..<open.upperBound]
                s = after
                continue
            }
            guard let close = after.firstIndex(of: "]") else { break }
            rest += s[..<open.lowerBound]
            var text = after[..<close].drop { $0 == ":" || $0 == " " }.trimmingCharacters(in: .whitespaces)
            if text.count > PoseCue.maximumLength { text = String(text.prefix(PoseCue.maximumLength - 1)) + "…" }
            cues.append((rest, text))
            s = after[after.index(after: close)...]
        }
        rest += s
        return (rest, cues)
    }
}
