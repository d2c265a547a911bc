import DuoCore

/// The operator's confidence strip (issue 37): the subject view's lines around the reading line, as laid
/// out on the subject's monitor (two above it, three below), and before a block's first line the
/// operator's notes on that block, marked private. Built for the HUD only; never published to any view
/// the subject sees (those get the whitelisted `SubjectViewModel`).
///
/// Thread: pure; called on the presenter's actor (the layout's Pango text is read under its lock).
enum ConfidenceStrip {
    static let before = 2, after = 3

    static func lines(_ script: ParsedScript, layout: PromptLayout, at position: Double) -> [ConfidenceLine] {
        var strip: [ConfidenceLine] = []
        for line in layout.linesAround(units: position, before: before, after: after) {
            if let block = line.block {
                for note in script.operatorNotes where note.blockIndex == block {
                    strip.append(ConfidenceLine(text: note.text, kind: .privateNote))
                }
            }
            strip.append(ConfidenceLine(text: line.text, kind: .subject(reading: line.reading)))
        }
        return strip
    }
}
