@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// Face clips for the framing tests, made with GStreamer from scikit-image's public-domain portrait
/// (`astronaut.png`, NASA), fetched once from PyPI and kept in the tests' cache folder with the clips.
///
/// Each clip is 640×360 at 15 fps, three seconds (the file camera loops it): black, with the portrait's
/// head (a 200×200 crop around the face) scaled and placed so the face's centre and eye line fall where
/// the test says, as fractions of the picture (unmirrored, as the camera sees it).
enum FaceClips {
    /// One head: its crop's side in pixels, the face's centre across and the eye line down (fractions).
    struct Head { let size: Int; let faceX: Double; let eyeY: Double }

    static var cache: String {
        let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        return "\(base)/duo-capture-tests/faces"
    }

    /// The portrait, from the scikit-image wheel on PyPI (no install: the wheel is a zip). Fails the test
    /// with what to do when PyPI cannot be reached: without the face there is nothing to test.
    static func astronaut() throws -> String {
        let png = "\(cache)/astronaut.png"
        if FileManager.default.fileExists(atPath: png) { return png }
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let download = "\(cache)/wheel-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: download) }
        let script = """
            import glob, subprocess, sys, zipfile
            subprocess.run([sys.executable, "-m", "pip", "download", "scikit-image", "--no-deps", "--only-binary=:all:",
                            "-d", sys.argv[1], "-q"], check=True, timeout=300)
            wheel = glob.glob(sys.argv[1] + "/scikit_image-*.whl")[0]
            data = zipfile.ZipFile(wheel).read("skimage/data/astronaut.png")
            open(sys.argv[2] + ".part", "wb").write(data)
            """
        let status = try run("/usr/bin/python3", ["-c", script, download, png])
        guard status == 0, FileManager.default.fileExists(atPath: png + ".part") else {
            throw Failure("could not fetch scikit-image's astronaut.png from PyPI (pip download scikit-image --no-deps); the framing tests need it: give this machine access to PyPI, or put the PNG at \(png)")
        }
        try FileManager.default.moveItem(atPath: png + ".part", toPath: png)
        return png
    }

    /// The clip `name` with `heads` (none: an empty picture), made once and kept in the cache.
    static func clip(_ name: String, _ heads: [Head]) throws -> String {
        let path = "\(cache)/v1-\(name).mkv"
        if FileManager.default.fileExists(atPath: path) { return path }
        let portrait = try astronaut()
        // The background runs the clip's length; each head is the still portrait cropped to its head.
        var line = "compositor name=c background=black"
        for (i, head) in heads.enumerated() {
            let x = Int((head.faceX * 640 - 0.4925 * Double(head.size)).rounded())
            let y = Int((head.eyeY * 360 - 0.415 * Double(head.size)).rounded())
            line += " sink_\(i + 1)::xpos=\(x) sink_\(i + 1)::ypos=\(y)"
        }
        line += " ! video/x-raw,format=I420,width=640,height=360,framerate=15/1 ! x264enc speed-preset=ultrafast key-int-max=15"
        line += " ! matroskamux ! filesink location=\(path).part"
        line += " videotestsrc pattern=black num-buffers=45 ! video/x-raw,width=640,height=360,framerate=15/1 ! c.sink_0"
        for (i, head) in heads.enumerated() {
            line += " filesrc location=\(portrait) ! pngdec ! videocrop left=125 top=20 right=187 bottom=292 ! videoconvert"
            line += " ! videoscale ! video/x-raw,width=\(head.size),height=\(head.size) ! imagefreeze num-buffers=45"
            line += " ! video/x-raw,framerate=15/1 ! c.sink_\(i + 1)"
        }
        let status = try run("/usr/bin/gst-launch-1.0", ["-q"] + line.split(separator: " ").map(String.init))
        guard status == 0 else { throw Failure("gst-launch-1.0 could not make the clip \(name): \(line)") }
        try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
        return path
    }

