import Foundation

/// The two alignments voice-follow makes of the words heard against the script's tokens: an edit-distance
/// alignment in a window around the position (`local`), allowing misrecognised, inserted and skipped words
/// and a restart a little behind, and a search far ahead for words that do not fit there (`skip`). Facts
/// in (token ids, the tuning, where the position stands), steps or a token out; `VoiceAligner` decides
/// what they mean for the position.
///
/// Thread: value type, Sendable; pure.
struct VoiceAlignment: Sendable {
    enum Op: UInt8 { case start, match, substitute, insert, delete }

    /// One hypothesis word's place in an alignment.
    struct Step {
        var op: Op
        /// The token matched or substituted (match/substitute), else -1.
        var token: Int
        var score: Double
    }

    // Scores of the alignment: a match earns, everything else costs.
    static let substitutionCost = 0.6
    static let insertionCost = 0.6
    static let deletionCost = 0.4
    static let backStartCost = 0.5
    static let backStartCostPerToken = 0.1
    /// Added, when searching far ahead, to a match whose word follows the previous word's match directly.
    static let runBonus = 0.3

    /// Token ids (indices into the vocabulary) of the script.
    let ids: [Int32]
    private let vocabulary: [String: Int32]
    /// What matching each token is worth: 1 for a long word found once nearby, less for short words and
    /// words that occur often nearby ("the", "a"), which a recogniser restricted to the script also
    /// produces from noise and ad-libs.
    let weights: [Double]

    init(tokens: [String]) {
        var vocabulary: [String: Int32] = [:]
        var ids: [Int32] = []
        ids.reserveCapacity(tokens.count)
        for token in tokens {
            let id = vocabulary[token] ?? Int32(vocabulary.count)
            vocabulary[token] = id
            ids.append(id)
        }
        self.ids = ids
        self.vocabulary = vocabulary
        self.weights = Self.matchWeights(ids: ids, tokens: tokens)
    }

    /// The ids of heard words (-1 for words not in the script).
    func ids(of words: [String]) -> [Int32] { words.map { vocabulary[$0] ?? -1 } }

    /// Aligns the hypothesis words with the script from token `start`, allowing the utterance to begin a
    /// little behind (a repeat) or ahead (skipped words). Returns one step per hypothesis word.
    func local(_ segment: [Int32], from start: Int, tuning: VoiceAligner.Tuning) -> [Step] {
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
    /// not explained here; `committedToken` is where the position stands.
    func skip(_ segment: [Int32], steps: [Step], after supportedIndex: Int, committedToken: Int,
              tuning: VoiceAligner.Tuning) -> Int? {
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
}
