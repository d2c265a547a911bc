import Foundation

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
/// Each hypothesis of an utterance is aligned again from where the utterance began (`VoiceAlignment`: an
/// edit-distance alignment in a window around the position, allowing misrecognised, inserted and skipped words and a
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

    /// The score of a few words around a match that moves the position.
    static let commitEvidence = 1.5
    static let finalCommitEvidence = 1.0

    public let script: VoiceScript
    public var tuning: Tuning

    /// The script's token ids and match weights, and the alignments over them.
    private let alignment: VoiceAlignment

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
        alignment = VoiceAlignment(tokens: script.tokens)
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
        let newIds = alignment.ids(of: words)
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

    // MARK: Alignment (VoiceAlignment makes it; this decides what it means for the position)

    private mutating func align(at time: Int64, isFinal: Bool) {
        let segment = Array(hypothesis[baseWord...])
        guard !segment.isEmpty else { return }
        let steps = alignment.local(segment, from: baseToken, tuning: tuning)
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
            let next = j == committedToken && alignment.weights[j] >= 0.5
            let needed = isFinal && i >= steps.count - 2 ? Self.finalCommitEvidence : Self.commitEvidence
            if ahead >= needed || (straight && (behind >= needed || next)) {
                supportedIndex = i
                supportedToken = j
            }
        }
        // Words said again from just behind (a repeat: two of them in script order, not both as common
        // as "of the") are heard as the script: not a reason to be unsure.
        let behindStart = max(0, committedToken - tuning.backWindow)
        let ids = alignment.ids, weights = alignment.weights
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
        if let jump = alignment.skip(segment, steps: steps, after: supportedIndex, committedToken: committedToken, tuning: tuning) {
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