    static let centre = Head(size: 223, faceX: 0.5, eyeY: 1.0 / 3)

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}

/// Framing hints end to end: a face clip played as the camera (`--camera file:CLIP`), GStreamer's face
/// detector on its branch, the policy, and the `framing` events a run writes. Directions are the
/// subject's own as in their mirrored self-view: a face on the LEFT of the self-view (the RIGHT of the
/// camera picture, as the clip is made) is told "move right".
final class FramingTests: XCTestCase {
    /// One `framing` event: when (seconds after `started`), the hint text and the faces.
    struct Framing { let t: Double; let hint: String?; let faces: [[String: Double]]; let hints: [[String: Any]] }

    /// Runs the clip as the camera for `seconds`, headless, with `--framing mode`; returns the events.
    func framingRun(_ clip: String, mode: String = "single", seconds: Int = 5, extra: [String] = []) throws -> (events: [Framing], run: Run) {
        let dir = try scratchDirectory(self)
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "file:\(clip)", "--framing", mode, "--duration", "\(seconds)",
                                  "--events", events] + extra)
        XCTAssertEqual(run.status, 0, run.stderr)
        var started: Double?
        var out: [Framing] = []
        let documented = try Self.documentedFields()
        for line in try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n") {
            guard let e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if e["event"] as? String == "started" { started = e["t"] as? Double }
            guard e["event"] as? String == "framing", let t = e["t"] as? Double else { continue }
            XCTAssertEqual(Set(e.keys).subtracting(["event", "v", "t"]), documented, "the framing event has exactly the fields docs/events.md lists")
            XCTAssertEqual(e["mode"] as? String, mode)
            out.append(Framing(t: t - (started ?? 0), hint: e["hint"] as? String,
                               faces: e["faces"] as? [[String: Double]] ?? [], hints: e["hints"] as? [[String: Any]] ?? []))
        }
        XCTAssertNotNil(started, "the run started")
        // Hysteresis, in every run: a hint never changes within a second of its last change (the first
        // one, from nothing shown at the start, may come at once).
        var current: String?
        var changedAt: Double?
        for f in out where f.hint != current {
            if let changedAt { XCTAssertGreaterThanOrEqual(f.t - changedAt, 0.99, "hint \(current ?? "none") → \(f.hint ?? "none") within a second") }
            current = f.hint
            changedAt = f.t
        }
        return (out, run)
    }

    /// The fields docs/events.md lists for `framing` (its table row's second column).
    static func documentedFields() throws -> Set<String> {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/events.md")
        let row = try XCTUnwrap(try String(contentsOf: docs, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("| `framing` |") })
        let column = row.split(separator: "|")[1]
        return Set(column.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }

    /// The hints a run showed, in order, without repeats (nil: none).
    func hints(_ events: [Framing]) -> [String?] {
        var seen: [String?] = []
        for e in events where seen.isEmpty || seen.last! != e.hint { seen.append(e.hint) }
        return seen
    }

    func testAFaceLeftInTheSelfViewIsToldMoveRight() throws {
        // Right of the camera picture = left of the mirrored self-view.
        let clip = try FaceClips.clip("camera-right", [.init(size: 223, faceX: 0.8, eyeY: 1.0 / 3)])
        let (events, _) = try framingRun(clip)
        XCTAssertEqual(hints(events).compactMap { $0 }, ["move right"], "\(hints(events))")
        let face = try XCTUnwrap(events.last?.faces.first, "the face was found")
        XCTAssertEqual(face["x"]! + face["width"]! / 2, 0.8, accuracy: 0.05, "the box is in the unmirrored camera picture")
        // Shown soon: the detector's frames and the confirmation take well under a second.
        let first = try XCTUnwrap(events.first { $0.hint == "move right" })
        XCTAssertLessThan(first.t, 2.0)
    }

    func testAFaceRightInTheSelfViewIsToldMoveLeft() throws {
        let clip = try FaceClips.clip("camera-left", [.init(size: 223, faceX: 0.2, eyeY: 1.0 / 3)])
        let (events, _) = try framingRun(clip)
        XCTAssertEqual(hints(events).compactMap { $0 }, ["move left"], "\(hints(events))")
    }

    func testACentredFaceGetsNoHint() throws {
        let clip = try FaceClips.clip("centre", [FaceClips.centre])
        let (events, _) = try framingRun(clip)
        XCTAssertTrue(events.contains { $0.faces.count == 1 }, "the face was found")
        XCTAssertEqual(hints(events).compactMap { $0 }, [], "\(hints(events))")
    }

    func testNoOneInFrameAfterTwoSecondsWithoutAFace() throws {
        let clip = try FaceClips.clip("empty", [])
        let (events, _) = try framingRun(clip)
        XCTAssertEqual(hints(events).compactMap { $0 }, ["no one in frame"], "\(hints(events))")
        let first = try XCTUnwrap(events.first { $0.hint != nil })
        XCTAssertGreaterThanOrEqual(first.t, 1.9, "not before two seconds without a face")
        XCTAssertLessThan(first.t, 3.5)
        XCTAssertTrue(events.allSatisfy { $0.faces.isEmpty })
    }

    func testAFaceTooSmallIsToldCloserAndTooLargeStepBack() throws {
        let small = try FaceClips.clip("small", [.init(size: 100, faceX: 0.5, eyeY: 1.0 / 3)])
        XCTAssertEqual(hints(try framingRun(small).events).compactMap { $0 }, ["a little closer"])
        let large = try FaceClips.clip("large", [.init(size: 480, faceX: 0.5, eyeY: 0.4)])
        XCTAssertEqual(hints(try framingRun(large).events).compactMap { $0 }, ["step back"])
    }

    func testInterviewHintsEachFaceIntoItsThird() throws {
        // Two people near the edges: each is told towards the third on their side. The one on the
        // camera picture's left is on the right of the self-view, and moves left (their own left).
        let clip = try FaceClips.clip("two-wide", [.init(size: 180, faceX: 0.15, eyeY: 1.0 / 3), .init(size: 180, faceX: 0.85, eyeY: 1.0 / 3)])
        let (events, _) = try framingRun(clip, mode: "interview")
        XCTAssertTrue(events.contains { $0.faces.count == 2 }, "both faces found")
        XCTAssertEqual(hints(events).compactMap { $0 }, ["left: move right · right: move left"], "\(hints(events))")
        let last = try XCTUnwrap(events.last)
        XCTAssertEqual(Set(last.hints.compactMap { $0["person"] as? String }), ["left", "right"])
        // The same two faces in single mode: the larger (either) is far off centre.
        let single = try framingRun(clip, mode: "single").events
        XCTAssertFalse(hints(single).compactMap { $0 }.isEmpty)
    }

    func testOffWritesNoFramingEvents() throws {
        let clip = try FaceClips.clip("camera-left", [.init(size: 223, faceX: 0.2, eyeY: 1.0 / 3)])
        let (events, _) = try framingRun(clip, mode: "off", seconds: 2)
        XCTAssertTrue(events.isEmpty)
    }

    /// A copy of the shipped Pipelines/ folder whose framing.gst has `edit` applied.
    func pipelines(_ edit: (String) -> String) throws -> String {
        let dir = try scratchDirectory(self)
        let pipelines = "\(dir)/Pipelines"
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Pipelines").path
        try FileManager.default.copyItem(atPath: shipped, toPath: pipelines)
        let framing = try String(contentsOfFile: "\(pipelines)/framing.gst", encoding: .utf8)
        let edited = edit(framing)
        XCTAssertNotEqual(edited, framing, "the edit applies")
        try edited.write(toFile: "\(pipelines)/framing.gst", atomically: true, encoding: .utf8)
        return pipelines
    }

    /// A detector that fails while the run goes on (an error from inside its branch after 20 frames) is
    /// one line naming the package; the preview and the subject view lose no frame, the run ends well.
    func testADetectorThatFailsMidRunIsOneLineAndTheRunGoesOn() throws {
        let pipelines = try pipelines { $0.replacingOccurrences(of: "! videorate name=framing_rate ", with: "! identity error-after=20 ! videorate name=framing_rate ") }
        let clip = try FaceClips.clip("camera-left", [.init(size: 223, faceX: 0.2, eyeY: 1.0 / 3)])
        let (events, run) = try framingRun(clip, seconds: 4, extra: ["--pipelines", pipelines, "--json"])
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("framing") }
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertTrue(lines.first?.contains("face detector (gstreamer1.0-opencv) failed") ?? false, run.stderr)
        XCTAssertTrue(events.allSatisfy { $0.t < 2.5 }, "no framing event after the detector failed: \(events.map(\.t))")
        struct Summary: Decodable {
            struct Branch: Decodable { let frames: Int64; let dropped: Int64 }
            let camera: Branch, operatorView: Branch, subjectView: Branch
        }
        let summary = try JSONDecoder().decode(Summary.self, from: Data(run.stdout.utf8))
        XCTAssertGreaterThan(summary.camera.frames, 50)
        XCTAssertEqual(summary.camera.dropped, 0)
        XCTAssertEqual(summary.operatorView.dropped, 0)
        XCTAssertEqual(summary.subjectView.dropped, 0)
    }

    /// A detector that does not start is one line naming the package, and the run goes on.
    func testABrokenDetectorIsOneLineAndTheRunGoesOn() throws {
        let pipelines = try pipelines { $0.replacingOccurrences(of: "! facedetect ", with: "! nosuchfacedetector ") }
        let clip = try FaceClips.clip("camera-left", [.init(size: 223, faceX: 0.2, eyeY: 1.0 / 3)])
        let (events, run) = try framingRun(clip, seconds: 2, extra: ["--pipelines", pipelines])
        XCTAssertTrue(events.isEmpty)
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("framing") }
        XCTAssertEqual(lines.count, 1, run.stderr)
        XCTAssertTrue(lines.first?.contains("gstreamer1.0-opencv") ?? false, run.stderr)
        XCTAssertTrue(run.stdout.contains("camera") || run.stderr.contains("camera "), "the run went on: \(run.stderr)")
    }
}

