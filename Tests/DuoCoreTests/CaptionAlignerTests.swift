import XCTest
@testable import DuoCore

/// Captions and the take review from synthetic word timings: a script read with an ad-lib, a skipped
/// paragraph and a repeated sentence, at two speaking rates and start offsets, heard as the recogniser
/// hears (each word a little after it ends).
final class CaptionAlignerTests: XCTestCase {
    static let text = """
        # Harbour morning

        [[note: smile here, the client's lawyer is watching]]
        Bright orange kites drift above the quiet harbour. Seven gulls circle the old lighthouse, \
        while fishing boats come home slowly across the grey water, one by one, with their lights still burning.

        Nobody expected the storm that followed. [PAUSE] It broke the pier into pieces and scattered the nets \
        along the beach.

        The village rebuilt everything before winter. Carpenters worked through the night, and children \
        carried planks down to the shore.
        """

    /// The truth of one synthetic reading: when each read sentence began, and the heard words.
    struct Reading {
        var heard: [HeardSpeech.Word] = []
        var speech: [ClosedRange<Double>] = []
        var sentenceStarts: [Int: Double] = [:]
        var adlib: ClosedRange<Double>?
        var t: Double
    }

    /// Speaks sentences (indices) at `pace` seconds per character; `adlib` words between.
    func read(_ script: CaptionScript, plan: [Any], pace: Double, from start: Double) -> Reading {
        var r = Reading(t: start)
        for step in plan {
            if let sentence = step as? Int {
                let s = script.sentences[sentence]
                let begin = r.t
                r.sentenceStarts[sentence] = begin
                for w in s.words {
                    for token in VoiceScript.normalise(script.words[w]) {
                        r.t += Double(token.count + 1) * pace
                        r.heard.append(.init(token, heardAt: r.t + 0.25))
                    }
                }
                r.speech.append(begin...r.t)
                r.t += 0.4
            } else if let words = step as? [String] {
                let begin = r.t
                for w in words {
                    r.t += Double(w.count + 1) * pace
                    r.heard.append(.init(w, heardAt: r.t + 0.25))
                }
                r.speech.append(begin...r.t)
                if r.adlib == nil { r.adlib = begin...r.t }
                r.t += 0.6
            }
        }
        return r
    }

