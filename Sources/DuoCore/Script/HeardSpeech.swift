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
            // When each word first stood at its place in the utterance; a word the partial hypotheses
            // never had there (the final search corrected it) gets a time between its neighbours'.
            var times: [Double?] = heard.indices.map { i in partials.first { $0.words.count > i && $0.words[i] == heard[i] }?.at }
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