/// `--camera file:CLIP`: a clip played as a camera, paced at its own rate and looped; listed by
/// `formats`; a missing or unplayable clip is a one-line error.
final class ClipCameraTests: XCTestCase {
    func testAClipPlaysAsACameraAtItsOwnRateAndLoops() throws {
        // The clip lasts three seconds at 15 fps. Paced: a seven-second run gets seven seconds of frames.
        // Looped: the face is still found at the end (a player that stopped after one pass would leave
        // the camera black two seconds later, from five seconds on).
        let clip = try FaceClips.clip("centre", [FaceClips.centre])
        let dir = try scratchDirectory(self)
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "file:\(clip)", "--framing", "single", "--duration", "7", "--json",
                                  "--events", events])
        XCTAssertEqual(run.status, 0, run.stderr)
        struct Summary: Decodable { struct Branch: Decodable { let frames: Int64; let dropped: Int64 }; let camera: Branch }
        let summary = try JSONDecoder().decode(Summary.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(Double(summary.camera.frames), 105, accuracy: 8, "paced at 15 fps for seven seconds")
        XCTAssertEqual(summary.camera.dropped, 0)
        XCTAssertTrue(run.stderr.contains("640x360@15"), run.stderr)
        let withFace = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").compactMap { line -> Double? in
            guard let e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], e["event"] as? String == "framing",
                  let faces = e["faces"] as? [Any], !faces.isEmpty else { return nil }
            return e["t"] as? Double
        }
        XCTAssertGreaterThan(withFace.max() ?? 0, 5.8, "the face is seen in the clip's third pass: \(withFace)")
    }

    func testFormatsListsAClipsSizeAndRate() throws {
        let clip = try FaceClips.clip("centre", [FaceClips.centre])
        let run = try duoCapture(["formats", "file:\(clip)"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("file:\(clip): 640x360@15"), run.stdout)
    }

    /// `duo-capture pipeline` prints a graph that plays by hand: the clip's player is in it (once through),
    /// and so is the face detector's branch, whose messages gst-launch shows.
    func testThePrintedGraphPlaysTheClipAndFindsTheFace() throws {
        let clip = try FaceClips.clip("centre", [FaceClips.centre])
        let printed = try duoCapture(["pipeline", "--camera", "file:\(clip)", "--framing", "single"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.contains("intervideosink") && printed.stdout.contains("facedetect"), printed.stdout)
        let line = String(printed.stdout.dropFirst("gst-launch-1.0 -e ".count)).trimmingCharacters(in: .whitespacesAndNewlines)
        let launch = Process()
        launch.executableURL = URL(fileURLWithPath: "/bin/sh")
        launch.arguments = ["-c", "timeout -s INT 8 gst-launch-1.0 -m \(line)"]
        let out = Pipe()
        launch.standardOutput = out
        launch.standardError = FileHandle.nullDevice
        try launch.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        launch.waitUntilExit()
        XCTAssertTrue(text.contains("facedetect") && text.contains("width\\=\\(uint\\)"), "no face found by the printed graph: \(text.suffix(2000))")
    }

    func testAClipThatIsNoVideoIsAOneLineError() throws {
        let dir = try scratchDirectory(self)
        try "not a video".write(toFile: "\(dir)/notes.txt", atomically: true, encoding: .utf8)
        let png = try FaceClips.astronaut()
        for (path, says) in [("\(dir)/missing.mkv", "does not exist"), ("\(dir)/notes.txt", "no video stream"),
                             (png, "still image"), (dir, "folder")] {
            let run = try duoCapture(["--headless", "--camera", "file:\(path)", "--duration", "1"])
            XCTAssertNotEqual(run.status, 0, path)
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(says) && run.stderr.contains("--camera file:"), run.stderr)
        }
    }
}

