@testable import DuoCLI
import DuoCore
import DuoMedia
import Foundation
import XCTest

/// Voice-follow end to end: espeak-ng reads the shipped sample script (Assets/scripts/talk.md) with an
/// ad-libbed sentence, a pause of a few seconds and a skipped paragraph; the reading is played as the
/// live microphone (`--audio file:`), the real recogniser hears it, and the line the teleprompter follows
/// (the `follow` events) is compared with where the speaker truly was.
final class VoiceFollowTests: XCTestCase {
    struct Truth: Decodable {
        let seconds: Double
        let spans: [[Double]]
        /// The speaker's position (words said) at `t` seconds into the reading.
        func position(at t: Double) -> Double {
            var p = 0.0
            for s in spans where s[0] <= t {
                p = t >= s[1] ? s[3] : s[2] + (s[3] - s[2]) * (t - s[0]) / max(s[1] - s[0], 1e-9)
            }
            return p
        }
    }

    struct Sample { let at: Double; let position: Double; let state: String? }

    private static let script = VirtualScript.talk

    /// The sample script's blocks as word ranges (the teleprompter's word positions).
    enum VirtualScript {
        static let talk: (path: String, words: [String], blocks: [(kind: String, range: Range<Int>)]) = {
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Assets/scripts/talk.md").path
            let subject = try! ScriptParser.load(path: path).subject
            var blocks: [(String, Range<Int>)] = []
            var at = 0
            for block in subject.blocks {
                switch block {
                case .heading(_, let runs), .paragraph(let runs):
                    let n = runs.map(\.text).joined().split(whereSeparator: \.isWhitespace).count
                    blocks.append((block.isHeading ? "heading" : "paragraph", at..<(at + n)))
                    at += n
                case .pause: blocks.append(("pause", at..<at))
                }
            }
            return (path, subject.words, blocks)
        }()
    }

