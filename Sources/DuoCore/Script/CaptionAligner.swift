import Foundation

/// Times a script's captions from what was heard in a take, and reviews the take against the script.
///
/// The heard words are aligned with the script's tokens once, over the whole take (a dynamic programme:
/// a word matches the next token, stands for it misheard, is not in the script, or the reading jumps,
/// back for a repeat or ahead for a skip, at a fixed cost; tokens may be passed over). The path falls into
/// readings, runs without a jump. A sentence met by no reading is `skipped`; met again by a reading that
/// went back over it, `repeated` and timed at its last reading; covered for less than 60 %, `partly`.
/// Times: a word is heard `latency` after it ends; words between heard ones are spread by their length;
/// a sentence's start moves to the start of speech nearby (the sound's level), its end to the end.
///
/// Thread: value type, Sendable; pure.
public struct CaptionAligner: Sendable {
    public struct Result: Sendable {
        public var captions: [Caption]
        public var review: CaptionReview
    }

    /// Seconds from a word's end to when the recogniser has it.
    public var latency = 0.25
    /// What a jump costs (a match earns at most 1): anywhere, and back within `backReach` tokens (a
    /// repeat, which goes back to the start of a sentence or two) for a base and a price per token.
    public var jumpCost = 4.0
    public var backJumpCost = 1.5
    public var backJumpPerToken = 0.1
    public var backReach = 40
    public var substitutionCost = 0.6
    public var insertionCost = 0.6
    public var deletionCost = 0.4
    /// Unscripted words in a row that make an `[unscripted]` stretch.
    public var unscriptedWords = 3
    /// The weight of matched words (a long word found once nearby: 1) a reading needs to count.
    public var minimumReading = 2.5
    public var minimumCue = 1.0
    public var maximumCue = 7.0

    public init() {}

    enum Op: UInt8 { case match, substitute, insert }
    /// How the position before a word was reached: stayed, jumped (from the row's best), or a token
    /// passed over.
    enum Entry: UInt8 { case stay, jump, back, delete }

    struct Step {
        var op: Op
        /// The token matched or substituted; for an insertion, the position it stood at.
        var token: Int
        /// Whether a jump came before this word (a new reading starts).
        var jumped: Bool
    }

    public func align(_ script: CaptionScript, heard: HeardSpeech) -> Result {
        let steps = path(script.voice.tokens, heard.words.map(\.text))
        return review(script, heard: heard, steps: steps)
    }

    /// The best path of the heard words through the tokens.
    func path(_ tokens: [String], _ words: [String]) -> [Step] {
        let n = tokens.count, m = words.count
        guard n > 0, m > 0 else { return words.indices.map { _ in Step(op: .insert, token: 0, jumped: false) } }
        let alignment = VoiceAlignment(tokens: tokens)
        let ids = alignment.ids, heard = alignment.ids(of: words), weights = alignment.weights
        let low = -Double.greatestFiniteMagnitude / 4
        // prev[k]: best score with the next expected token k (k = n: past the end), before word i.
        var prev = [Double](repeating: -1.0, count: n + 1)
        prev[0] = 0
        var entries = [Entry](repeating: .stay, count: m * (n + 1))
        var ops = [Op](repeating: .insert, count: m * (n + 1))
        var jumpFrom = [Int](repeating: 0, count: m)
        var backDistance = [UInt8](repeating: 0, count: m * (n + 1))
        var pre = [Double](repeating: low, count: n + 1)
        var cur = pre
        for i in 0..<m {
            let row = i * (n + 1)
            var best = 0
            for k in 1...n where prev[k] > prev[best] { best = k }
            jumpFrom[i] = best
            let jumped = prev[best] - jumpCost
            for k in 0...n {
                if jumped > prev[k] { pre[k] = jumped; entries[row + k] = .jump } else { pre[k] = prev[k]; entries[row + k] = .stay }
                if backReach > 0, k < n {
                    for d in 1...min(backReach, n - k) {
                        let back = prev[k + d] - backJumpCost - backJumpPerToken * Double(d)
                        if back > pre[k] { pre[k] = back; entries[row + k] = .back; backDistance[row + k] = UInt8(d) }
                    }
                }
                if k > 0, pre[k - 1] - deletionCost > pre[k] { pre[k] = pre[k - 1] - deletionCost; entries[row + k] = .delete }
            }
            for k in 0...n {
                var score = pre[k] - insertionCost, op = Op.insert
                if k > 0 {
                    let isMatch = ids[k - 1] == heard[i]
                    let diagonal = pre[k - 1] + (isMatch ? weights[k - 1] : -substitutionCost)
                    if diagonal > score { score = diagonal; op = isMatch ? .match : .substitute }
                }
                cur[k] = score
                // The op lands at k; its source is k - 1 (match, substitute) or k (insert).
                ops[row + k] = op
            }
            swap(&prev, &cur)
        }
        var end = 0
        for k in 1...n where prev[k] > prev[end] { end = k }
        var steps = [Step](repeating: Step(op: .insert, token: 0, jumped: false), count: m)
        var k = end
        for i in stride(from: m - 1, through: 0, by: -1) {
            let row = i * (n + 1)
            let op = ops[row + k]
            steps[i] = Step(op: op, token: op == .insert ? k : k - 1, jumped: false)
            var at = op == .insert ? k : k - 1
            // Back through how `at` was reached before word i.
            while true {
                switch entries[row + at] {
                case .delete: at -= 1; continue
                case .jump: steps[i].jumped = true; at = jumpFrom[i]
                case .back: steps[i].jumped = true; at += Int(backDistance[row + at])
                case .stay: break
                }
                break
            }
            k = at
        }
        return steps
    }

