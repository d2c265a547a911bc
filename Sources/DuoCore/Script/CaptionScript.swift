/// The script as captions show it: its words as written (the subject's view: notes, cues and markup
/// already gone, since it is built from a `SubjectScript`, which cannot hold them), cut into sentences,
/// and each sentence into caption chunks of at most two lines of at most 42 characters, broken at clause
/// ends where it can. Every chunk knows its script words and recogniser tokens, so an alignment of heard
/// words against `voice` times it.
///
/// Thread: value type, Sendable; pure.
public struct CaptionScript: Sendable, Hashable {
    public static let lineLength = 42
    public static let maximumLines = 2

    /// One sentence of a heading or paragraph: what the review marks read, skipped, repeated or partly.
    public struct Sentence: Sendable, Hashable {
        /// Its text as written (words joined by one space).
        public let text: String
        /// 1-based number of its block (heading or paragraph) among the script's text blocks.
        public let block: Int
        public let isHeading: Bool
        /// Script words (`SubjectScript.words` indices).
        public let words: Range<Int>
        /// Recogniser tokens (`voice.tokens` indices); empty for a sentence of punctuation only.
        public let tokens: Range<Int>
        /// Its caption chunks (`CaptionScript.chunks` indices).
        public let chunks: Range<Int>
    }

    /// One caption's words: one or two lines.
    public struct Chunk: Sendable, Hashable {
        public let lines: [String]
        public let sentence: Int
        public let words: Range<Int>
        public let tokens: Range<Int>
        public var text: String { lines.joined(separator: "\n") }
    }

    public let voice: VoiceScript
    public let sentences: [Sentence]
    public let chunks: [Chunk]
    /// Every script word as shown.
    public let words: [String]

    public init(script: SubjectScript) {
        var blocks: [(heading: Bool, words: [String])] = []
        for block in script.blocks {
            switch block {
            case .heading(_, let runs):
                blocks.append((true, runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).map(String.init)))
            case .paragraph(let runs):
                blocks.append((false, runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).map(String.init)))
            case .pause:
                break
            }
        }
        self.init(blocks: blocks, voice: VoiceScript(script: script))
    }

    init(blocks: [(heading: Bool, words: [String])], voice: VoiceScript) {
        self.voice = voice
        // The first token of every script word (tokens are in word order).
        var firstToken = [Int](repeating: voice.tokens.count, count: voice.wordCount + 1)
        for (t, w) in voice.wordIndices.enumerated().reversed() { firstToken[w] = t }
        for w in stride(from: voice.wordCount - 1, through: 0, by: -1) where firstToken[w] > firstToken[w + 1] {
            firstToken[w] = firstToken[w + 1]
        }
        func tokens(_ words: Range<Int>) -> Range<Int> { firstToken[words.lowerBound]..<firstToken[words.upperBound] }

        var sentences: [Sentence] = [], chunks: [Chunk] = [], all: [String] = []
        var at = 0
        for (b, block) in blocks.enumerated() where !block.words.isEmpty {
            all += block.words
            var begin = 0
            for (i, word) in block.words.enumerated() where i == block.words.count - 1 || Self.endsSentence(word) {
                let sentenceWords = Array(block.words[begin...i])
                let firstChunk = chunks.count
                var offset = 0
                for piece in Self.split(sentenceWords) {
                    let range = (at + begin + offset)..<(at + begin + offset + piece.count)
                    chunks.append(Chunk(lines: Self.lines(piece), sentence: sentences.count, words: range, tokens: tokens(range)))
                    offset += piece.count
                }
                let range = (at + begin)..<(at + i + 1)
                sentences.append(Sentence(text: sentenceWords.joined(separator: " "), block: b + 1, isHeading: block.heading,
                                          words: range, tokens: tokens(range), chunks: firstChunk..<chunks.count))
                begin = i + 1
            }
            at += block.words.count
        }
        self.sentences = sentences
        self.chunks = chunks
        self.words = all
    }

    /// A word after which a sentence ends (`.`, `?`, `!`, `…`, closing quotes and brackets aside).
    static func endsSentence(_ word: String) -> Bool {
        guard let last = word.last(where: { !"\"'’”)]*_".contains($0) }) else { return false }
        return ".?!…".contains(last)
    }

    /// A word after which a clause ends: a good place to break a caption.
    static func endsClause(_ word: String) -> Bool {
        guard let last = word.last(where: { !"\"'’”)]*_".contains($0) }) else { return false }
        return ",;:—–".contains(last) || endsSentence(word)
    }

    /// Characters of `words` on one line.
    static func length(_ words: ArraySlice<String>) -> Int { words.reduce(0) { $0 + $1.count } + max(0, words.count - 1) }

    /// Whether `words` fit in two lines of 42 characters (a single longer word gets a chunk of its own).
    static func fits(_ words: ArraySlice<String>) -> Bool {
        if words.count <= 1 { return true }
        if length(words) <= lineLength { return true }
        return (words.startIndex + 1..<words.endIndex).contains { cut in
            length(words[..<cut]) <= lineLength && length(words[cut...]) <= lineLength
        }
    }

    /// A sentence's words cut into chunks that each fit two lines: greedily as long as fits, but ending at
    /// the last clause end when one leaves at least a third of the room used.
    static func split(_ words: [String]) -> [ArraySlice<String>] {
        var pieces: [ArraySlice<String>] = []
        var start = 0
        while start < words.count {
            if fits(words[start...]) {
                pieces.append(words[start...])
                break
            }
            var end = start + 1
            while end < words.count && fits(words[start...end]) { end += 1 }
            // words[start..<end] fits; prefer a clause end inside it.
            if let clause = (start + 1..<end).last(where: { endsClause(words[$0 - 1]) }),
               length(words[start..<clause]) * 3 >= lineLength * maximumLines {
                end = clause
            }
            pieces.append(words[start..<end])
            start = end
        }
        return pieces
    }

    /// One chunk's lines: one line when it fits, else two as even as can be, preferring a break after a
    /// clause end.
    static func lines(_ words: ArraySlice<String>) -> [String] {
        if words.count <= 1 || length(words) <= lineLength { return [words.joined(separator: " ")] }
        var best: (cut: Int, cost: Int)?
        for cut in words.startIndex + 1..<words.endIndex {
            let a = length(words[..<cut]), b = length(words[cut...])
            guard a <= lineLength && b <= lineLength else { continue }
            let cost = abs(a - b) - (endsClause(words[cut - 1]) ? 12 : 0)
            if best == nil || cost < best!.cost { best = (cut, cost) }
        }
        let cut = best?.cut ?? words.startIndex + 1
        return [words[..<cut].joined(separator: " "), words[cut...].joined(separator: " ")]
    }
}