/// Whether a run gets framing hints without `--framing`: the teleprompter with a camera that can see a
/// face, when the detector is installed (it is on the test machine: Scripts/install-deps.sh).
final class FramingDefaultTests: XCTestCase {
    func testHintsByDefaultOnlyForTheTeleprompterWithARealCameraOrAClip() {
        var options = Options()
        options.subject.accessory = .teleprompter
        let clip = CameraSource.file(path: "/tmp/clip.mkv", mode: .init(pixelFormat: "I420", format: VideoFormat(width: 640, height: 360, frameRate: FrameRate(15))))
        XCTAssertEqual(SessionSetup.framingMode(options, camera: clip), .single)
        XCTAssertEqual(SessionSetup.framingMode(options, camera: .v4l2(device: "/dev/video0", modes: [])), .single)
        // A test pattern or a simulated camera never shows a face: no "no one in frame" over its picture.
        XCTAssertEqual(SessionSetup.framingMode(options, camera: .testSource), .off)
        options.subject.accessory = .countdown
        XCTAssertEqual(SessionSetup.framingMode(options, camera: clip), .off)
        options.framing = .interview
        XCTAssertEqual(SessionSetup.framingMode(options, camera: .testSource), .interview)
    }

    func testTheFramingOptionIsCheckedWithAOneLineError() throws {
        XCTAssertEqual(try Options.parse(["--framing", "interview"]).framing, .interview)
        XCTAssertNil(try Options.parse([]).framing)
        let run = try duoCapture(["--headless", "--framing", "sideways"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("--framing sideways") && run.stderr.contains("off, single"), run.stderr)
    }
}