    func testCaptionsFollowTheReadingThroughAnAdLibASkipAndARepeat() throws {
        let parsed = ScriptParser.parse(text: Self.text, format: .markdown)
        XCTAssertFalse(parsed.operatorNotes.isEmpty, "the script has a private note")
        let script = CaptionScript(script: parsed.subject)
        // Sentences: 0 heading, 1-2 paragraph 1, 3 and 4 paragraph 2 (two blocks around its [PAUSE]), 5-6 paragraph 3.
        XCTAssertEqual(script.sentences.map(\.block), [1, 2, 2, 3, 4, 5, 5])
        for chunk in script.chunks {
            XCTAssertLessThanOrEqual(chunk.lines.count, 2)
            for line in chunk.lines { XCTAssertLessThanOrEqual(line.count, 42, line) }
        }
        // The long sentence breaks at a clause end.
        XCTAssertTrue(script.chunks.filter { $0.sentence == 2 }.dropLast().allSatisfy { CaptionScript.endsClause(String($0.text.split(separator: " ").last!)) },
                      script.chunks.map(\.text).description)

        let stumble = Array(script.sentences[6].words.prefix(4)).map { script.words[$0] }.joined(separator: " ")
        for (pace, offset) in [(0.065, 0.5), (0.05, 3.2)] {
            // Read heading and paragraph 1; an ad-lib; skip paragraph 2; read paragraph 3 with its last
            // sentence stopped after four words and read again.
            var plan: [Any] = [0, 1, 2, ["sorry", "i", "lost", "my", "place", "there"], 5]
            plan.append(VoiceScript(text: stumble).tokens)
            plan.append(6)
            let reading = read(script, plan: plan, pace: pace, from: offset)
            let result = CaptionAligner().align(script, heard: HeardSpeech(words: reading.heard, speech: reading.speech))
            let states = result.review.lines.map(\.state)
            XCTAssertEqual(states, [.read, .read, .read, .skipped, .skipped, .read, .repeated], "pace \(pace)")
            // Every read sentence's first cue starts where it was said.
            for (sentence, truth) in reading.sentenceStarts where sentence != 6 {
                let first = script.sentences[sentence].chunks.lowerBound
                let cue = result.captions.first { $0.text == script.chunks[first].text }
                XCTAssertEqual(cue?.start ?? -1, truth, accuracy: 0.05, "sentence \(sentence) at pace \(pace)")
            }
            // The repeated sentence is captioned once, at its last reading.
            let repeated = result.captions.filter { $0.text == script.chunks[script.sentences[6].chunks.lowerBound].text }
            XCTAssertEqual(repeated.count, 1)
            XCTAssertEqual(repeated.first?.start ?? -1, reading.sentenceStarts[6]!, accuracy: 0.05)
            // No cue of the skipped paragraph; the ad-lib is unscripted.
            for s in [3, 4] { for c in script.sentences[s].chunks { XCTAssertFalse(result.captions.contains { $0.text == script.chunks[c].text }) } }
            XCTAssertEqual(result.review.unscripted.count, 1)
            XCTAssertEqual(result.review.unscripted.first?.start ?? -1, reading.adlib!.lowerBound, accuracy: 0.1)
            XCTAssertTrue(result.captions.contains { $0.text == "[unscripted]" })
            // Cues in order, not overlapping, 1 to 7 s (a short one only when the next follows at once).
            for (a, b) in zip(result.captions, result.captions.dropFirst()) { XCTAssertLessThanOrEqual(a.end, b.start + 1e-9) }
            for c in result.captions { XCTAssertLessThanOrEqual(c.end - c.start, 7 + 1e-9) }
            XCTAssertEqual(result.review.scriptRange?.fromLine, 1)
            XCTAssertEqual(result.review.scriptRange?.toLine, 7)
            XCTAssertNil(result.review.paragraphs.first { $0.block == 3 }?.wpm, "the skipped paragraph has no pace")
            let wpm = try XCTUnwrap(result.review.paragraphs.first { $0.block == 2 }?.wpm)
            // Words per minute near the reading's (≈ 6 characters a word).
            XCTAssertEqual(wpm, 60 / (pace * 6.3), accuracy: 60 / (pace * 6.3) * 0.25)

            // Files: nothing private in them.
            let vtt = CaptionFiles.webVTT(result.captions), srt = CaptionFiles.subRip(result.captions)
            let review = String(decoding: try JSONEncoder().encode(result.review), as: UTF8.self)
            for text in [vtt, srt, review] {
                for word in ["smile", "lawyer", "client", "note", "PAUSE"] { XCTAssertFalse(text.contains(word), word) }
            }
            XCTAssertTrue(vtt.hasPrefix("WEBVTT\n\n1\n"))
        }
    }

    func testWriterFormats() {
        let captions = [Caption(start: 0.5, end: 2.25, text: "Fish & chips\n<tonight>"), Caption(start: 3661.0015, end: 3662, text: "Late")]
        XCTAssertEqual(CaptionFiles.webVTT(captions),
                       "WEBVTT\n\n1\n00:00:00.500 --> 00:00:02.250\nFish &amp; chips\n&lt;tonight&gt;\n\n2\n01:01:01.002 --> 01:01:02.000\nLate\n\n")
        XCTAssertEqual(CaptionFiles.subRip(captions),
                       "1\n00:00:00,500 --> 00:00:02,250\nFish & chips\n<tonight>\n\n2\n01:01:01,002 --> 01:01:02,000\nLate\n\n")
    }