    /// espeak-ng reads `plan` (Fixtures/reading.py, kept in the tests' cache) into `dir`/reading.wav;
    /// returns the truth.
    private func speak(_ plan: [String: Any], in dir: String) throws -> Truth {
        try Readings.make(plan, in: dir)
        return try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: "\(dir)/truth.json")))
    }

    /// Speaks `steps` at `speed` and runs duo-capture following it; returns the truth and what was followed.
    private func follow(speed: Int, steps: [[String: Any]]) throws -> (truth: Truth, samples: [Sample], run: Run) {
        let dir = try scratchDirectory(self)
        let truth = try speak(["words": Self.script.words, "speed": speed, "steps": steps], in: dir)
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--script", Self.script.path,
                                  "--accessory", "teleprompter", "--follow", "voice", "--audio", "file:\(dir)/reading.wav",
                                  "--duration", String(format: "%.1f", truth.seconds + 1), "--events", events, "--quiet"],
                                 environment: ["XDG_CACHE_HOME": "\(dir)/cache", "XDG_STATE_HOME": "\(dir)/state"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let samples = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").compactMap { line -> Sample? in
            guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], e["event"] as? String == "follow",
                  let at = e["at"] as? Double, let p = e["position"] as? Double else { return nil }
            return Sample(at: at, position: p, state: e["state"] as? String)
        }
        return (truth, samples, run)
    }

    /// The followed line against the truth every 100 ms (the line stands between events).
    private func errors(_ truth: Truth, _ samples: [Sample]) -> [Double] {
        stride(from: 0.5, through: truth.seconds, by: 0.1).map { t in
            let followed = samples.last { $0.at <= t }?.position ?? 0
            return abs(followed - truth.position(at: t))
        }
    }

    private func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }

    private func reading() -> [[String: Any]] {
        let b = Self.script.blocks
        // Welcome and its paragraph; an ad-lib; a pause; "Why two screens" and its paragraph skipped; then
        // "What comes next" to the end.
        let paragraphs = b.filter { $0.kind == "paragraph" }
        let headings = b.filter { $0.kind == "heading" }
        return [
            ["read": [0, paragraphs[0].range.upperBound]],
            ["adlib": "Sorry, I lost my place there for a second."],
            ["silence": 3.0],
            ["read": [headings[2].range.lowerBound, Self.script.words.count]],
        ]
    }

    private func check(speed: Int) throws {
        let (truth, samples, run) = try follow(speed: speed, steps: reading())
        XCTAssertGreaterThan(samples.count, 10, run.stderr)
        XCTAssertEqual(samples.first?.state, "holding", "nothing heard yet")
        let e = errors(truth, samples)
        let median = percentile(e, 0.5), p95 = percentile(e, 0.95)
        XCTAssertLessThanOrEqual(median, 3, "median error in words at \(speed) wpm")
        XCTAssertLessThanOrEqual(p95, 10, "95th percentile error in words at \(speed) wpm")
        // The line never moves back, and it holds through the silence.
        for (a, b) in zip(samples, samples.dropFirst()) { XCTAssertGreaterThanOrEqual(b.position, a.position - 1e-9) }
        XCTAssertTrue(samples.contains { $0.state == "holding" && $0.at > 2 }, "the pause is held")
        // The skipped paragraph: the line reaches the last paragraph, past what was never read.
        let last = Self.script.blocks.filter { $0.kind == "paragraph" }.last!.range
        XCTAssertGreaterThanOrEqual(samples.last?.position ?? 0, Double(last.lowerBound), "the skip was followed to the end")
        print("voice-follow at \(speed) wpm: median \(median) words, p95 \(p95) words, \(samples.count) follow events")
    }

    func testTheLineFollowsASlowReadingThroughAnAdLibAPauseAndASkip() throws { try check(speed: 140) }
    func testTheLineFollowsAFastReadingThroughAnAdLibAPauseAndASkip() throws { try check(speed: 180) }

    /// Another script opened while following (the O key, a client): its own model replaces the
    /// recogniser's, so words only the new script has are heard and followed to its end.
    func testAnotherScriptIsFollowedWithItsOwnWords() throws {
        let dir = try scratchDirectory(self)
        let newText = "Bright orange kites drift above the quiet harbour, while seven gulls circle the old lighthouse and the fishing boats come home."
        try Data("# Harbour\n\n\(newText)\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/harbour.md"))
        let newWords = ["Harbour"] + newText.split(separator: " ").map(String.init)
        let seconds = try speak(["words": Self.script.words, "speed": 150,
                                 "steps": [["read": [0, 12]], ["silence": 5.0], ["adlib": "Harbour. " + newText]]], in: dir).seconds
        try Data(#"{"at": 6.0, "cmd": "script", "path": "\#(dir)/harbour.md"}"#.utf8).write(to: URL(fileURLWithPath: "\(dir)/t.jsonl"))
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--script", Self.script.path,
                                  "--accessory", "teleprompter", "--follow", "voice", "--audio", "file:\(dir)/reading.wav",
                                  "--timeline", "\(dir)/t.jsonl", "--duration", String(format: "%.1f", seconds + 1), "--events", events],
                                 environment: ["XDG_CACHE_HOME": "\(dir)/cache", "XDG_STATE_HOME": "\(dir)/state"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("voice-follow listens for the new script's words"), run.stderr)
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let opened = try XCTUnwrap(lines.firstIndex { $0.contains(#""cmd":"script""#) })
        let after = lines[opened...].compactMap { line -> (word: String?, position: Double)? in
            guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], e["event"] as? String == "follow",
                  let p = e["position"] as? Double else { return nil }
            return (e["word"] as? String, p)
        }
        let heard = Set(after.compactMap(\.word)).intersection(["orange", "kites", "harbour,", "seven", "gulls", "lighthouse", "fishing", "boats"])
        XCTAssertGreaterThanOrEqual(heard.count, 3, "words only the new script has were heard: \(after)")
        XCTAssertGreaterThanOrEqual(after.last?.position ?? 0, 0.6 * Double(newWords.count), "followed through the new script: \(after)")
    }

    /// Without voice (`--audio none`) `--follow voice` is a one-line usage error; a script in a language
    /// without an installed speech model runs, following time, and says so.
    func testVoiceFollowNeedsSoundAndSaysWhenItCannotReadTheScript() throws {
        let none = try duoCapture(["--headless", "--source", "videotestsrc", "--script", Self.script.path, "--accessory", "teleprompter",
                                   "--follow", "voice", "--audio", "none", "--duration", "1"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.hasPrefix("duo-capture: error: --follow voice needs sound"), none.stderr)
        // The default, --audio auto, on a machine with no microphone (no sound card here; a private runtime
        // folder, so no PipeWire or PulseAudio; a fresh home, so none remembered): said as what it is.
        let bare = try scratchDirectory(self)
        let auto = try duoCapture(["--headless", "--source", "videotestsrc", "--script", Self.script.path, "--accessory", "teleprompter",
                                   "--follow", "voice", "--duration", "1"],
                                  environment: ["XDG_RUNTIME_DIR": bare, "HOME": bare, "XDG_CONFIG_HOME": "\(bare)/config",
                                                "XDG_STATE_HOME": "\(bare)/state", "XDG_CACHE_HOME": "\(bare)/cache"])
        XCTAssertEqual(auto.status, 64, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("--follow voice needs a microphone and none was found: plug one in"), auto.stderr)
        let chinese = URL(fileURLWithPath: Self.script.path).deletingLastPathComponent().appendingPathComponent("chinese.txt").path
        let dir = try scratchDirectory(self)
        let other = try duoCapture(["--headless", "--source", "videotestsrc", "--script", chinese, "--accessory", "teleprompter",
                                    "--follow", "voice", "--audio", "test", "--duration", "1", "--events", "\(dir)/events.jsonl"],
                                   environment: ["XDG_CACHE_HOME": "\(dir)/cache"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertTrue(other.stderr.contains("voice-follow: the script has no spaces between words"), other.stderr)
        XCTAssertTrue(try String(contentsOfFile: "\(dir)/events.jsonl", encoding: .utf8).contains(#""mode":"time""#))
    }
}

/// Voice-follow's cached model is only used whole: a FIFO, a link, a truncated or malformed file in its
/// place (which hung or crashed the recogniser, deaf to signals) is built again; and a model the
/// recogniser still cannot load leaves the run following time, with a message about voice-follow.
final class VoiceModelCacheTests: XCTestCase {
    private let script = VoiceFollowTests.VirtualScript.talk.path

    /// One short run following the voice (a test tone for sound): its exit status, stderr and events.
    /// A run that hangs is killed (SIGKILL: the hang ignored SIGTERM) and reported as -1.
    private func runOnce(_ dir: String) throws -> (status: Int32, stderr: String, events: String) {
        let events = "\(dir)/events-\(UUID().uuidString).jsonl"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "160x120@15", "--script", script,
                                     "--accessory", "teleprompter", "--follow", "voice", "--audio", "test", "--duration", "1",
                                     "--events", events], directory: dir, environment: ["XDG_CACHE_HOME": "\(dir)/cache"])
        let deadline = Date().addingTimeInterval(60)
        while run.process.isRunning && Date() < deadline { usleep(20_000) }
        if run.process.isRunning {
            kill(run.process.processIdentifier, SIGKILL)
            run.process.waitUntilExit()
            return (-1, run.stderr, "")
        }
        run.process.waitUntilExit()
        return (run.process.terminationStatus, run.stderr, (try? String(contentsOfFile: events, encoding: .utf8)) ?? "")
    }

    private func modelFiles(_ dir: String) throws -> VoiceModelFiles {
        let cache = "\(dir)/cache/duo-capture/voice"
        let lm = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: cache).first { $0.hasSuffix(".lm") })
        let base = "\(cache)/\((lm as NSString).deletingPathExtension)"
        return VoiceModelFiles(acousticModel: VoiceModelSetup.modelDirectory + "/en-us", languageModel: base + ".lm", dictionary: base + ".dict")
    }

    /// Writes `lm` in place of the cached language model with a checksum that matches it, so only the
    /// file's own form can tell it apart.
    private func plant(_ lm: String, _ files: VoiceModelFiles) throws {
        try? FileManager.default.removeItem(atPath: files.languageModel)
        try lm.write(toFile: files.languageModel, atomically: true, encoding: .utf8)
        let dict = [UInt8](try Data(contentsOf: URL(fileURLWithPath: files.dictionary)))
        try VoiceModelCache.sumText(languageModel: Array(lm.utf8), dictionary: dict)
            .write(toFile: VoiceModelCache.sumPath(files), atomically: true, encoding: .utf8)
    }

    func testACachedModelThatIsNotWholeIsBuiltAgain() throws {
        let dir = try scratchDirectory(self)
        let first = try runOnce(dir)
        XCTAssertEqual(first.status, 0, first.stderr)
        let files = try modelFiles(dir)
        let good = try String(contentsOfFile: files.languageModel, encoding: .utf8)
        let damages: [(String, () throws -> Void)] = [
            ("a FIFO in place of the language model", {
                try FileManager.default.removeItem(atPath: files.languageModel)
                XCTAssertEqual(mkfifo(files.languageModel, 0o644), 0)
            }),
            ("a link to /dev/zero in place of the dictionary", {
                try FileManager.default.removeItem(atPath: files.dictionary)
                try FileManager.default.createSymbolicLink(atPath: files.dictionary, withDestinationPath: "/dev/zero")
            }),
            ("a language model cut short (it crashed the recogniser)", {
                try String(good.prefix(good.count / 2)).write(toFile: files.languageModel, atomically: true, encoding: .utf8)
            }),
            ("a bigram line with one word, checksum matching (it hung the recogniser)", {
                try self.plant("\\data\\\nngram 1=2\nngram 2=1\n\n\\1-grams:\n-99.0 <s> 0\n-1.0 hello 0\n\n\\2-grams:\n-1.0 hello\n\n\\end\\\n", files)
            }),
        ]
        for (what, damage) in damages {
            try damage()
            let run = try runOnce(dir)
            XCTAssertEqual(run.status, 0, "\(what): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("voice-follow: the cached voice model for this script is unusable"), "\(what): \(run.stderr)")
            XCTAssertTrue(run.events.contains(#""mode":"voice""#), "\(what): voice-follow listens: \(run.events)")
            XCTAssertFalse(run.events.contains("voice-follow stopped"), "\(what): \(run.events)")
            XCTAssertEqual(VoiceModelCache.check(files), .valid, "\(what): built again, whole")
            XCTAssertEqual(try String(contentsOfFile: files.languageModel, encoding: .utf8), good, what)
        }
    }

    func testAModelTheRecogniserCannotLoadLeavesTheRunFollowingTimeAndIsBuiltAgain() throws {
        let dir = try scratchDirectory(self)
        XCTAssertEqual(try runOnce(dir).status, 0)
        let files = try modelFiles(dir)
        // Well formed, checksum matching, but without the sentence start <s>: pocketsphinx refuses it.
        try plant("\\data\\\nngram 1=1\n\n\\1-grams:\n-1.0 hello\n\n\\end\\\n", files)
        XCTAssertEqual(VoiceModelCache.check(files), .valid)
        let refused = try runOnce(dir)
        XCTAssertEqual(refused.status, 0, "the run goes on: \(refused.stderr)")
        let warning = try XCTUnwrap(refused.stderr.split(separator: "\n").first { $0.contains("voice-follow stopped") }, refused.stderr)
        XCTAssertTrue(warning.contains("could not load the voice model"), String(warning))
        XCTAssertFalse(warning.contains("camera") || refused.stderr.contains("check the camera"), refused.stderr)
        let follows = refused.events.split(separator: "\n").filter { $0.contains(#""event":"follow""#) }
        XCTAssertTrue(follows.last?.contains(#""mode":"time""#) ?? false, "follows time: \(follows)")
        // The next run builds the model again and listens.
        let next = try runOnce(dir)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertFalse(next.stderr.contains("voice-follow stopped"), next.stderr)
        XCTAssertTrue(next.events.contains(#""mode":"voice""#), next.events)
        XCTAssertEqual(VoiceModelCache.check(files), .valid)
    }
}

private extension ScriptBlock {
    var isHeading: Bool { if case .heading = self { true } else { false } }
}
