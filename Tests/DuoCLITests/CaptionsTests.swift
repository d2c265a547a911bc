@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// Captions end to end (issue 38): espeak-ng reads a script written for this test (Fixtures/
/// captions-script.md, with private notes) with an ad-lib, a skipped paragraph and a sentence stopped
/// and read again; the reading is a headless take's sound (`--audio file:`), and `duo-capture captions`
/// captions the reading itself (whose true timings are known) and the take.
final class CaptionsTests: XCTestCase {
    struct Truth: Decodable { let seconds: Double; let spans: [[Double]] }
    struct Cue { let start: Double; let end: Double; let text: String }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let scriptPath = fixtures.appendingPathComponent("captions-script.md").path

    /// `FILE.vtt` and `FILE.srt` as read by webvtt-py and srt (Fixtures/caption_cues.py).
    private func cues(_ stem: String) throws -> (vtt: [Cue], srt: [Cue]) {
        let lib = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/duo-capture-tests/captions-pylib").path
        let read = try runToEnd(URL(fileURLWithPath: "/usr/bin/python3"),
                                [Self.fixtures.appendingPathComponent("caption_cues.py").path, lib, stem + ".vtt", stem + ".srt"], timeout: 300)
        XCTAssertEqual(read.status, 0, "webvtt-py and srt read the files: \(read.stderr)")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: [[Any]]])
        func list(_ key: String) -> [Cue] { (json[key] ?? []).map { Cue(start: $0[0] as! Double, end: $0[1] as! Double, text: $0[2] as! String) } }
        return (list("vtt"), list("srt"))
    }

    /// espeak-ng reads `plan` (Fixtures/reading.py, kept in the tests' cache) into `dir`/`name`.wav;
    /// returns the truth.
    private func read(_ plan: [String: Any], as name: String, in dir: String) throws -> Truth {
        try Readings.make(plan, wav: "\(dir)/\(name).wav", truth: "\(dir)/\(name)-truth.json")
        return try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)-truth.json")))
    }

    /// Each read sentence's first cue against when it truly began (median ≤ 0.35 s, p95 ≤ 0.8 s); no cue
    /// for an unread one; the ad-lib unscripted; the repeated sentence (`carpenters`) captioned once.
    private func checkTiming(_ cues: [Cue], _ truth: Truth, _ script: CaptionScript, carpenters: Int, _ what: String) throws {
        let sentences = script.sentences
        // Where each sentence truly began: the last time its first word started (a repeat's last reading).
        var began: [Int: Double] = [:]
        for s in truth.spans where s[3] == s[2] + 1 { began[Int(s[2])] = s[0] }
        var errors: [Double] = []
        for (n, s) in sentences.enumerated() {
            let firstChunk = script.chunks[s.chunks.lowerBound].text
            let cue = cues.first { $0.text == firstChunk }
            if let t = began[s.words.lowerBound], !s.isHeading || n == 0 {
                let cue = try XCTUnwrap(cue, "\(what): sentence \(n) (\(s.text)) has a cue")
                errors.append(abs(cue.start - t))
            } else if began[s.words.lowerBound] == nil {
                XCTAssertNil(cue, "\(what): unread sentence \(n) (\(s.text)) has no cue")
            }
        }
        errors.sort()
        let median = errors[errors.count / 2], p95 = errors[min(errors.count - 1, Int((Double(errors.count - 1) * 0.95).rounded()))]
        print("captions (\(what)): first-cue error median \(String(format: "%.3f", median)) s, p95 \(String(format: "%.3f", p95)) s over \(errors.count) sentences")
        XCTAssertLessThanOrEqual(median, 0.35, what)
        XCTAssertLessThanOrEqual(p95, 0.8, what)
        XCTAssertTrue(cues.contains { $0.text == "[unscripted]" }, "\(what): the ad-lib is an unscripted cue")
        XCTAssertEqual(cues.filter { $0.text == script.chunks[sentences[carpenters].chunks.lowerBound].text }.count, 1,
                       "\(what): the repeated sentence is captioned once")
        for cue in cues { XCTAssertLessThanOrEqual(cue.end - cue.start, 7.001, "\(what): \(cue.text)") }
    }

    func testATakeIsCaptionedInTheScriptsWordsTimedToItsSpeech() throws {
        let dir = try scratchDirectory(self)
        let parsed = try ScriptParser.load(path: Self.scriptPath)
        let script = CaptionScript(script: parsed.subject)
        let words = parsed.subject.words
        let sentences = script.sentences
        func sentence(startingWith word: String) -> Int { sentences.firstIndex { words[$0.words.lowerBound] == word }! }
        let seven = sentence(startingWith: "Seven"), nobody = sentence(startingWith: "Nobody"), broke = sentence(startingWith: "It")
        let village = sentence(startingWith: "The"), carpenters = sentence(startingWith: "Carpenters")
        let spring = words.firstIndex(of: "Spring")!
        // Heading and first sentence; an ad-lib; the rest of paragraph 1 and paragraph 2 skipped;
        // paragraph 3 with its second sentence stopped after four words and read again; the end skipped.
        let c = sentences[carpenters].words.lowerBound
        let plan: [String: Any] = [
            "words": words, "speed": 170,
            "steps": [["read": [0, sentences[seven].words.lowerBound]], ["adlib": "Sorry, I completely lost my place there."],
                      ["silence": 1.0], ["read": [sentences[village].words.lowerBound, c + 4]], ["silence": 0.6],
                      ["read": [c, spring]]],
        ]
        let truth = try read(plan, as: "reading", in: dir)
        let env = ["XDG_CACHE_HOME": "\(dir)/cache", "XDG_STATE_HOME": "\(dir)/state"]

        // The take: the reading as its sound, recorded with the script but without voice-follow; the run
        // captions it in the background and waits for that at its end.
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "file:\(dir)/reading.wav",
                                  "--script", Self.scriptPath,
                                  "--record", "--countdown", "0", "--record-dir", "\(dir)/takes", "--duration",
                                  String(format: "%.1f", truth.seconds + 0.5)], environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        let take = "\(dir)/takes/" + (try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/takes").first { $0.hasSuffix(".mkv") }))
        let takeStem = String(take.dropLast(4))
        XCTAssertTrue(run.stderr.contains("take 1 captioned"), run.stderr)
        let background = try cues(takeStem)
        XCTAssertNotNil(try TakeSidecar.read(takeStem + ".json").review, "the run put the review in the sidecar")

        // The reading itself: its first cues against the truth.
        let started = Date()
        let onReading = try duoCapture(["captions", "\(dir)/reading.wav", "--script", Self.scriptPath], environment: env)
        XCTAssertEqual(onReading.status, 0, onReading.stderr)
        let readingSeconds = Date().timeIntervalSince(started)
        let (readingCues, readingSubRip) = try cues("\(dir)/reading")
        XCTAssertEqual(readingCues.map(\.text), readingSubRip.map(\.text), "the WebVTT and SubRip files hold the same cues")
        try checkTiming(readingCues, truth, script, carpenters: carpenters, "170 wpm, espeak-ng's default voice, \(String(format: "%.1f", truth.seconds)) s "
                        + "captioned in \(String(format: "%.1f", readingSeconds)) s")

        // The same reading in another voice, faster, over a fan's hum and hiss: the same timing.
        var other = plan
        other["speed"] = 180
        other["voice"] = "en-us"
        other["room"] = true
        let roomTruth = try read(other, as: "room", in: dir)
        let onRoom = try duoCapture(["captions", "\(dir)/room.wav", "--script", Self.scriptPath], environment: env)
        XCTAssertEqual(onRoom.status, 0, onRoom.stderr)
        try checkTiming(try cues("\(dir)/room").vtt, roomTruth, script, carpenters: carpenters, "180 wpm, en-us over room noise")

        // The take: files beside it, a subtitle track inside it, the review in its sidecar.
        let onTake = try duoCapture(["captions", take, "--script", Self.scriptPath], environment: env)
        XCTAssertEqual(onTake.status, 0, onTake.stderr)
        let (takeCues, _) = try cues(takeStem)
        let probed = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-show_entries", "stream=codec_type,codec_name",
                                                                             "-of", "csv=p=0", take], timeout: 60)
        let streams = probed.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(streams.filter { $0.hasSuffix("subtitle") }, ["subrip,subtitle"], "ffprobe finds one subtitle track: \(probed.stdout) \(probed.stderr)")
        XCTAssertTrue(streams.contains { $0.hasSuffix("video") } && streams.contains { $0.hasSuffix("audio") }, "and still its video and sound")
        // The track holds the cues' text exactly as the .srt beside it (ffmpeg copies it back out).
        let extract = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-v", "error", "-i", take, "-map", "0:s:0", "-c", "copy", "-f", "srt", "-"],
                                   timeout: 60)
        XCTAssertEqual(extract.status, 0, extract.stderr)
        let trackCues = CaptionFiles.parseSubRip(extract.stdout)
        let fileCues = CaptionFiles.parseSubRip(try String(contentsOfFile: takeStem + ".srt", encoding: .utf8))
        XCTAssertEqual(trackCues.map(\.text), fileCues.map(\.text), "the subtitle track's words are the captions' own")
        for (a, b) in zip(trackCues, fileCues) { XCTAssertEqual(a.start, b.start, accuracy: 0.011) }
        // The MP4 remux carries them as mov_text.
        let remux = try duoCapture(["remux", take], environment: env)
        XCTAssertEqual(remux.status, 0, remux.stderr)
        let mp4Streams = try runToEnd(URL(fileURLWithPath: "/usr/bin/ffprobe"), ["-v", "error", "-show_entries", "stream=codec_name",
                                                                                "-of", "csv=p=0", takeStem + ".mp4"], timeout: 60)
        XCTAssertTrue(mp4Streams.stdout.split(separator: "\n").contains("mov_text"), "the MP4 remux has a mov_text track: \(mp4Streams.stdout)")
        // Captioned again after the fact: the same cues as the run's (one subtitle track, not two), and as
        // the reading's, shifted by where the take began in it, within 0.2 s.
        XCTAssertEqual(takeCues.map(\.text), background.vtt.map(\.text))
        for (a, b) in zip(takeCues, background.vtt) { XCTAssertEqual(a.start, b.start, accuracy: 0.05) }
        XCTAssertEqual(takeCues.map(\.text), readingCues.map(\.text))
        if takeCues.count == readingCues.count, !takeCues.isEmpty {
            let shifts = zip(takeCues, readingCues).map { $0.start - $1.start }.sorted()
            let shift = shifts[shifts.count / 2]
            for (a, b) in zip(takeCues, readingCues) { XCTAssertEqual(a.start - shift, b.start, accuracy: 0.2, a.text) }
        }
        let sidecar = try String(contentsOfFile: takeStem + ".json", encoding: .utf8)
        let review = try XCTUnwrap(try TakeSidecar.read(takeStem + ".json").review)
        XCTAssertEqual(review.lines[nobody].state, .skipped)
        XCTAssertEqual(review.lines[broke].state, .skipped)
        XCTAssertEqual(review.lines[seven].state, .skipped)
        XCTAssertEqual(review.lines[village].state, .read)
        XCTAssertEqual(review.lines[carpenters].state, .repeated)
        XCTAssertEqual(review.lines[0].state, .read)
        XCTAssertGreaterThanOrEqual(review.unscripted.count, 1, "the ad-lib")
        XCTAssertNotNil(review.paragraphs.first { $0.block == 4 }?.wpm)
        // Nothing private anywhere.
        let vtt = try String(contentsOfFile: takeStem + ".vtt", encoding: .utf8), srt = try String(contentsOfFile: takeStem + ".srt", encoding: .utf8)
        let reviewText = String(decoding: try JSONEncoder().encode(review), as: UTF8.self)
        for note in parsed.operatorNotes {
            for word in note.text.split(whereSeparator: { !$0.isLetter }).map(String.init) where word.count > 4 {
                for (name, text) in [("vtt", vtt), ("srt", srt), ("review", reviewText)] {
                    XCTAssertFalse(text.lowercased().contains(word.lowercased()), "note word \(word) in the \(name)")
                }
            }
        }
        XCTAssertFalse(reviewText.contains(dir), "no path in the review")
        XCTAssertTrue(sidecar.contains("\"review\""))
    }

    func testLanguageWithoutAModelIsRefusedInOneLine() throws {
        let run = try duoCapture(["captions", "nowhere.mkv", "--script", Self.scriptPath, "--language", "fr"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("no speech model for fr") && run.stderr.contains("--language en"), run.stderr)
    }
}
