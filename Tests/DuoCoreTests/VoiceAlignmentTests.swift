import XCTest
@testable import DuoCore

final class VoiceAlignmentTests: XCTestCase {
    private func seconds(_ s: Double) -> Int64 { Int64((s * 1e9).rounded()) }

    /// A distinct made-up word for each index ("bakel", "dorim", …), as a recogniser would output it.
    private static func pseudoWord(_ i: Int) -> String {
        let onsets = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z"]
        let vowels = ["a", "e", "i", "o", "u"]
        var n = i, word = ""
        for _ in 0..<3 {
            word += onsets[n % onsets.count] + vowels[(n / onsets.count) % vowels.count]
            n /= onsets.count * vowels.count
            if n == 0 { break }
        }
        return word + "l"
    }

    /// A script of `sentences` ten-word sentences like real text: mostly distinct words with "the", "and"
    /// and "of" between. Word `k` of the script is `words[k]`.
    private static func makeScript(sentences: Int) -> (text: String, words: [String]) {
        var words: [String] = [], next = 0
        func fresh() -> String { defer { next += 1 }; return pseudoWord(next) }
        for _ in 0..<sentences {
            words += ["the", fresh(), fresh(), "and", fresh(), "of", "the", fresh(), fresh(), fresh() + "."]
        }
        return (words.joined(separator: " "), words)
    }

    private let script = VoiceAlignmentTests.makeScript(sentences: 40) // 400 words
    private var spoken: [String] { script.words.map { VoiceScript.normalise($0).joined() } }

    /// Says `words` as one utterance at `wordsPerSecond` from `start`: a partial hypothesis per word (the
    /// whole utterance so far, 0.3 s after the word began), then a final. Returns when it ended.
    @discardableResult
    private func say(_ words: [String], into aligner: inout VoiceAligner, from start: Double,
                     wordsPerSecond: Double = 2.5, final: Bool = true) -> Double {
        var t = start
        for k in words.indices {
            t = start + Double(k) / wordsPerSecond + 0.3
            aligner.feed(hypothesis: words[...k].joined(separator: " "), isFinal: false, at: seconds(t))
        }
        if final {
            t += 0.4
            aligner.feed(hypothesis: words.joined(separator: " "), isFinal: true, at: seconds(t))
        }
        return t
    }

    private func aligner() -> VoiceAligner { VoiceAligner(script: VoiceScript(text: script.text)) }

    // MARK: Tokens

    func testTokensFollowTheScriptsWordIndexing() {
        let parsed = ScriptParser.parse(text: "# Hello, world\nThis is duo-capture’s *test*.\n\n[PAUSE]\nOne — two", format: .markdown)
        let voice = VoiceScript(script: parsed.subject)
        XCTAssertEqual(voice.wordCount, parsed.subject.wordCount)
        XCTAssertEqual(voice.tokens, ["hello", "world", "this", "is", "duo", "capture's", "test", "one", "two"])
        // "—" is word 7 but gives no token; "duo-capture's" is one word (4) with two tokens.
        XCTAssertEqual(voice.wordIndices, [0, 1, 2, 3, 4, 4, 5, 6, 8])
        XCTAssertEqual(voice.endsSentence, [false, true, false, false, false, false, true, false, true])
    }

    // MARK: Following

    func testFollowsACleanReadingWordByWord() {
        var a = aligner()
        XCTAssertEqual(a.state(at: 0), .holding)
        let end = say(Array(spoken[0..<40]), into: &a, from: 0, final: false)
        XCTAssertEqual(a.matchedPosition, 40)
        XCTAssertEqual(a.state(at: seconds(end)), .following)
        // Between hypotheses the line runs a little ahead at the pace, by at most 1.5 words.
        XCTAssertEqual(a.pace, 2.5, accuracy: 0.1)
        XCTAssertEqual(a.position(at: seconds(end + 0.2)), 40.5, accuracy: 0.05)
        XCTAssertEqual(a.position(at: seconds(end + 1.2)), 41.5, accuracy: 1e-9)
    }

    func testMisrecognisedWordsAreStepsOver() {
        var a = aligner()
        var words = Array(spoken[0..<60])
        // Every fifth word heard as another script word from far away, or a word not in the script.
        for k in stride(from: 3, to: 60, by: 5) { words[k] = k % 2 == 0 ? spoken[300 + k] : "xyzzy" }
        say(words, into: &a, from: 0)
        XCTAssertEqual(a.matchedPosition, 60)
    }

    func testWordsLeftOutByTheSpeakerOrTheRecogniser() {
        var a = aligner()
        let words = Array(spoken[0..<20]) + Array(spoken[23..<40]) // words 20, 21, 22 not heard
        say(words, into: &a, from: 0)
        XCTAssertEqual(a.matchedPosition, 40)
    }

    // MARK: Repeats, ad-libs and noise

