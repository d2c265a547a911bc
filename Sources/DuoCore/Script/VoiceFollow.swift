import Foundation

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

/// How sure voice-follow is of where the speaker is.
///
/// Thread: value type, Sendable.
public enum VoiceFollowState: Sendable, Hashable {
    /// Recent recognised words match the script here.
    case following
    /// The speaker is talking but recent words do not match the script: the position advances at the
    /// speaker's recent pace for a bounded time.
    case unsure
    /// Nothing new was heard for a while (or nothing yet): the position stands still.
    case holding
}

/// Follows a speaker through a script from a recogniser's hypotheses (`pocketsphinx` messages: partial
/// hypotheses that grow and get revised within an utterance, then a final one).
///
/// Each hypothesis of an utterance is aligned again from where the utterance began (an edit-distance
/// alignment in a window around the position, allowing misrecognised, inserted and skipped words and a
/// restart a little behind, which is how a repeated sentence is explained without moving). Long
/// utterances are committed in steps so that the work per hypothesis stays bounded. When the latest words
/// do not fit near the position, the rest of the script ahead is searched for them; a jump needs more
/// matching words the farther it goes (words heard in the script's order count for more). The followed position only moves forward: noise never moves it
/// back. A position moves on a match only when a neighbouring word matched too, so one coincidental word
/// (an ad-lib recognised as a script word) does not move it.
///
/// Positions are in script words from the start, like `ScrollModel`'s: after the speaker has said word
/// `k` (0-based) the position is `k + 1`.
///
/// Thread: value type, owned by whoever feeds it (feed and read it on one thread, or under one lock).
public struct VoiceAligner: Sendable {
    /// The numbers that shape the alignment. The defaults were tuned on espeak-ng readings recognised by
    /// pocketsphinx with a language model of the script.
    public struct Tuning: Sendable, Hashable {
        /// Without new words for this long, the state is `.holding` and the position stands still.
        public var silenceNanoseconds: Int64 = 1_500_000_000
        /// While unsure, the position advances at the recent pace for at most this long after the last match...
        public var unsureAdvanceNanoseconds: Int64 = 3_000_000_000
        /// ...and by at most this many words.
        public var unsureAdvanceWords: Double = 4
        /// While following, the position runs ahead of the last matched word at the recent pace (the
        /// recogniser reports a word only after it has been said) by at most this many words.
        public var followLeadWords: Double = 1.5
        /// The pace assumed before enough words have been matched to measure one.
        public var defaultWordsPerSecond: Double = 2.5
        /// The recent pace is measured over matches from this far back.
        public var paceWindowNanoseconds: Int64 = 8_000_000_000
        /// This many trailing hypothesis words in a row without a match make the state `.unsure`.
        public var unsureAfterUnmatchedWords = 3
        /// Tokens behind the utterance's start where an utterance may begin (a repeated sentence).
        public var backWindow = 24
        /// Tokens ahead searched by the local alignment (plus 1.5 times the words aligned).
        public var forwardWindow = 24
        /// How far ahead a skip is searched for.
        public var skipSearchTokens = 4000
        /// Matches a jump of `forwardWindow` tokens needs; each doubling of the distance adds `skipEvidencePerDoubling`.
        public var skipEvidence: Double = 3.0
        public var skipEvidencePerDoubling: Double = 0.5
        public init() {}
    }

    // Scores of the alignment: a match earns, everything else costs.
    static let substitutionCost = 0.6
    static let insertionCost = 0.6
    static let deletionCost = 0.4
    static let backStartCost = 0.5
    static let backStartCostPerToken = 0.1
    /// The score of a few words around a match that moves the position.
    static let commitEvidence = 1.5
    static let finalCommitEvidence = 1.0
    /// Added, when searching far ahead, to a match whose word follows the previous word's match directly.
    static let runBonus = 0.3

    public let script: VoiceScript
    public var tuning: Tuning

    /// Token ids (indices into the vocabulary) of the script.
    private let ids: [Int32]
    private let vocabulary: [String: Int32]
    /// What matching each token is worth: 1 for a long word found once nearby, less for short words and
    /// words that occur often nearby ("the", "a"), which a recogniser restricted to the script also
    /// produces from noise and ad-libs.
    private let weights: [Double]