    /// The text the subtitle tracks are muxed from: SubViewer keeps `&` and `<…>` as written (subparse
    /// passes it on as UTF-8), and SubRip reads back to the same cues.
    func testSubtitleTrackTextKeepsTheWordsAsWritten() {
        let captions = [Caption(start: 0.5, end: 2.25, text: "Fish & chips\n<tonight>"), Caption(start: 3661.004, end: 3662, text: "Late")]
        XCTAssertEqual(CaptionFiles.subViewer(captions), "[INFORMATION]\n[TITLE]captions\n[END INFORMATION]\n[SUBTITLE]\n"
                       + "00:00:00.500,00:00:02.250\nFish & chips[br]<tonight>\n\n01:01:01.004,01:01:02.000\nLate\n\n")
        let back = CaptionFiles.parseSubRip("\u{FEFF}" + CaptionFiles.subRip(captions).replacingOccurrences(of: "\n", with: "\r\n") + "garbage\n\n")
        XCTAssertEqual(back.map(\.text), captions.map(\.text))
        XCTAssertEqual(back.map(\.start), [0.5, 3661.004])
        XCTAssertEqual(back.map(\.end), [2.25, 3662])
    }

    func testHypothesesBecomeTimedWords() {
        var collector = HeardSpeech.Collector()
        collector.hypothesis("bright", final: false, at: 1.0)
        collector.hypothesis("bright orange", final: false, at: 1.3)
        collector.hypothesis("bright oranges kites", final: false, at: 1.6)
        collector.hypothesis("bright orange kites drift", final: false, at: 2.0)
        collector.hypothesis("bright orange kites drift", final: true, at: 2.4)
        collector.hypothesis("seven", final: false, at: 4.0)
        collector.finish()
        // A word is timed from when it stood for good: "orange" was dropped at 1.6, so its run (and that of
        // "kites", which followed "oranges" there) begins at 2.0.
        XCTAssertEqual(collector.words, [.init("bright", heardAt: 1.0), .init("orange", heardAt: 2.0), .init("kites", heardAt: 2.0),
                                         .init("drift", heardAt: 2.0), .init("seven", heardAt: 4.0)])

        // What pocketsphinx does over a long utterance: a partial guesses "the" early and drops it again,
        // and the final hypothesis, searched again as a whole, inserts words ("the the") that would shift
        // every later word by its index. Its words are matched to the last partial's in order, each timed
        // from when that partial word held; the inserted ones fall between their neighbours.
        var long = HeardSpeech.Collector()
        long.hypothesis("square", final: false, at: 5.0)
        long.hypothesis("square the", final: false, at: 5.1)
        long.hypothesis("square", final: false, at: 5.2)
        long.hypothesis("square the", final: false, at: 5.9)
        long.hypothesis("square the station", final: false, at: 6.2)
        long.hypothesis("square the the the station", final: true, at: 6.5)
        XCTAssertEqual(long.words.map(\.text), ["square", "the", "the", "the", "station"])
        for (word, time) in zip(long.words, [5.0, 5.9, 6.0, 6.1, 6.2]) { XCTAssertEqual(word.heardAt, time, accuracy: 1e-9) }
        let levels = [Double](repeating: -50, count: 50) + [Double](repeating: -20, count: 30) + [-50, -50, -50] + [Double](repeating: -22, count: 20) + [Double](repeating: -50, count: 40)
        let speech = HeardSpeech.speech(levels: levels, frame: 0.02, bridge: 0.1)
        XCTAssertEqual(speech.count, 1, "a 60 ms gap is bridged")
        XCTAssertEqual(speech.first?.lowerBound ?? -1, 1.0, accuracy: 1e-9)
        XCTAssertEqual(speech.first?.upperBound ?? -1, 2.06, accuracy: 1e-9)
    }