    func review(_ script: CaptionScript, heard: HeardSpeech, steps: [Step]) -> Result {
        let words = heard.words
        let tokens = script.voice.tokens
        // Readings: runs of steps without a jump, as (first step, last step).
        var readings: [Swift.Range<Int>] = []
        var begin = 0
        for i in steps.indices where i > 0 && steps[i].jumped {
            readings.append(begin..<i)
            begin = i
        }
        if !steps.isEmpty { readings.append(begin..<steps.count) }
        // A reading with little in it (a few script words in an ad-lib: the recogniser, knowing only
        // the script's words, hears them in any speech) is speech not in the script.
        var steps = steps
        let weights = VoiceAlignment.matchWeights(ids: VoiceAlignment(tokens: tokens).ids, tokens: tokens)
        for r in readings {
            let evidence = r.reduce(0.0) { $0 + (steps[$1].op == .match ? weights[steps[$1].token] : 0) }
            if evidence < minimumReading { for i in r { steps[i].op = .insert } }
        }

        // Seconds per character of speech, from neighbouring matched words.
        var paces: [Double] = []
        for r in readings {
            var last: (token: Int, at: Double)?
            for i in r where steps[i].op == .match {
                let t = steps[i].token
                if let l = last, t > l.token, t - l.token <= 4 {
                    let chars = (l.token + 1...t).reduce(0) { $0 + tokens[$1].count + 1 }
                    let dt = words[i].heardAt - l.at
                    if dt > 0 { paces.append(dt / Double(chars)) }
                }
                last = (t, words[i].heardAt)
            }
        }
        let pace = paces.isEmpty ? 0.065 : min(0.12, max(0.04, paces.sorted()[paces.count / 2]))

        // Each reading's token times: (start, end) for the tokens it went through, the last reading winning.
        var tokenTimes = [(start: Double, end: Double)?](repeating: nil, count: tokens.count)
        var tokenReading = [Int](repeating: -1, count: tokens.count)
        var readingFirst: [Int] = [], readingLast: [Int] = []
        var covered: [Set<Int>] = []
        for (r, range) in readings.enumerated() {
            let consumed = range.filter { steps[$0].op != .insert }
            var cover = Set<Int>()
            guard let f = consumed.first, let l = consumed.last else {
                readingFirst.append(-1); readingLast.append(-1); covered.append(cover); continue
            }
            let lo = steps[f].token, hi = steps[l].token
            readingFirst.append(lo); readingLast.append(hi)
            // Anchors: token → end time, from matches.
            var anchors: [(token: Int, end: Double)] = []
            for i in consumed {
                cover.insert(steps[i].token)
                if steps[i].op == .match, anchors.last.map({ $0.token < steps[i].token }) ?? true {
                    anchors.append((steps[i].token, words[i].heardAt - latency))
                }
            }
            covered.append(cover)
            guard !anchors.isEmpty else { continue }
            // Ends of tokens lo...hi: through anchors, spread by characters, extrapolated at `pace`.
            var cumulative = [Double](repeating: 0, count: hi - lo + 2)
            for t in lo...hi { cumulative[t - lo + 1] = cumulative[t - lo] + Double(tokens[t].count + 1) }
            func endTime(_ t: Int) -> Double {
                let c = cumulative[t - lo + 1]
                if let a = anchors.lastIndex(where: { $0.token <= t }) {
                    let left = anchors[a]
                    let cl = cumulative[left.token - lo + 1]
                    if a + 1 < anchors.count {
                        let right = anchors[a + 1]
                        let cr = cumulative[right.token - lo + 1]
                        return left.end + (right.end - left.end) * (c - cl) / max(cr - cl, 1)
                    }
                    return left.end + (c - cl) * pace
                }
                let first = anchors[0]
                return first.end - (cumulative[first.token - lo + 1] - c) * pace
            }
            for t in lo...hi {
                let end = endTime(t)
                tokenTimes[t] = (end - Double(tokens[t].count + 1) * pace, end)
                tokenReading[t] = r
            }
        }

        // Sentences.
        var lines: [CaptionReview.Line] = []
        var captions: [Caption] = []
        // Tokens of lines not read: words heard there are speech not in the script.
        var notRead = Set<Int>()
        for sentence in script.sentences {
            var line = CaptionReview.Line(block: sentence.block, text: sentence.text, state: .skipped, start: nil, end: nil)
            defer { lines.append(line) }
            let toks = sentence.tokens
            guard !toks.isEmpty else { continue }
            // The last reading that matched two fifths of its words (at least two; one for a one-word
            // line), and earlier ones that matched three of them and went past where it starts.
            func matched(_ r: Int) -> Int { readings[r].filter { steps[$0].op == .match && toks.contains(steps[$0].token) }.count }
            let needed = max(min(2, toks.count), Int((Double(toks.count) * 0.4).rounded(.up)))
            guard let lastReading = readings.indices.last(where: { matched($0) >= needed }) else {
                notRead.formUnion(toks)
                continue
            }
            let went = readings.indices.contains { r in
                r < lastReading && matched(r) >= min(3, toks.count) && readingLast[r] >= readingFirst[lastReading]
            }
            let coverage = Double(covered[lastReading].filter { toks.contains($0) }.count) / Double(toks.count)
            line.state = went ? .repeated : coverage >= 0.6 ? .read : .partly
            let own = toks.filter { tokenReading[$0] == lastReading && tokenTimes[$0] != nil }
            guard let first = own.first, let last = own.last else { continue }
            // Speech starts near the estimate, but never at or before the previous line's start (one
            // breath can hold two lines).
            let previous = lines.last { $0.start != nil }?.start ?? -Double.infinity
            let onsets = heard.speech.map(\.lowerBound).filter { $0 > previous + 0.3 }
            // The estimate counts back at the pace from the line's first word heard in that reading: a
            // word before it that was not heard would otherwise be spread across the pause before the
            // line, back towards the previous line's last word (cues came up to 1.7 s early).
            var estimate = tokenTimes[first]!.start
            let heardHere = Set(readings[lastReading].filter { steps[$0].op == .match }.map { steps[$0].token })
            if let anchor = toks.first(where: { heardHere.contains($0) && tokenTimes[$0] != nil }), anchor != first {
                let before = toks.prefix { $0 != anchor }.reduce(0) { $0 + tokens[$1].count + 1 }
                estimate = tokenTimes[anchor]!.start - Double(before) * pace
            }
            let start = Self.snap(estimate, to: onsets, before: 0.8, after: 0.5)
            let end = max(start + 0.2, Self.snap(tokenTimes[last]!.end, to: heard.speech.map(\.upperBound), before: 0.3, after: 0.8))
            line.start = start
            line.end = end
            // Its chunks: each from its first token's start (the first from the sentence's start).
            var times: [(Double, String)] = []
            for c in sentence.chunks {
                let chunk = script.chunks[c]
                guard let t = chunk.tokens.first(where: { own.contains($0) }) else { continue }
                times.append((c == sentence.chunks.lowerBound ? start : max(start, tokenTimes[t]!.start), chunk.text))
            }
            for (j, (s, text)) in times.enumerated() {
                let e = j + 1 < times.count ? times[j + 1].0 : end
                captions.append(Caption(start: s, end: max(e, s + 0.2), text: text))
            }
        }

        // Unscripted stretches: runs of heard words not in the script.
        var unscripted: [CaptionReview.Stretch] = []
        var run: [Int] = []
        func flush() {
            defer { run = [] }
            guard run.count >= unscriptedWords else { return }
            let firstWord = words[run[0]], lastWord = words[run[run.count - 1]]
            let estimate = firstWord.heardAt - latency - Double(firstWord.text.count + 1) * pace
            let start = Self.snap(estimate, to: heard.speech.map(\.lowerBound), before: 0.8, after: 0.5)
            let end = max(start + 0.5, lastWord.heardAt - latency)
            unscripted.append(.init(start: start, end: end))
            captions.append(Caption(start: start, end: end, text: "[unscripted]"))
        }
        for (i, step) in steps.enumerated() {
            if step.op == .insert || notRead.contains(step.token) { run.append(i) } else { flush() }
        }
        flush()

        captions = Self.tidy(captions, minimum: minimumCue, maximum: maximumCue)
        return Result(captions: captions, review: CaptionReview(lines: lines, unscripted: unscripted,
                                                                paragraphs: paragraphs(script, lines),
                                                                scriptRange: range(script, lines)))
    }