    func testRepeatedSentenceStaysPutThenFollowsOn() {
        var a = aligner()
        var t = say(Array(spoken[0..<30]), into: &a, from: 0)
        XCTAssertEqual(a.matchedPosition, 30)
        t = say(Array(spoken[20..<30]), into: &a, from: t + 0.5) // says the last sentence again
        XCTAssertEqual(a.matchedPosition, 30)
        say(Array(spoken[30..<40]), into: &a, from: t + 0.5)
        XCTAssertEqual(a.matchedPosition, 40)
    }

    func testRepeatInsideOneUtteranceDoesNotMoveAhead() {
        var a = aligner()
        let t = say(Array(spoken[0..<30]) + Array(spoken[24..<30]), into: &a, from: 0, final: false)
        XCTAssertEqual(a.matchedPosition, 30)
        XCTAssertEqual(a.position(at: seconds(t)), 30, accuracy: 1.5)
    }

    func testAdLibOfOtherWordsDoesNotMoveTheMatchedPosition() {
        var a = aligner()
        var t = say(Array(spoken[0..<30]), into: &a, from: 0)
        // An ad-lib recognised as the script's commonest words and words that are not in it.
        let adLib = ["the", "and", "the", "of", "xyzzy", "the", "and", "of", "the", "plugh", "and", "the"]
        t = say(adLib, into: &a, from: t + 0.5, final: false)
        XCTAssertEqual(a.matchedPosition, 30)
        XCTAssertEqual(a.state(at: seconds(t)), .unsure)
        // Unsure: the line went on at the pace for at most 3 s and 4 words.
        XCTAssertLessThanOrEqual(a.position(at: seconds(t + 5)), 34)
        XCTAssertEqual(a.position(at: seconds(t + 5)), a.position(at: seconds(t + 50)))
        // Back to the script: following again from where the speaker left it.
        say(Array(spoken[30..<40]), into: &a, from: t + 0.5)
        XCTAssertEqual(a.matchedPosition, 40)
    }

    func testNoiseOfEarlierWordsNeverMovesBack() {
        var a = aligner()
        var t = say(Array(spoken[0..<50]), into: &a, from: 0)
        var shown: [Double] = []
        // Words from behind, out of order, as a noisy room might be recognised.
        for noise in [[spoken[12], spoken[7], spoken[13]], [spoken[41], spoken[2]], [spoken[30], spoken[31], spoken[29]]] {
            t = say(noise, into: &a, from: t + 0.2)
            for dt in stride(from: 0.0, through: 1.0, by: 0.1) { shown.append(a.position(at: seconds(t + dt))) }
        }
        XCTAssertEqual(a.matchedPosition, 50)
        XCTAssertEqual(shown, shown.sorted(), "the line never moves back")
        XCTAssertGreaterThanOrEqual(shown.first!, 50)
    }

    // MARK: Skips

    func testSkippedParagraphJumpsForwardOnceSeveralWordsMatchThere() {
        var a = aligner()
        let t = say(Array(spoken[0..<20]), into: &a, from: 0)
        // The speaker skips to word 150: two words are not enough evidence that far away...
        var b = a
        say(Array(spoken[150..<152]), into: &b, from: t + 0.5, final: false)
        XCTAssertEqual(b.matchedPosition, 20)
        // ...a sentence is.
        say(Array(spoken[150..<160]), into: &a, from: t + 0.5)
        XCTAssertEqual(a.matchedPosition, 160)
    }

    func testFartherJumpsNeedMoreEvidence() {
        let words = Array(spoken[0..<10])
        var near = aligner(), far = aligner()
        let tNear = say(words, into: &near, from: 0)
        let tFar = say(words, into: &far, from: 0)
        // The same five words match 40 words ahead in one case and 340 in the other.
        say(Array(spoken[51..<56]), into: &near, from: tNear + 0.5, final: false)
        say(Array(spoken[351..<356]), into: &far, from: tFar + 0.5, final: false)
        XCTAssertEqual(near.matchedPosition, 56)
        XCTAssertEqual(far.matchedPosition, 10)
    }

    // MARK: Silence and pace

    func testSilenceHoldsThePosition() {
        var a = aligner()
        let t = say(Array(spoken[0..<30]), into: &a, from: 0, final: true)
        XCTAssertEqual(a.state(at: seconds(t + 1.0)), .following)
        XCTAssertEqual(a.state(at: seconds(t + 1.6)), .holding)
        let held = a.position(at: seconds(t + 1.6))
        XCTAssertEqual(a.position(at: seconds(t + 10)), held)
        XCTAssertEqual(a.position(at: seconds(t + 100)), held)
        XCTAssertLessThanOrEqual(held, 31.5)
        // Speaking again after the pause: no leap, the line goes on from where it stood.
        a.feed(hypothesis: "xyzzy", isFinal: false, at: seconds(t + 20))
        XCTAssertEqual(a.position(at: seconds(t + 20)), held)
    }