    /// Tokens the speaker has said, as far as the alignment is sure: the next expected token. Only grows
    /// (except through `reset`).
    public private(set) var committedToken: Int
    /// The current utterance's hypothesis words (ids, -1 for words not in the script).
    private var hypothesis: [Int32] = []
    /// Where the current utterance's alignment starts: this hypothesis word at this token.
    private var baseWord = 0
    private var baseToken: Int
    /// Trailing hypothesis words since the last match.
    public private(set) var unmatchedWords = 0
    /// Trailing unmatched hypothesis words before `baseWord` (older parts and earlier utterances).
    private var unmatchedBeforeBase = 0
    /// When the hypothesis last changed (anything heard), nil before the first.
    private var lastHeard: Int64?
    /// When the position was last committed...
    private var anchorTime: Int64 = 0
    /// ...and when speech resumed after a silence: the paced advance starts at the later of the two, so
    /// a speaker who starts again after a pause does not see the line leap.
    private var resumeTime: Int64 = 0
    /// The displayed position never goes below this (the value shown when the last hypothesis came).
    private var floor: Double
    /// Recent commits, for the pace: (time, words).
    private var recent: [(time: Int64, words: Double)] = []

    /// - Parameters:
    ///   - script: the script's tokens.
    ///   - startWord: where the speaker starts (0: the beginning).
    public init(script: VoiceScript, startWord: Int = 0, tuning: Tuning = Tuning()) {
        self.script = script
        self.tuning = tuning
        var vocabulary: [String: Int32] = [:]
        var ids: [Int32] = []
        ids.reserveCapacity(script.tokens.count)
        for token in script.tokens {
            let id = vocabulary[token] ?? Int32(vocabulary.count)
            vocabulary[token] = id
            ids.append(id)
        }
        self.ids = ids
        self.vocabulary = vocabulary
        self.weights = VoiceAligner.matchWeights(ids: ids, tokens: script.tokens)
        let start = VoiceAligner.firstToken(atOrAfterWord: startWord, in: script)
        committedToken = start
        baseToken = start
        floor = Double(min(max(startWord, 0), script.wordCount))
    }

    // MARK: Reading

    /// The position (in words) of the last word the alignment is sure of, without any paced advance.
    public var matchedPosition: Double { wordPosition(afterTokens: committedToken) }

    /// The state at `time` (nanoseconds, the same clock as the hypotheses' times).
    public func state(at time: Int64) -> VoiceFollowState {
        guard let lastHeard, time - lastHeard < tuning.silenceNanoseconds else { return .holding }
        return unmatchedWords >= tuning.unsureAfterUnmatchedWords ? .unsure : .following
    }

    /// Words per second measured from recent matches, or the default.
    public var pace: Double {
        guard let first = recent.first, let last = recent.last else { return tuning.defaultWordsPerSecond }
        let seconds = Double(last.time - first.time) / 1e9
        let words = last.words - first.words
        guard seconds >= 2, words >= 4 else { return tuning.defaultWordsPerSecond }
        return min(max(words / seconds, 1.0), 5.0)
    }

    /// Where the reading line should be at `time`: the matched position plus a paced advance (small while
    /// following, up to `unsureAdvanceWords` while unsure, none after a silence), never below what was
    /// shown when the last hypothesis came, never past the end.
    public func position(at time: Int64) -> Double {
        let matched = matchedPosition
        var result = matched
        if let lastHeard {
            let holdStart = lastHeard + tuning.silenceNanoseconds
            let end = min(time, holdStart)
            let elapsed = Double(max(0, end - max(anchorTime, resumeTime))) / 1e9
            switch state(at: min(time, holdStart - 1)) {
            case .following:
                result += min(pace * elapsed, tuning.followLeadWords)
            case .unsure:
                let bounded = min(elapsed, Double(tuning.unsureAdvanceNanoseconds) / 1e9)
                result += min(pace * bounded, tuning.unsureAdvanceWords)
            case .holding:
                break
            }
        }
        return min(max(result, floor), Double(script.wordCount))
    }

    // MARK: Feeding