    /// The report's per-shot summary: script lines no good take read ("line 3 read in no good take"),
    /// in the HTML and in `report --json`; with no good take, the lines no take read.
    func testTheReportSaysWhichLinesNoGoodTakeRead() throws {
        func review(_ states: [CaptionReview.State]) -> CaptionReview {
            CaptionReview(lines: states.enumerated().map { i, state in
                CaptionReview.Line(block: 1, text: "Line number \(i + 1) of the script.", state: state,
                                   start: state == .skipped ? nil : Double(i), end: state == .skipped ? nil : Double(i) + 0.9)
            }, unscripted: [], paragraphs: [], scriptRange: nil)
        }
        func take(_ n: Int, shot: String, mark: String?, _ states: [CaptionReview.State]) -> SessionReport.Take {
            var sidecar = TakeSidecar(toolVersion: "0", gstreamerVersion: "1.22", take: n, file: "take0\(n).mkv", started: Date(),
                                      countdownSeconds: 0, cameras: [], format: "320x240@30", aspect: nil, encoder: "x264enc",
                                      container: "mkv", audio: nil)
            sidecar.shot = shot
            sidecar.shotTake = n
            sidecar.mark = mark
            sidecar.review = review(states)
            return SessionReport.Take(file: "/nowhere/take0\(n).mkv", sidecar: sidecar, thumbnails: [], levels: [], seconds: 10,
                                      frames: 300, width: 320, height: 240, damage: nil)
        }
        let takes = [take(1, shot: "01", mark: "good", [.read, .read, .skipped, .read]),
                     take(2, shot: "01", mark: "no-good", [.skipped, .skipped, .read, .read]),
                     take(3, shot: "02", mark: nil, [.read, .skipped, .partly]),
                     take(4, shot: "02", mark: nil, [.read, .skipped, .skipped])]
        let page = SessionReport.html(folder: "/nowhere", takes: takes)
        XCTAssertTrue(page.contains("line 3 read in no good take: 3 (“Line number 3 of the script.”)"), page)
        XCTAssertTrue(page.contains("line 2 read in no take: 2 (“Line number 2 of the script.”)"), page)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(SessionReport.json(folder: "/nowhere", takes: takes, list: nil).utf8)) as? [String: Any])
        let shots = try XCTUnwrap(json["shots"] as? [[String: Any]])
        XCTAssertEqual(shots.first { $0["id"] as? String == "01" }?["linesReadInNoGoodTake"] as? [Int], [3])
        XCTAssertEqual(shots.first { $0["id"] as? String == "02" }?["linesReadInNoGoodTake"] as? [Int], [1, 2, 3], "no good take: every line")
        let all = [take(5, shot: "03", mark: "good", [.read, .repeated])]
        XCTAssertTrue(SessionReport.html(folder: "/nowhere", takes: all).contains("every script line is read in a good take"))
    }

    /// The session report shows the review: the lines with their marks, each time a link that plays the
    /// take from there, and nothing of the private notes.
    func testTheReportShowsTheReviewWithPlayableTimes() {
        let parsed = ScriptParser.parse(text: Self.text, format: .markdown)
        let script = CaptionScript(script: parsed.subject)
        let reading = read(script, plan: [0, 1, 2, ["sorry", "i", "lost", "my", "place"], 5, 6], pace: 0.06, from: 1.0)
        let result = CaptionAligner().align(script, heard: HeardSpeech(words: reading.heard, speech: reading.speech))
        var sidecar = TakeSidecar(toolVersion: "0", gstreamerVersion: "1.22", take: 3, file: "take03.mkv", started: Date(),
                                  countdownSeconds: 0, cameras: [], format: "320x240@30", aspect: nil, encoder: "x264enc",
                                  container: "mkv", audio: nil)
        sidecar.review = result.review
        let take = SessionReport.Take(file: "/nowhere/take03.mkv", sidecar: sidecar, thumbnails: [], levels: [], seconds: 30,
                                      frames: 900, width: 320, height: 240, damage: nil)
        let page = SessionReport.html(folder: "/nowhere", takes: [take])
        XCTAssertTrue(page.contains("<video id=\"take3-"), "the take plays on the page")
        XCTAssertTrue(page.contains("src=\"take03.mkv\""))
        let start = result.review.lines[5].start!
        XCTAssertTrue(page.contains("href=\"take03.mkv#t=\(String(format: "%.1f", start))\""), "a time plays the take from there")
        XCTAssertTrue(page.contains("✗ skipped</span> Nobody expected the storm that followed."))
        XCTAssertTrue(page.contains("✓ read</span> The village rebuilt everything before winter."))
        XCTAssertTrue(page.contains("not in the script"))
        for word in ["smile", "lawyer", "client"] { XCTAssertFalse(page.contains(word), word) }
    }
}
