/// The script as a speech recogniser sees it: lowercase words without punctuation ("tokens"), each tied
/// to the script word (whitespace-separated run, as `SubjectScript.wordCount` counts them) it came from.
/// A hyphenated word gives several tokens ("duo-capture" → "duo", "capture") with the same word index,
/// so each piece can be found in the pronouncing dictionary.
///
/// Thread: value type, Sendable.
public struct VoiceScript: Sendable, Hashable {
    /// Recognisable words in reading order: lowercase letters, digits and inner apostrophes.
    public let tokens: [String]
    /// For each token, the index of the script word it is part of (0-based, `SubjectScript` word order).
    public let wordIndices: [Int]
    /// For each token, whether a sentence ends after it (`.`, `?`, `!`, `:`, `;` or the end of a block):
    /// the language model's `</s>` follows it.
    public let endsSentence: [Bool]
    /// The number of script words (scroll units), which may exceed the last token's word index + 1 when
    /// the script ends with words that give no token (pure punctuation).
    public let wordCount: Int

    /// Words as `SubjectScript.wordCount` counts them, in block order, each block ending a sentence.
    public init(script: SubjectScript) {
        var blocks: [[String]] = []
        for block in script.blocks {
            switch block {
            case .heading(_, let runs), .paragraph(let runs):
                blocks.append(runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).map(String.init))
            case .pause:
                break
            }
        }
        self.init(blocks: blocks)
    }

    /// One block of whitespace-separated words (a test's or a plain text's script).
    public init(words: [String]) {
        self.init(blocks: [words])
    }

    /// The words of `text`, split at whitespace, as one block.
    public init(text: String) {
        self.init(words: text.split(whereSeparator: \.isWhitespace).map(String.init))
    }

    init(blocks: [[String]]) {
        var tokens: [String] = [], wordIndices: [Int] = [], endsSentence: [Bool] = []
        var word = 0
        for block in blocks {
            for raw in block {
                let pieces = VoiceScript.normalise(raw)
                for piece in pieces {
                    tokens.append(piece)
                    wordIndices.append(word)
                    endsSentence.append(false)
                }
                if !pieces.isEmpty, let last = raw.last(where: { !"\"'’”)]*_".contains($0) }),
                   ".?!:;".contains(last) {
                    endsSentence[endsSentence.count - 1] = true
                }
                word += 1
            }
            if !endsSentence.isEmpty { endsSentence[endsSentence.count - 1] = true }
        }
        self.tokens = tokens
        self.wordIndices = wordIndices
        self.endsSentence = endsSentence
        self.wordCount = word
    }

    /// A word's recognisable pieces: lowercased, curly apostrophes made straight, split at every character
    /// that is not a letter, digit or inner apostrophe ("Hello," → ["hello"], "duo-capture" → ["duo",
    /// "capture"], "you’re" → ["you're"], "—" → []).
    public static func normalise(_ word: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        func flush() {
            let trimmed = current.drop { $0 == "'" }.reversed().drop { $0 == "'" }.reversed()
            if !trimmed.isEmpty { pieces.append(String(trimmed)) }
            current = ""
        }
        for ch in word.lowercased() {
            if ch.isLetter || ch.isNumber {
                current.append(ch)
            } else if ch == "'" || ch == "’" || ch == "‘" {
                current.append("'")
            } else {
                flush()
            }
        }
        flush()
        return pieces
    }
}