    /// The operator moved the script: follow from `word` (0-based) on, forgetting the utterance so far.
    public mutating func reset(toWord word: Int, at time: Int64) {
        committedToken = VoiceAligner.firstToken(atOrAfterWord: word, in: script)
        baseToken = committedToken
        baseWord = hypothesis.count
        floor = Double(min(max(word, 0), script.wordCount))
        anchorTime = time
        recent = []
        unmatchedWords = 0
        unmatchedBeforeBase = 0
    }

    /// Takes one hypothesis: the recogniser's whole text of the current utterance so far (`isFinal`: the
    /// utterance ended; the next hypothesis starts a new one), at `time` (nanoseconds).
    public mutating func feed(hypothesis text: String, isFinal: Bool, at time: Int64) {
        let shown = position(at: time)
        let words = text.split(whereSeparator: \.isWhitespace).flatMap { VoiceScript.normalise(String($0)) }
        let newIds = words.map { vocabulary[$0] ?? -1 }
        if newIds != hypothesis {
            if lastHeard.map({ time - $0 >= tuning.silenceNanoseconds }) ?? true { resumeTime = time }
            lastHeard = time
        }
        hypothesis = newIds
        if baseWord > hypothesis.count { baseWord = hypothesis.count }
        align(at: time, isFinal: isFinal)
        floor = max(floor, shown)
        if isFinal {
            unmatchedBeforeBase = unmatchedWords
            hypothesis = []
            baseWord = 0
            baseToken = committedToken
        }
    }

    // MARK: Alignment

    private enum Op: UInt8 { case start, match, substitute, insert, delete }

    private struct Step {
        var op: Op
        /// The token matched or substituted (match/substitute), else -1.
        var token: Int
        var score: Double
    }

    private mutating func align(at time: Int64, isFinal: Bool) {
        let segment = Array(hypothesis[baseWord...])
        guard !segment.isEmpty else { return }
        let steps = localAlignment(segment, from: baseToken)
        // A match moves the position when the words around it score enough (matches of rare words,
        // few misrecognised, inserted or passed-over words): the word and the next two, or, when it
        // follows straight on from the word before, the word and the three before. A match after
        // passed-over words needs the words after it: the newest word of a partial hypothesis is often
        // the language model's guess, revised a moment later. A final hypothesis is no guess: its last
        // words need less.
        var supportedIndex = -1
        var supportedToken = -1
        for (i, step) in steps.enumerated() where step.op == .match {
            let j = step.token
            let ahead = steps[i..<min(i + 3, steps.count)].reduce(0) { $0 + $1.score }
            let straight = j == committedToken || (i > 0 && steps[i - 1].token == j - 1)
            let behind = steps[max(0, i - 3)...i].reduce(0) { $0 + $1.score }
            let next = j == committedToken && weights[j] >= 0.5
            let needed = isFinal && i >= steps.count - 2 ? Self.finalCommitEvidence : Self.commitEvidence
            if ahead >= needed || (straight && (behind >= needed || next)) {
                supportedIndex = i
                supportedToken = j
            }
        }
        // Words said again from just behind (a repeat: two of them in script order, not both as common
        // as "of the") are heard as the script: not a reason to be unsure.
        let behindStart = max(0, committedToken - tuning.backWindow)
        func repeated(_ k: Int) -> Bool {
            guard behindStart + 1 < committedToken else { return false }
            for j in behindStart..<(committedToken - 1) where weights[j] + weights[j + 1] >= 0.8 {
                if k + 1 < segment.count, ids[j] == segment[k], ids[j + 1] == segment[k + 1] { return true }
                if k > 0, ids[j] == segment[k - 1], ids[j + 1] == segment[k] { return true }
            }
            return false
        }
        let trailing = ((supportedIndex + 1)..<steps.count).filter { steps[$0].op != .match && !repeated($0) }.count
        unmatchedWords = supportedIndex >= 0 ? trailing : unmatchedBeforeBase + trailing

        // When the newest words do not fit here, they may fit far ahead (a skipped paragraph): a jump
        // there takes precedence over any small move here, and the rest of the utterance is aligned from it.
        if let jump = skipSearch(segment, steps: steps, after: supportedIndex) {
            recent = []
            commit(jump, at: time)
            baseWord = hypothesis.count
            baseToken = jump
            unmatchedWords = 0
            unmatchedBeforeBase = 0
            return
        }
        if supportedToken + 1 > committedToken {
            commit(supportedToken + 1, at: time)
        }

        // A long utterance: commit its older part so each hypothesis costs a bounded alignment. The
        // newest words stay open to revision by later hypotheses.
        let keep = 12
        if segment.count > keep * 2 {
            let cut = segment.count - keep
            var pointer = baseToken
            for step in steps[..<cut] where step.token >= 0 { pointer = step.token + 1 }
            baseToken = pointer
            baseWord += cut
            if supportedIndex >= 0 && supportedIndex < cut {
                unmatchedBeforeBase = cut - 1 - supportedIndex
            } else if supportedIndex < 0 {
                unmatchedBeforeBase += cut
            } else {
                unmatchedBeforeBase = 0
            }
        }
    }

