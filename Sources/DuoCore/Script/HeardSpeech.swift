/// What the recogniser made of a take, as the caption aligner uses it: each word of each utterance's
/// final hypothesis with the moment it first appeared at its place in a partial hypothesis (about when
/// the word had been said), and the stretches of the take where someone spoke (from the sound's level).
///
/// Thread: value type, Sendable; pure.
public struct HeardSpeech: Sendable, Hashable {
    public struct Word: Sendable, Hashable {
        public let text: String
        /// Seconds into the take when the recogniser first had it: shortly after the word ended.
        public let heardAt: Double
        public init(_ text: String, heardAt: Double) { self.text = text; self.heardAt = heardAt }
    }

    public let words: [Word]
    /// Where the sound rose above the room's floor: (start, end) seconds, in order.
    public let speech: [ClosedRange<Double>]

    public init(words: [Word], speech: [ClosedRange<Double>] = []) {
        self.words = words
        self.speech = speech
    }

    /// Collects the recogniser's hypotheses, as they come (partial ones grow, a final one closes an
    /// utterance), into timed words.
    ///
    /// Thread: value type; fed by the job that runs the recogniser.
    public struct Collector: Sendable {
        private var partials: [(at: Double, words: [String])] = []
        public private(set) var words: [Word] = []
        public init() {}

        /// A hypothesis heard `at` seconds into the take (a final one carries no time: the last one known).
        public mutating func hypothesis(_ text: String, final: Bool, at: Double) {
            let heard = text.split(separator: " ").map(String.init)
            if !final {
                partials.append((at, heard))
                return
            }
            // The final hypothesis of a long utterance is searched again as a whole: its words are often
            // better, but it differs from the partial ones by words inserted or dropped anywhere, so a
            // word's index in it says nothing about when it was heard. Its words are matched to the last
            // partial hypothesis's in order (the longest common subsequence); each matched word takes
            // the time its partial word came to stand for good: the first of the last run of partials
            // that had it at its place after the same word. A short word a partial guessed early and
            // dropped again ("the" at the tail of the previous sentence) would otherwise be timed by the
            // guess (the benchmark's first-cue p95 went from 1.1–2.8 s to 0.02 s). A word the partial
            // hypotheses never had gets a time between its neighbours'.
            let last = partials.last?.words ?? []
            func holds(_ p: [String], _ j: Int) -> Bool {
                p.count > j && p[j] == last[j] && (j == 0 || p[j - 1] == last[j - 1])
            }
            let stood: [Double?] = last.indices.map { j in
                var since: Double?
                for p in partials.reversed() {
                    guard holds(p.words, j) else { break }
                    since = p.at
                }
                return since
            }
            var times = [Double?](repeating: nil, count: heard.count)
            for (i, j) in Self.common(heard, last) { times[i] = stood[j] }
            let end = partials.last?.at ?? at
            let known = times.indices.filter { times[$0] != nil }
            for i in times.indices where times[i] == nil {
                let before = known.last { $0 < i }, after = known.first { $0 > i }
                switch (before, after) {
                case let (b?, a?): times[i] = times[b]! + (times[a]! - times[b]!) * Double(i - b) / Double(a - b)
                case let (nil, a?): times[i] = max(0, times[a]! - 0.3 * Double(a - i))
                case let (b?, nil): times[i] = min(end, times[b]! + 0.3 * Double(i - b))
                case (nil, nil): times[i] = end
                }
            }
            for (i, word) in heard.enumerated() { words.append(Word(word, heardAt: times[i]!)) }
            partials = []
        }

        /// Index pairs (in `a`, in `b`) of a longest common subsequence of two word lists.
        static func common(_ a: [String], _ b: [String]) -> [(Int, Int)] {
            guard !a.isEmpty, !b.isEmpty else { return [] }
            var length = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    length[i][j] = a[i] == b[j] ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
                }
            }
            var pairs: [(Int, Int)] = []
            var i = 0, j = 0
            while i < a.count, j < b.count {
                if a[i] == b[j] { pairs.append((i, j)); i += 1; j += 1 } else if length[i + 1][j] >= length[i][j + 1] { i += 1 } else { j += 1 }
            }
            return pairs
        }

        /// An utterance the recogniser never closed (the take ended mid-sentence): its last partial.
        public mutating func finish() {
            if let last = partials.last { hypothesis(last.words.joined(separator: " "), final: true, at: last.at) }
        }
    }

    /// Stretches of speech in a level track (dBFS, one value per `frame` seconds, the value of the
    /// frame ending at (i + 1) × frame): frames louder than the floor (the 10th percentile) by 15 dB,
    /// joined across gaps shorter than `bridge` seconds, at least 60 ms long.
    public static func speech(levels: [Double], frame: Double, bridge: Double = 0.12) -> [ClosedRange<Double>] {
        guard !levels.isEmpty else { return [] }
        let sorted = levels.filter(\.isFinite).sorted()
        let floor = sorted.isEmpty ? -90 : sorted[sorted.count / 10]
        let threshold = max(floor + 15, -60)
        var spans: [ClosedRange<Double>] = []
        var start: Double?
        for (i, level) in levels.enumerated() {
            let t = Double(i) * frame
            if level.isFinite && level >= threshold {
                if start == nil { start = t }
            } else if let s = start {
                spans.append(s...t)
                start = nil
            }
        }
        if let s = start { spans.append(s...(Double(levels.count) * frame)) }
        var joined: [ClosedRange<Double>] = []
        for span in spans {
            if let last = joined.last, span.lowerBound - last.upperBound < bridge {
                joined[joined.count - 1] = last.lowerBound...span.upperBound
            } else {
                joined.append(span)
            }
        }
        return joined.filter { $0.upperBound - $0.lowerBound >= 0.06 }
    }
}
