import Foundation
import XCTest
@testable import DuoCore

final class ScriptLanguageModelTests: XCTestCase {
    /// A few cmudict lines in its own format (lowercase words, alternates as `word(2)`).
    private let cmudict = """
        ;;; a comment line
        a AH
        a(2) EY
        camera K AE M ER AH
        camera(2) K AE M R AH
        duo D UW OW
        in IH N
        keeps K IY P S
        step S T EH P
        the DH AH
        the(2) DH IY
        thee DH IY
        you Y UW
        you're Y UH R
        """

    private func model(_ text: String) -> ScriptLanguageModel {
        ScriptLanguageModel(script: VoiceScript(text: text), pronunciations: cmudict)
    }

    /// The ARPA sections as the format defines them: the counts in \data\ and the lines of each section.
    private func sections(_ arpa: String) -> (counts: [Int: Int], grams: [Int: [[Substring]]]) {
        var counts: [Int: Int] = [:], grams: [Int: [[Substring]]] = [:]
        var order = 0
        for line in arpa.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("ngram ") {
                let parts = line.dropFirst(6).split(separator: "=")
                counts[Int(parts[0])!] = Int(parts[1])!
            } else if line == "\\1-grams:" { order = 1 } else if line == "\\2-grams:" { order = 2 } else if line.hasPrefix("\\") {
                order = 0
            } else if order > 0 {
                grams[order, default: []].append(line.split(separator: " "))
            }
        }
        return (counts, grams)
    }

    func testArpaCountsMatchTheirSectionsAndProbabilitiesAreLogs() throws {
        let lm = model("The camera keeps the duo in step. You're in step, camera!")
        XCTAssertTrue(lm.arpa.hasPrefix("\\data\\\n"))
        XCTAssertTrue(lm.arpa.hasSuffix("\\end\\\n"))
        let (counts, grams) = sections(lm.arpa)
        XCTAssertEqual(counts[1], grams[1]?.count)
        XCTAssertEqual(counts[2], grams[2]?.count)
        // Unigrams: every word, <s> and </s>; a probability and (but for </s>) a backoff weight.
        let unigrams = Dictionary(uniqueKeysWithValues: try XCTUnwrap(grams[1]).map { ($0[1], $0) })
        XCTAssertEqual(Set(unigrams.keys), ["<s>", "</s>", "the", "camera", "keeps", "duo", "in", "step", "you're"])
        XCTAssertEqual(unigrams["<s>"]?[0], "-99.0000")
        XCTAssertEqual(unigrams["</s>"]?.count, 2)
        XCTAssertEqual(unigrams["camera"]?.count, 3)
        for fields in grams[1]! + grams[2]! {
            let logProbability = try XCTUnwrap(Double(fields[0]))
            XCTAssertLessThanOrEqual(logProbability, 0)
        }
        // Bigrams: exactly the script's pairs, sentences wrapped in <s> … </s>.
        let pairs = Set(try XCTUnwrap(grams[2]).map { "\($0[1]) \($0[2])" })
        XCTAssertEqual(pairs, [
            "<s> the", "the camera", "camera keeps", "keeps the", "the duo", "duo in", "in step", "step </s>",
            "<s> you're", "you're in", "camera </s>", "step camera",
        ])
        // Each context's seen bigrams keep 1 − discount of its mass; the rest is the backoff's.
        let theCamera = try XCTUnwrap(grams[2]!.first { $0[1] == "the" && $0[2] == "camera" })
        XCTAssertEqual(pow(10, Double(theCamera[0])!), 0.25, accuracy: 1e-3) // (1 − 0.5) / 2
    }

    func testDictionaryHoldsOnlyTheScriptsWordsWithAlternates() {
        let lm = model("The camera, the duo.")
        XCTAssertEqual(lm.dictionary, """
            camera K AE M ER AH
            camera(2) K AE M R AH
            duo D UW OW
            the DH AH
            the(2) DH IY

            """)
        XCTAssertEqual(lm.vocabulary, ["camera", "duo", "the"])
        XCTAssertEqual(lm.guessedWords, [])
        XCTAssertEqual(lm.skippedWords, [])
    }

    func testMissingWordsAreGuessedOrSkipped() {
        let lm = model("The gizmo shows 42 crêpes.")
        XCTAssertEqual(lm.guessedWords, ["gizmo", "shows"])
        XCTAssertEqual(lm.skippedWords, ["42", "crêpes"])
        XCTAssertTrue(lm.dictionary.contains("gizmo G IH Z M OW\n"))
        XCTAssertTrue(lm.dictionary.contains("shows SH OW S\n"))
        XCTAssertFalse(lm.dictionary.contains("42"))
        // Skipped words are left out of the model; their neighbours become a bigram.
        XCTAssertTrue(lm.arpa.contains(" shows </s>\n"))
        XCTAssertFalse(lm.arpa.contains("42"))
    }

    func testPossessivesOfKnownWordsAndAbbreviations() {
        let lm = model("The camera's duo's step's GTK QA.")
        XCTAssertEqual(lm.guessedWords, ["gtk", "qa"])
        XCTAssertTrue(lm.dictionary.contains("camera's K AE M ER AH Z\ncamera's(2) K AE M R AH Z\n"))
        XCTAssertTrue(lm.dictionary.contains("duo's D UW OW Z\n"))
        XCTAssertTrue(lm.dictionary.contains("step's S T EH P S\n"))
        XCTAssertTrue(lm.dictionary.contains("gtk JH IY T IY K EY\n"))
        XCTAssertTrue(lm.dictionary.contains("qa K Y UW EY\n"))
    }

    func testGuessedPronunciationsUseRulesForCommonSpellings() {
        XCTAssertEqual(ScriptLanguageModel.guessPronunciation("station"), ["S", "T", "EY", "SH", "AH", "N"])
        XCTAssertEqual(ScriptLanguageModel.guessPronunciation("hello"), ["HH", "EH", "L", "OW"])
        XCTAssertEqual(ScriptLanguageModel.guessPronunciation("xylophone"), ["K", "S", "IH", "L", "AA", "F", "OW", "N"])
        XCTAssertEqual(ScriptLanguageModel.guessPronunciation("knight"), ["N", "AY", "T"])
        XCTAssertEqual(ScriptLanguageModel.guessPronunciation("cheese"), ["CH", "IY", "S"])
        XCTAssertEqual(ScriptLanguageModel.guessPronunciation("city"), ["S", "IH", "T", "IY"])
        XCTAssertNil(ScriptLanguageModel.guessPronunciation("42"))
        XCTAssertNil(ScriptLanguageModel.guessPronunciation("crêpe"))
        // Every guessed phone is one of the acoustic model's.
        let phones: Set<String> = ["AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G",
                                   "HH", "IH", "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH",
                                   "T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH"]
        for word in ["zyzzyva", "quartz", "thumbnail", "whistle", "judge", "xylophone", "rhythm", "queue"] {
            let guess = ScriptLanguageModel.guessPronunciation(word)
            XCTAssertNotNil(guess, word)
            XCTAssertTrue(Set(guess ?? []).isSubset(of: phones), "\(word): \(guess ?? [])")
        }
    }

    func testHashFollowsTheRecognisableWordsOnly() {
        let a = ScriptLanguageModel.contentHash(VoiceScript(text: "Hello, world. Again"))
        XCTAssertEqual(a.count, 16)
        XCTAssertTrue(a.allSatisfy(\.isHexDigit))
        // Case and punctuation inside a sentence change nothing the recogniser sees...
        XCTAssertEqual(a, ScriptLanguageModel.contentHash(VoiceScript(text: "hello world. again")))
        // ...a word or a sentence end does.
        XCTAssertNotEqual(a, ScriptLanguageModel.contentHash(VoiceScript(text: "Hello, world. Again too")))
        XCTAssertNotEqual(a, ScriptLanguageModel.contentHash(VoiceScript(text: "Hello, world again")))
        XCTAssertEqual(model("Hello, world. Again").hash, a)
        // Stable across runs and platforms (FNV-1a 64 of fixed bytes): a cache written today is found tomorrow.
        XCTAssertEqual(a, "fadcd9c839d5a26d")
        XCTAssertEqual(ScriptLanguageModel.contentHash(VoiceScript(text: "")), ScriptLanguageModel.contentHash(VoiceScript(words: [])))
    }

    /// The dictionary reader (bytes for ASCII lines, text for others) gives what reading each line as
    /// text gives: upper and lower case, alternates, tabs and runs of blanks, CR LF and CR line ends,
    /// comments, a word with a non-ASCII letter, a Unicode line separator, "(x)" that is no alternate.
    func testTheDictionaryIsReadTheSameWhateverItsLinesLookLike() {
        let text = ";;; comment camera K\nCAMERA  K AE M ER AH\r\nCamera(2)\tK AE M R AH \rcamera(x) X\n  the DH AH\n"
            + "the(12) DH IY\n;;;the NO\nthe\nthee\u{2028}thee DH IY\ncafé K AE F EY\nduo(2 D\nduo() D UW\n\n(3) AH"
        let lexicon = ScriptLanguageModel.lexicon(text, keeping: ["camera", "the", "thee", "café", "camera(x)", "duo", "duo(2", "", ";;;the"])
        XCTAssertEqual(lexicon, [
            "camera": [["K", "AE", "M", "ER", "AH"], ["K", "AE", "M", "R", "AH"]],
            "camera(x)": [["X"]],
            "the": [["DH", "AH"], ["DH", "IY"]],
            "thee": [["DH", "IY"]],
            "café": [["K", "AE", "F", "EY"]],
            "duo(2": [["D"]],
            "duo": [["D", "UW"]],
            "": [["AH"]],
        ])
    }
}