    private mutating func commit(_ token: Int, at time: Int64) {
        committedToken = min(token, script.tokens.count)
        anchorTime = time
        let words = matchedPosition
        recent.append((time, words))
        recent.removeAll { time - $0.time > tuning.paceWindowNanoseconds }
    }

    /// Aligns the hypothesis words with the script from token `start`, allowing the utterance to begin a
    /// little behind (a repeat) or ahead (skipped words). Returns one step per hypothesis word.
    private func localAlignment(_ segment: [Int32], from start: Int) -> [Step] {
        let n = ids.count
        let m = segment.count
        let lo = max(0, start - tuning.backWindow)
        let hi = min(n, start + tuning.forwardWindow + m + m / 2)
        let width = hi - lo + 1 // pointer states lo...hi
        let negative = -Double.greatestFiniteMagnitude / 4
        var previous = [Double](repeating: negative, count: width)
        var current = previous
        var ops = [Op](repeating: .start, count: (m + 1) * width)
        for p in 0..<width {
            let j = lo + p
            if j >= start {
                previous[p] = -Double(j - start) * Self.deletionCost
            } else {
                previous[p] = -(Self.backStartCost + Double(start - j) * Self.backStartCostPerToken)
            }
            ops[p] = .start
        }
        for i in 0..<m {
            let word = segment[i]
            let row = (i + 1) * width
            for p in 0..<width {
                // Insertion: the word is not in the script here.
                var best = previous[p] - Self.insertionCost
                var op = Op.insert
                if p > 0 {
                    let j = lo + p - 1
                    let diagonal = previous[p - 1] + (ids[j] == word ? weights[j] : -Self.substitutionCost)
                    if diagonal > best || (diagonal == best && ids[j] == word) {
                        best = diagonal
                        op = ids[j] == word ? .match : .substitute
                    }
                }
                current[p] = best
                ops[row + p] = op
            }
            // Deletions: script words the recogniser (or the speaker) left out.
            for p in 1..<max(width, 1) {
                let deleted = current[p - 1] - Self.deletionCost
                if deleted > current[p] {
                    current[p] = deleted
                    ops[row + p] = .delete
                }
            }
            swap(&previous, &current)
        }
        // The best end (ties: the earliest, the cautious one).
        var bestP = 0
        for p in 1..<width where previous[p] > previous[bestP] { bestP = p }
        var steps = [Step](repeating: Step(op: .insert, token: -1, score: -Self.insertionCost), count: m)
        var i = m, p = bestP
        while i > 0 {
            switch ops[i * width + p] {
            case .match:
                steps[i - 1] = Step(op: .match, token: lo + p - 1, score: weights[lo + p - 1])
                i -= 1; p -= 1
            case .substitute:
                steps[i - 1] = Step(op: .substitute, token: lo + p - 1, score: -Self.substitutionCost)
                i -= 1; p -= 1
            case .insert:
                steps[i - 1] = Step(op: .insert, token: -1, score: -Self.insertionCost)
                i -= 1
            case .delete:
                // Script words passed over before word i: charged to the word after them.
                if i < m { steps[i].score -= Self.deletionCost }
                p -= 1
            case .start:
                i = 0
            }
        }
        return steps
    }

