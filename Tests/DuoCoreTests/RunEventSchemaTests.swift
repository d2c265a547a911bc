import DuoCore
import Foundation
import XCTest

/// The typed events against their public form: every `RunEvent` case is a row of docs/events.md with
/// exactly its fields, every row has a case, and each case's JSON line is byte for byte the one the
/// event log has always written (a golden line per case in Fixtures/run-events.jsonl).
final class RunEventSchemaTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One value of every case, with values that exercise the encoding: nulls, fractions, whole
    /// doubles, non-ASCII, slashes and quotes.
    static let samples: [RunEvent] = [
        .starting(camera: "Simulated inner camera", format: "1280x720@30", mode: "1280x720@30 NV12", timeout: 10),
        .started(camera: "v4l2:/dev/video0", format: "1920x1080@59.94"),
        .command(cmd: "speed", source: "control"),
        .timeline(at: 2.5),
        .countdown(seconds: 3, take: 1),
        .countdownCancelled(take: 2),
        .takeStarted(take: 1, file: "/tmp/takes/duo-2026-12-02_000102-take01.mkv"),
        .takeEnded(take: 1, file: "/tmp/takes/duo-take01.mkv", frames: 151, dropped: 0, kept: true, empty: false, error: nil),
        .shot(id: "intro", title: "Intro \"hello\" — café", index: 1, count: 3, takes: 0, next: "b-roll", trigger: "start"),
        .shotTake(take: 4, shot: "intro", shotTake: 2, file: nil),
        .mark(take: 4, shot: "intro", shotTake: 2, mark: "no-good", file: "/tmp/t/duo-intro-take02.mkv", by: "operator"),
        .shotsReloaded(count: 2, current: "outro", notice: nil),
        .note(kind: "note", code: "BUG", text: "menu hides the button", take: 4, at: 3.25, wall: "2026-12-02T03:40:00.123+00:00", shot: "intro"),
        .replaySaved(file: "/home/alice/v/duo-2026-12-02_034012-replay01.mkv", seconds: 10.033, start: "2026-12-02T03:40:02.100+00:00",
                     end: "2026-12-02T03:40:12.133+00:00", frames: 301, chapters: 2),
        .swap(from: "inner", to: "outer", format: "1920x1080@60"),
        .swapRefused(reason: "camera B records 640x480@30 while a take runs; stop, then switch"),
        .chapter(take: 2, title: "Step 3 — «login»", at: 12.5, by: "obs-websocket"),
        .mirror(display: "subject", mirrored: false, camera: "B", cause: "faces"),
        .requirements(required: ["3840x2160@120", "depth"], unmet: []),
        .join(take: 3, state: "failed", progress: nil, file: "/tmp/j/duo-take03.mkv", segments: ["a.mkv", "b.mkv"], error: "disk full"),
        .cameraLost(camera: "A", label: "Logitech C920", reason: "unplugged (/dev/video2)"),
        .cameraRestored(camera: "B", label: "outer"),
        .microphoneLost(label: "USB Mic", id: "id:42", reason: "silent for 0.6 s"),
        .microphoneRestored(label: "USB Mic", id: "id:42", missingSeconds: 1.3),
        .follow(mode: "time", state: nil, word: nil, position: 12.3, at: 4.567),
        .accessory(.init(enabled: true, available: false, shown: false, reasons: ["operator-not-fullscreen", "no-subject-monitor"],
                         subjectMonitor: nil)),
        .availability(.init(enabled: true, available: true, shown: true, reasons: [], subjectMonitor: "HDMI-1")),
        .selfView(size: "large"),
        .cue(text: "look at the lens", preset: "lens", seconds: 5),
        .frames(flowing: true, cameraFrames: 30),
        .status(.init(trigger: "periodic", position: 3.5, length: 120, paused: false, speed: "1.0×", secondsLeft: 41.25,
                      mirror: "hv", fontSize: 48, cameraFrames: 300, operatorFrames: 298, subjectFrames: 150, cameraDropped: 1,
                      previewSkipped: 2, subjectSkipped: 0, recording: true, audioPeak: nil)),
        .framing(.init(mode: "interview", faces: [.init(x: 0.1, y: 0.25, width: 0.125, height: 0.333)],
                       hint: "left: move left · right: no one in frame",
                       hints: [.init(person: "left", hint: "move left"), .init(person: nil, hint: "step back")], reason: nil)),
        .error(message: "control: unknown command \"jump\"; try {\"cmd\":\"help\"}", source: "control"),
        .stopped(reason: "SIGINT received", exitCode: 130),
        .monitors(backend: "x11", monitors: [.init(index: 0, connector: "DUMMY0", geometry: "1920x1080+0+0"),
                                             .init(index: 1, connector: "DUMMY1", geometry: "1280x720+1920+0")]),
        .remote(display: "srt://192.168.1.20:7001", state: "connected", width: 1920, height: 1080, reason: nil),
        .display(state: "refused", reason: "wrong passphrase", frames: nil),
        .fullscreen(true),
        .subjectMonitor(shows: "curtain"),
        .preview(fps: 29.9, of: 60, largestGapMs: 33.4, intervalMs: 33.3),
        .controls(shown: true, buttons: ["record": [10, 20, 64, 48], "pause": [80, 20, 64, 48], "swap": []]),
        .operatorPicture(width: 1280, height: 720, shownWidth: 1920, shownHeight: 1080, filter: "nearest"),
    ]

    /// The event log's golden lines, one per sample, in the samples' order (t = 1.234).
    func goldenLines() throws -> [String] {
        let path = Self.root.appendingPathComponent("Tests/DuoCoreTests/Fixtures/run-events.jsonl")
        return try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func schema() throws -> EventSchema {
        EventSchema.parse(markdown: try String(contentsOf: Self.root.appendingPathComponent("docs/events.md"), encoding: .utf8))
    }

    func testEveryCaseIsDocumentedAndEveryDocumentedEventHasACase() throws {
        let documented = Set(try schema().events.keys)
        XCTAssertEqual(Set(RunEvent.Kind.allCases.map(\.rawValue)), documented,
                       "RunEvent has a case for exactly the events docs/events.md documents")
        // The samples cover every case once (a case added without a sample fails here).
        XCTAssertEqual(Self.samples.map(\.kind), RunEvent.Kind.allCases)
    }

    func testEachCaseEncodesExactlyItsDocumentedFields() throws {
        let schema = try schema()
        for sample in Self.samples {
            let line = String(decoding: RunEvent.Timed(sample, t: 1.234).json, as: UTF8.self)
            XCTAssertNil(schema.violation(line), line)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertEqual(object["event"] as? String, sample.name)
            XCTAssertEqual(object["t"] as? Double, 1.234)
            XCTAssertEqual(object["v"] as? Int, 1)
        }
    }

    func testEachCaseWritesItsGoldenLine() throws {
        let golden = try goldenLines()
        XCTAssertEqual(golden.count, Self.samples.count, "a golden line per case")
        for (sample, expected) in zip(Self.samples, golden) {
            XCTAssertEqual(String(decoding: RunEvent.Timed(sample, t: 1.234).json, as: UTF8.self), expected, sample.name)
        }
    }

    /// The typed line is what the old writer (JSONSerialization with sorted keys over the same values)
    /// makes of it: the same key order, numbers, escapes and nulls.
    func testLinesAreWhatTheDictionaryWriterMakesOfThem() throws {
        for sample in Self.samples {
            let line = RunEvent.Timed(sample, t: 0.5).json
            let object = try JSONSerialization.jsonObject(with: line)
            let rewritten = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            XCTAssertEqual(String(decoding: line, as: UTF8.self), String(decoding: rewritten, as: UTF8.self), sample.name)
        }
    }

    /// A field that does not apply is written as `null`, never left out.
    func testFieldsThatDoNotApplyAreNull() throws {
        let line = String(decoding: RunEvent.Timed(.display(state: "waiting", reason: nil, frames: 0), t: 0).json, as: UTF8.self)
        XCTAssertEqual(line, #"{"event":"display","frames":0,"reason":null,"state":"waiting","t":0,"v":1}"#)
    }
}
