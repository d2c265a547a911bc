import DuoCore
import DuoMedia
import Foundation
import XCTest

/// A camera lost mid-take, simulated through a user pipeline folder (`--pipelines`) whose camera file
/// misbehaves: the take is finalised and plays, the error is one line, the exit code says runtime.
final class CameraFaultTests: XCTestCase {
    private func pipelines(cameraFile: String) throws -> (dir: String, pipelines: String) {
        let dir = try scratchDirectory(self)
        let pipelines = "\(dir)/Pipelines"
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Pipelines").path
        try FileManager.default.copyItem(atPath: shipped, toPath: pipelines)
        try Data(cameraFile.utf8).write(to: URL(fileURLWithPath: "\(pipelines)/camera-test.gst"))
        return (dir, pipelines)
    }

    private func takeFile(in dir: String) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mkv") }
        XCTAssertEqual(files.count, 1, "one take file: \(files)")
        return "\(dir)/\(try XCTUnwrap(files.first))"
    }

    /// The camera errors out (as an unplugged V4L2 device does) after 45 frames.
    func testCameraErrorMidTakeKeepsTheTake() throws {
        let (dir, pipelines) = try pipelines(cameraFile: """
            videotestsrc name={{name}} is-live=true pattern={{pattern}}
            ! video/x-raw,format={{camera_format}},width={{camera_width}},height={{camera_height}},framerate={{camera_rate}}
            ! identity error-after=45
            """)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record",
                                  "--record-dir", dir, "--pipelines", pipelines, "--duration", "30", "--quiet", "--countdown", "0",
                                  "--camera-loss", "exit"])
        XCTAssertEqual(run.status, 70, run.stderr)
        XCTAssertTrue(run.stderr.split(separator: "\n").last?.hasPrefix("duo-capture: error: ") ?? false, run.stderr)
        let decoded = try MediaInspector.decode(try takeFile(in: dir))
        XCTAssertGreaterThanOrEqual(decoded.video.frames, 35, "the frames before the loss are in the file")
        XCTAssertLessThanOrEqual(decoded.video.frames, 46)
    }

    /// An error from an element of the camera's chain the camera file leaves unnamed (a decoder, a
    /// converter) is the camera's loss, not the graph's failure: with the default `--camera-loss wait`
    /// the take is kept, the run waits for the camera, and it ends normally.
    func testAnErrorFromAnUnnamedCameraElementIsTheCamerasLoss() throws {
        let (dir, pipelines) = try pipelines(cameraFile: """
            videotestsrc name={{name}} is-live=true pattern={{pattern}}
            ! video/x-raw,format={{camera_format}},width={{camera_width}},height={{camera_height}},framerate={{camera_rate}}
            ! identity error-after=45
            """)
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record",
                                  "--record-dir", dir, "--pipelines", pipelines, "--duration", "3", "--quiet", "--countdown", "0",
                                  "--events", events])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(Array(try eventStory(events).prefix(3)), ["take", "lost A", "ended"])
        let lost = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").first { $0.contains("camera-lost") }
        XCTAssertTrue(lost?.contains("identity0: Failed after iterations") ?? false, "\(lost ?? "")")
        let decoded = try MediaInspector.decode(try takeFile(in: dir))
        XCTAssertGreaterThanOrEqual(decoded.video.frames, 35, "the frames before the loss are in the file")
    }

    /// Individual mode keeps going too: camera A, on the air, lost mid-take: the swap policy (segment, given
    /// explicitly) ends A's segment and records on at B's own format in the next one; camera B, not on the
    /// air, lost: nothing stops. Each comes back.
    func testIndividualModeGoesOnWithTheOtherCameraAtItsOwnFormat() throws {
        let dir = try scratchDirectory(self)
        func profile(_ id: String, _ w: Int, _ h: Int) throws -> String {
            let path = "\(dir)/\(id).json"
            try Data(#"{"id": "\#(id)", "name": "\#(id)", "formats": [{"pixelFormat": "I420", "width": \#(w), "height": \#(h), "frameRates": [30]}]}"#.utf8)
                .write(to: URL(fileURLWithPath: path))
            return path
        }
        let a = try profile("small", 320, 240), b = try profile("large", 640, 480)
        let timeline = "\(dir)/t.jsonl"
        try Data("""
            {"at": 0.1, "cmd": "record"}
            {"at": 1.0, "cmd": "unplug", "camera": "A"}
            {"at": 2.5, "cmd": "replug", "camera": "A"}
            {"at": 3.5, "cmd": "unplug", "camera": "A"}
            {"at": 4.8, "cmd": "replug", "camera": "A"}
            {"at": 5.8, "cmd": "quit"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "profile:\(a)", "--camera", "profile:\(b)", "--camera-mode", "individual",
                                  "--swap-policy", "segment", "--keep-segments",
                                  "--timeline", timeline, "--record-dir", dir, "--countdown", "0", "--events", events, "--json", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The second unplug is of A while B is on the air: B's segment goes on.
        XCTAssertEqual(try eventStory(events), ["take", "lost A", "ended", "swap", "take", "restored A", "lost A", "restored A", "ended",
                                                "stopped quit command"])
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        // One take, joined from its two segments (kept: --keep-segments), each at its camera's own format.
        XCTAssertEqual(report.takes.count, 1, run.stdout)
        let segments = try XCTUnwrap(report.takes.first?.segments, run.stdout)
        XCTAssertEqual(segments.count, 2, run.stdout)
        guard segments.count == 2 else { return }
        let first = try MediaInspector.decode(segments[0].file), second = try MediaInspector.decode(segments[1].file)
        XCTAssertEqual([first.width, first.height], [320, 240])
        XCTAssertEqual([second.width, second.height], [640, 480])
        XCTAssertGreaterThan(second.video.frames, 80, "B recorded on through A's second loss")
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: segments[1].file))
        XCTAssertEqual(sidecar.segment, 2)
    }

    /// The documents' interruption with one camera (`--camera-loss wait`, the default): the camera stops
    /// (the test hub's unplug); the take is finalised and plays, the run waits, the camera plugged back is
    /// taken back, a second take records, and the run ends normally.
    func testALostCameraFinalisesTheTakeAndTheRunWaitsForIt() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/again.jsonl"
        try Data("""
            {"at": 0.1, "cmd": "record"}
            {"at": 1.5, "cmd": "unplug", "camera": "A"}
            {"at": 5.0, "cmd": "replug", "camera": "A"}
            {"at": 5.6, "cmd": "record"}
            {"at": 7.0, "cmd": "quit"}
            """.utf8).write(to: URL(fileURLWithPath: timeline))
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record-dir", dir,
                                  "--timeline", timeline, "--events", events, "--quiet", "--countdown", "0", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let story = try eventStory(events)
        XCTAssertEqual(story, ["take", "lost A", "ended", "restored A", "take", "ended", "stopped quit command"], "\(story)")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 2)
        let first = try MediaInspector.decode(report.takes[0].file)
        XCTAssertGreaterThanOrEqual(first.video.frames, 35, "the frames before the loss are in the first take")
        let second = try MediaInspector.decode(report.takes[1].file)
        XCTAssertGreaterThan(second.video.frames, 25, "the camera records again after it came back")
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: report.takes[0].file))
        XCTAssertEqual(sidecar.interruptions?.map { "\($0.what) \($0.device)" }, ["lost A"])
    }

    /// The camera ends its stream without an error after 45 frames, then stays silent: the watchdog ends
    /// the run, and the take is kept.
    func testSilentCameraIsDetectedAndTheTakeKept() throws {
        let (dir, pipelines) = try pipelines(cameraFile: """
            videotestsrc name={{name}} is-live=true pattern={{pattern}} num-buffers=45
            ! video/x-raw,format={{camera_format}},width={{camera_width}},height={{camera_height}},framerate={{camera_rate}}
            """)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record",
                                  "--record-dir", dir, "--pipelines", pipelines, "--duration", "30", "--quiet", "--countdown", "0",
                                  "--camera-loss", "exit"])
        XCTAssertEqual(run.status, 70, run.stderr)
        XCTAssertTrue(run.stderr.contains("delivered no frame for"), run.stderr)
        let decoded = try MediaInspector.decode(try takeFile(in: dir))
        XCTAssertGreaterThanOrEqual(decoded.video.frames, 35, "the frames before the silence are in the file")
    }
}

/// A microphone lost mid-take (its source errors after a second): the run and the take go on with
/// video only, the file decodes whole, and the event and the sidecar say so.
final class MicrophoneLossTests: XCTestCase {
    func testALostMicrophoneNeverEndsTheTake() throws {
        let dir = try scratchDirectory(self)
        let events = "\(dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--record",
                                  "--countdown", "0", "--duration", "3", "--record-dir", dir, "--events", events, "--json", "--quiet",
                                  "--audio", "audiotestsrc is-live=true wave=sine samplesperbuffer=480 ! identity name=audio_fault error-after=100"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let take = try XCTUnwrap(report.takes.first)
        XCTAssertGreaterThanOrEqual(take.frames, 80, "the video went on to the end")
        let decoded = try MediaInspector.decode(take.file)
        XCTAssertEqual(Double(decoded.video.frames), Double(take.frames), accuracy: 1)
        XCTAssertGreaterThan(decoded.audio.frames, 0, "the sound before the loss is in the file")
        let log = try String(contentsOfFile: events, encoding: .utf8)
        XCTAssertTrue(log.contains("the microphone was lost"), log)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: take.file))
        XCTAssertEqual(sidecar.interruptions?.map { "\($0.what) \($0.device)" }, ["lost microphone"])
    }
}

/// A take that never got a frame leaves no unplayable file behind.
final class EmptyTakeTests: XCTestCase {
    func testATakeWithoutFramesLeavesNoFile() async throws {
        let dir = try scratchDirectory(self)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let plan = try GraphPlan(library: PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path),
                                 camera: .testSource, requested: VideoFormat.parse("160x120@1"), aspect: nil,
                                 encoder: .x264, container: .mkv)
        let session = CaptureSession(plan: plan)
        try await session.start()
        // Stopped a millisecond later, long before the next frame (1 s apart at 1 fps) can enter the take.
        try await session.startTake(path: "\(dir)/empty.mkv")
        let result = try await session.stopTake()
        await session.stop()
        XCTAssertEqual(result.frames.frames, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(dir)/empty.mkv"), "an empty take is removed")
        XCTAssertTrue(result.empty)
        XCTAssertNil(result.failure, "stopped before its first frame: empty, not failed")
    }
}