    /// When the latest words do not match here, looks for them further ahead. Returns the token after
    /// the last word matched there, when the evidence is strong enough for the distance.
    /// The words searched are those after the last match that moved the position (at most 16): the ones
    /// not explained here.
    private func skipSearch(_ segment: [Int32], steps: [Step], after supportedIndex: Int) -> Int? {
        let tail = min(steps.count - 1 - supportedIndex, 16)
        guard tail >= 3 else { return nil }
        let words = Array(segment[(segment.count - tail)...])
        let localScore = steps[(steps.count - tail)...].reduce(0) { $0 + $1.score }
        // Only the region past the local window: nearer skips are the local alignment's.
        let lo = min(ids.count, committedToken + tuning.forwardWindow / 2)
        let hi = min(ids.count, committedToken + tuning.skipSearchTokens)
        guard hi - lo >= 1 else { return nil }
        // Local alignment (free start) of the tail words against tokens lo..<hi, ending on a match of the
        // last word. Scores in rows of pointer states; `starts` carries where each path began.
        let width = hi - lo + 1
        var previous = [Double](repeating: 0, count: width)
        var previousStart = (0..<width).map { lo + $0 }
        var current = previous, currentStart = previousStart
        var bestScore = -Double.infinity, bestEnd = -1, bestStart = -1
        for (i, word) in words.enumerated() {
            let last = i == words.count - 1
            for p in 0..<width {
                var best = previous[p] - Self.insertionCost
                var from = previousStart[p]
                var matched = false
                if p > 0 {
                    let j = lo + p - 1
                    let isMatch = ids[j] == word
                    // Words heard in the script's order (a run) are stronger evidence than scattered ones.
                    let run = isMatch && i > 0 && j > 0 && ids[j - 1] == words[i - 1]
                    let diagonal = previous[p - 1] + (isMatch ? weights[j] + (run ? Self.runBonus : 0) : -Self.substitutionCost)
                    if diagonal > best || (isMatch && diagonal == best) {
                        best = diagonal
                        from = previousStart[p - 1]
                        matched = isMatch
                    }
                }
                if best < 0 { best = 0; from = lo + p; matched = false }
                current[p] = best
                currentStart[p] = from
                if last && matched && best > bestScore {
                    bestScore = best; bestEnd = lo + p; bestStart = from
                }
            }
            if !last {
                for p in 1..<width where current[p - 1] - Self.deletionCost > current[p] {
                    current[p] = current[p - 1] - Self.deletionCost
                    currentStart[p] = currentStart[p - 1]
                }
            }
            swap(&previous, &current)
            swap(&previousStart, &currentStart)
        }
        guard bestEnd >= 0 else { return nil }
        let distance = max(1, bestStart - committedToken)
        let doublings = max(0, log2(Double(distance) / Double(max(tuning.forwardWindow, 1))))
        let needed = tuning.skipEvidence + tuning.skipEvidencePerDoubling * doublings
        guard bestScore >= needed, bestScore - localScore >= needed else { return nil }
        return bestEnd
    }

    /// Per token: 1/sqrt(occurrences of the word within 60 tokens either side), times 0.5 for words of
    /// one or two letters and 0.75 for three, at least 0.1.
    static func matchWeights(ids: [Int32], tokens: [String]) -> [Double] {
        let radius = 60
        var counts: [Int32: Int] = [:]
        var weights = [Double](repeating: 1, count: ids.count)
        // Sliding window [i - radius, i + radius].
        for k in 0..<min(ids.count, radius + 1) { counts[ids[k], default: 0] += 1 }
        for i in 0..<ids.count {
            let n = counts[ids[i]] ?? 1
            let letters = tokens[i].count
            let length = letters <= 2 ? 0.5 : letters == 3 ? 0.75 : 1
            weights[i] = max(0.1, length / Double(n).squareRoot())
            let leaving = i - radius, entering = i + radius + 1
            if leaving >= 0 { counts[ids[leaving], default: 1] -= 1 }
            if entering < ids.count { counts[ids[entering], default: 0] += 1 }
        }
        return weights
    }

    // MARK: Positions

    /// Words from the start once `tokens` tokens have been said.
    private func wordPosition(afterTokens tokens: Int) -> Double {
        guard tokens > 0 else {
            return Double(script.wordIndices.first.map { min($0, script.wordCount) } ?? 0)
        }
        if tokens >= script.tokens.count { return Double(script.wordCount) }
        return Double(script.wordIndices[tokens - 1] + 1)
    }

    private static func firstToken(atOrAfterWord word: Int, in script: VoiceScript) -> Int {
        script.wordIndices.firstIndex { $0 >= word } ?? script.tokens.count
    }
}