    /// `estimate` moved to the nearest of `marks` within `before` seconds earlier or `after` later.
    static func snap(_ estimate: Double, to marks: [Double], before: Double, after: Double) -> Double {
        let near = marks.filter { $0 >= estimate - before && $0 <= estimate + after }
        return near.min { abs($0 - estimate) < abs($1 - estimate) } ?? max(0, estimate)
    }

    /// In time order, none overlapping the next, each at least `minimum` (as far as the next allows) and
    /// at most `maximum` seconds on screen.
    static func tidy(_ captions: [Caption], minimum: Double, maximum: Double) -> [Caption] {
        var sorted = captions.sorted { $0.start < $1.start }
        for i in sorted.indices {
            let next = i + 1 < sorted.count ? sorted[i + 1].start : Double.infinity
            var end = max(sorted[i].end, sorted[i].start + minimum)
            end = min(end, sorted[i].start + maximum, next)
            sorted[i].end = max(end, sorted[i].start + 0.05)
        }
        return sorted
    }

    func paragraphs(_ script: CaptionScript, _ lines: [CaptionReview.Line]) -> [CaptionReview.Paragraph] {
        var out: [CaptionReview.Paragraph] = []
        for block in Set(script.sentences.filter { !$0.isHeading }.map(\.block)).sorted() {
            let members = script.sentences.indices.filter { script.sentences[$0].block == block }
            let words = members.reduce(0) { $0 + script.sentences[$1].words.count }
            let read = members.filter { lines[$0].start != nil && lines[$0].state != .skipped }
            var wpm: Double?
            let spoken = read.reduce(0.0) { $0 + (lines[$1].end! - lines[$1].start!) }
            if spoken > 0.5 {
                wpm = (Double(read.reduce(0) { $0 + script.sentences[$1].words.count }) / spoken * 60 * 10).rounded() / 10
            }
            out.append(.init(block: block, words: words, wpm: wpm))
        }
        return out
    }

    func range(_ script: CaptionScript, _ lines: [CaptionReview.Line]) -> CaptionReview.Range? {
        let read = lines.indices.filter { lines[$0].state != .skipped }
        guard let first = read.first, let last = read.last else { return nil }
        let firstWords = script.sentences[first].words, lastWords = script.sentences[last].words
        return .init(fromLine: first + 1, toLine: last + 1,
                     from: script.words[firstWords.lowerBound..<min(firstWords.upperBound, firstWords.lowerBound + 5)].joined(separator: " "),
                     to: script.words[max(lastWords.lowerBound, lastWords.upperBound - 5)..<lastWords.upperBound].joined(separator: " "))
    }
}