    /// Reads 30 words at `wordsPerSecond`, then 12 unrecognisable words 0.4 s apart; the line after each.
    private func unsureRun(wordsPerSecond: Double) -> (aligner: VoiceAligner, shown: [Double], end: Double) {
        var a = aligner()
        let t = say(Array(spoken[0..<30]), into: &a, from: 0, wordsPerSecond: wordsPerSecond, final: false)
        XCTAssertEqual(a.pace, wordsPerSecond, accuracy: 0.05)
        var shown: [Double] = []
        var lastFeed = t
        for k in 1...12 {
            lastFeed = t + Double(k) * 0.4
            a.feed(hypothesis: (Array(spoken[0..<30]) + Array(repeating: "xyzzy", count: k)).joined(separator: " "),
                   isFinal: false, at: seconds(lastFeed))
            shown.append(a.position(at: seconds(lastFeed)))
        }
        XCTAssertEqual(a.state(at: seconds(lastFeed)), .unsure)
        XCTAssertEqual(a.matchedPosition, 30)
        XCTAssertEqual(shown, shown.sorted())
        return (a, shown, lastFeed)
    }

    func testUnsureAdvancesAtTheSpeakersPaceByBoundedWords() {
        let run = unsureRun(wordsPerSecond: 2)
        // 2 words/s from the last match (the last partial that matched)...
        XCTAssertEqual(run.shown[2], 32.4, accuracy: 0.05) // 1.2 s on, the third unmatched word
        XCTAssertEqual(run.shown[3], 33.2, accuracy: 0.05)
        // ...at most 4 words.
        XCTAssertEqual(run.shown[11], 34, accuracy: 0.05)
        XCTAssertEqual(run.aligner.position(at: seconds(run.end + 30)), 34, accuracy: 0.05)
    }

    func testUnsureAdvancesForABoundedTime() {
        let run = unsureRun(wordsPerSecond: 1)
        // 1 word/s, for at most 3 s.
        XCTAssertEqual(run.shown[3], 31.6, accuracy: 0.05)
        XCTAssertEqual(run.shown[11], 33, accuracy: 0.05)
        XCTAssertEqual(run.aligner.position(at: seconds(run.end + 30)), 33, accuracy: 0.05)
    }

    // MARK: Partial hypotheses

    func testGrowingAndRevisedPartials() {
        var a = aligner()
        let w = spoken
        // Partials grow, get revised ("xyzzy" becomes the right word), and the newest word is a guess
        // that jumps ahead (w[17]) before it is revised away.
        let partials: [[String]] = [
            [w[0]], [w[0], w[1]], [w[0], w[1], "xyzzy"], [w[0], w[1], w[2], w[3]],
            [w[0], w[1], w[2], w[3], w[4], w[17]],
        ]
        for (k, p) in partials.enumerated() {
            a.feed(hypothesis: p.joined(separator: " "), isFinal: false, at: seconds(0.3 + 0.4 * Double(k)))
        }
        XCTAssertEqual(a.matchedPosition, 5, "a guessed word after skipped ones waits for confirmation")
        a.feed(hypothesis: Array(w[0..<8]).joined(separator: " "), isFinal: false, at: seconds(2.4))
        XCTAssertEqual(a.matchedPosition, 8)
        // The final revises the end; the next utterance starts where it left off.
        a.feed(hypothesis: Array(w[0..<9]).joined(separator: " "), isFinal: true, at: seconds(2.8))
        XCTAssertEqual(a.matchedPosition, 9)
        a.feed(hypothesis: "\(w[9]) \(w[10]) \(w[11])", isFinal: false, at: seconds(3.6))
        XCTAssertEqual(a.matchedPosition, 12)
    }

    func testLongUtteranceOnLongScriptIsAlignedInBoundedWork() {
        let long = VoiceAlignmentTests.makeScript(sentences: 500) // 5000 words
        let words = long.words.map { VoiceScript.normalise($0).joined() }
        var a = VoiceAligner(script: VoiceScript(text: long.text))
        let started = Date()
        say(Array(words[0..<800]), into: &a, from: 0, wordsPerSecond: 3, final: false)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(a.matchedPosition, 800)
        XCTAssertLessThan(elapsed, 10, "800 partial hypotheses of one utterance")
    }

    func testStartWordAndReset() {
        var a = VoiceAligner(script: VoiceScript(text: script.text), startWord: 100)
        XCTAssertEqual(a.matchedPosition, 100)
        XCTAssertEqual(a.position(at: 0), 100)
        say(Array(spoken[100..<110]), into: &a, from: 0)
        XCTAssertEqual(a.matchedPosition, 110)
        a.reset(toWord: 50, at: seconds(10))
        XCTAssertEqual(a.matchedPosition, 50)
        say(Array(spoken[50..<55]), into: &a, from: 11)
        XCTAssertEqual(a.matchedPosition, 55)
    }
}
