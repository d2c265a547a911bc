import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// Cues to the talent (issue 37): sent over the control socket they show on the subject view, are said as
/// `cue` events and listed in the take's sidecar; free text over 40 characters is refused with one line.
final class CueTests: XCTestCase {
    private var root: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    /// A headless run driven over the socket: a 41-character cue is refused, a preset before the take is
    /// said but not in the take's sidecar, a free-text cue for 5 s and a clear during the take are both in
    /// the sidecar with their times.
    func testCuesOverTheSocketAreSaidAndListedInTheSidecar() throws {
        let dir = try scratchDirectory(self)
        let socketPath = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0",
                                     "--script", root.appendingPathComponent("Assets/scripts/talk.md").path,
                                     "--record-dir", dir, "--control", socketPath, "--json", "--quiet"], directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        let client = try ControlClient(path: socketPath)

        client.send(#"{"cmd":"cue","text":"\#(String(repeating: "x", count: 41))"}"#)
        let refused = try XCTUnwrap(client.next("error")["message"] as? String)
        XCTAssertTrue(refused.contains("41 characters") && refused.contains("at most 40"), refused)
        XCTAssertFalse(refused.contains("\n"))

        client.send(#"{"cmd":"cue","preset":"wrap"}"#)
        let wrap = try client.next("cue")
        XCTAssertEqual(wrap["text"] as? String, "wrap up")
        XCTAssertEqual(wrap["preset"] as? String, "wrap")
        XCTAssertTrue(wrap["seconds"] is NSNull)

        client.send(#"{"cmd":"record"}"#)
        let file = try XCTUnwrap(try client.next("take-started")["file"] as? String)
        try run.wait(for: "the take to grow") { ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 20_000 }
        client.send(#"{"cmd":"cue","text":"smile, then slow down","seconds":5}"#)
        let smile = try client.next("cue")
        XCTAssertEqual(smile["text"] as? String, "smile, then slow down")
        XCTAssertTrue(smile["preset"] is NSNull)
        XCTAssertEqual(smile["seconds"] as? Double, 5)
        client.send(#"{"cmd":"cue","clear":true}"#)
        let cleared = try client.next("cue")
        XCTAssertTrue(cleared["text"] is NSNull)
        client.send(#"{"cmd":"stop"}"#)
        _ = try client.next("take-ended")
        client.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)

        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        let cues = try XCTUnwrap(sidecar.cues, "the sidecar lists the take's cues")
        XCTAssertEqual(cues.map(\.text), ["smile, then slow down", nil], "the preset sent before the take is not the take's")
        XCTAssertEqual(cues.map(\.seconds), [5, nil])
        XCTAssertEqual(cues.map(\.cleared), [nil, true])
        XCTAssertTrue(cues.allSatisfy { $0.atSeconds >= 0 && $0.atSeconds <= (sidecar.durationSeconds ?? 0) + 1 }, "\(cues)")
        XCTAssertLessThanOrEqual(cues[0].atSeconds, cues[1].atSeconds)
    }

    /// In the running graph, the subject frames show the cue's words where the view puts it (read back
    /// with tesseract from the frame's luma), and not before it was sent.
    func testACueShowsOnTheSubjectFrames() async throws {
        var setup = SubjectSetup()
        setup.accessory = .teleprompter
        setup.scriptPath = root.appendingPathComponent("Assets/scripts/talk.md").path
        setup.selfView = .off
        let plan = try GraphPlan(library: PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path),
                                 camera: .testSource, requested: VideoFormat.parse("1280x720@30"), aspect: nil,
                                 encoder: .x264, container: .mkv)
        let presenter = try SubjectPresenter(setup, width: plan.subjectSize.width, height: plan.subjectSize.height)
        await presenter.settle()
        let tap = FrameTap(presenter.drawer)
        let session = CaptureSession(plan: plan, subjectDrawer: tap)
        try await session.start()
        await presenter.takeStarted(at: await session.runningTime)
        await presenter.settle()
        let drawnBefore = tap.frames
        try await session.waitUntil { _, _ in tap.frames >= drawnBefore + 3 }
        let before = tap.lastLuma
        await presenter.setCue(try SubjectCue.text("HOLD THE CARD UP"), seconds: nil, at: await session.runningTime)
        await presenter.settle()
        let drawnAfter = tap.frames
        try await session.waitUntil { _, _ in tap.frames >= drawnAfter + 3 }
        let after = tap.lastLuma
        let box = await presenter.cueRectangle(at: await session.runningTime)
        let (w, h) = (tap.width, tap.height)
        await session.stop()

        let cue = try XCTUnwrap(box, "the cue has a place on the view")
        let read = try ocr(after, width: w, height: h, box: cue)
        XCTAssertTrue(read.contains("HOLD THE CARD UP"), "tesseract read \(read.debugDescription) in the cue's box \(cue)")
        let earlier = try ocr(before, width: w, height: h, box: cue)
        XCTAssertFalse(earlier.contains("CARD"), "the cue shows only once sent: \(earlier.debugDescription)")
    }

    /// Tesseract's reading of `box` (grown by a few pixels) of a luma plane, on one line.
    private func ocr(_ luma: [UInt8], width: Int, height: Int, box: (x: Int, y: Int, width: Int, height: Int)) throws -> String {
        let x0 = max(0, box.x - 8), y0 = max(0, box.y - 8)
        let x1 = min(width, box.x + box.width + 8), y1 = min(height, box.y + box.height + 8)
        var pgm = Array("P5\n\(x1 - x0) \(y1 - y0)\n255\n".utf8)
        for y in y0..<y1 { pgm += luma[(y * width + x0)..<(y * width + x1)] }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("duo-cue-\(UUID().uuidString).pgm").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        FileManager.default.createFile(atPath: path, contents: Data(pgm))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["tesseract", path, "-", "--psm", "7"]
        // One OpenMP thread: tesseract's spinning threads double its time on a loaded machine; same text.
        p.environment = ProcessInfo.processInfo.environment.merging(["OMP_THREAD_LIMIT": "1"]) { old, _ in old }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
