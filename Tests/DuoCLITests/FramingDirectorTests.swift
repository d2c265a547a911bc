@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// The run director carries framing decisions out, with the fake capture and a manual clock: the faces
/// the session reports reach the policy; its hint reaches the subject view (through the whitelisted view
/// model), the HUD and a `framing` event; time alone brings "no one in frame"; a detector that is
/// missing is one log line and hints stop.
final class FramingDirectorTests: XCTestCase {
    let clock = ManualClock(1_000_000_000)

    private func director(framing: FramingMode, face: HudFace, log: @escaping @Sendable (String) -> Void = { _ in })
        throws -> (RunDirector, SubjectPresenter, String) {
        let dir = try scratchDirectory(self)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let profile = CameraProfile(id: "cam", name: "cam", modes: [.init(pixelFormat: "I420", format: VideoFormat.parse("640x360@30")!)])
        var plan = try GraphPlan(library: PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path), camera: .simulated(profile),
                                 requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        plan.framing = framing
        var subject = SubjectSetup()
        subject.accessory = .countdown
        let presenter = try SubjectPresenter(subject, width: 320, height: 180)
        let events = "\(dir)/events.jsonl"
        var settings = RunDirector.Settings()
        settings.recordDirectory = dir
        let d = RunDirector(settings: settings, plan: plan, capture: FakeCapture(plan: plan, clock: clock), presenter: presenter, face: face,
                            clock: clock, events: try EventLog(path: events), watchDevices: { _ in nil }, log: log)
        return (d, presenter, events)
    }

    private func framingEvents(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "framing" }
    }

    /// Detector frames every 200 ms for `seconds`, each with `faces`.
    private func see(_ faces: [FaceBox], for seconds: Double, _ d: RunDirector) async {
        for _ in 0..<Int(seconds * 5) {
            clock.advance(bySeconds: 0.2)
            await d.process(.session(.faces(faces, at: clock.now())))
        }
    }

    func testAFacesHintReachesTheSubjectViewTheHudAndAnEvent() async throws {
        let face = HudFace()
        let (d, presenter, events) = try director(framing: .single, face: face)
        await d.process(.started)
        let left = FaceBox(x: 0.1, y: 0.2, width: 0.17, height: 0.3)
        await see([left], for: 1, d)
        let hints = await presenter.framingHints
        XCTAssertEqual(hints, [PersonHint(person: nil, hint: .moveLeft)])
        await d.process(.tick)
        XCTAssertEqual(face.run?.framingHint, "move left")
        XCTAssertEqual(face.run?.faces, [left])
        XCTAssertEqual(face.run?.framing, "single")
        let hinted = try XCTUnwrap(try framingEvents(events).first { $0["hint"] as? String == "move left" })
        XCTAssertEqual(hinted["mode"] as? String, "single")
        XCTAssertEqual((hinted["faces"] as? [[String: Double]])?.first?["x"], 0.1)
        XCTAssertNotNil(hinted["reason"] as? String)

        // The face centred: the hint goes (a second after it came, at the earliest).
        await see([FaceBox(x: 0.415, y: 0.2, width: 0.17, height: 0.3)], for: 1.4, d)
        let cleared = await presenter.framingHints
        XCTAssertEqual(cleared, [])
    }

    func testTimeAloneBringsNoOneInFrame() async throws {
        let (d, presenter, events) = try director(framing: .single, face: HudFace())
        await d.process(.started)
        await d.process(.session(.faces([], at: clock.now())))
        // No more detector frames (a stalled detector reports nothing): the director's ticks decide.
        for _ in 0..<9 {
            clock.advance(bySeconds: 0.2)
            await d.process(.tick)
        }
        var hints = await presenter.framingHints
        XCTAssertEqual(hints, [], "not before two seconds")
        clock.advance(bySeconds: 0.3)
        await d.process(.tick)
        hints = await presenter.framingHints
        XCTAssertEqual(hints, [PersonHint(person: nil, hint: .noOne)])
        XCTAssertEqual(try framingEvents(events).last?["hint"] as? String, "no one in frame")
    }

    func testAMissingDetectorIsOneLogLineAndHintsStop() async throws {
        let lines = Locked<[String]>([])
        let face = HudFace()
        let (d, presenter, events) = try director(framing: .single, face: face, log: { line in lines.update { $0.append(line) } })
        await d.process(.started)
        await see([FaceBox(x: 0.1, y: 0.2, width: 0.17, height: 0.3)], for: 1, d)
        await d.process(.session(.framingUnavailable("the face detector (GStreamer's facedetect) is not installed; install gstreamer1.0-opencv")))
        await d.process(.session(.framingUnavailable("said again")))
        let framingLines = lines.value.filter { $0.contains("framing") }
        XCTAssertEqual(framingLines.count, 1, "\(lines.value)")
        XCTAssertTrue(framingLines.first?.contains("gstreamer1.0-opencv") ?? false)
        let hints = await presenter.framingHints
        XCTAssertEqual(hints, [], "the subject view's hint goes with the detector")
        let before = try framingEvents(events).count
        await see([FaceBox(x: 0.1, y: 0.2, width: 0.17, height: 0.3)], for: 2, d)
        XCTAssertEqual(try framingEvents(events).count, before, "no framing events after")
        await d.process(.tick)
        XCTAssertNil(face.run?.framing, "the HUD's framing line goes")
    }

    func testFramingOffIgnoresFaces() async throws {
        let (d, presenter, events) = try director(framing: .off, face: HudFace())
        await d.process(.started)
        await see([FaceBox(x: 0.1, y: 0.2, width: 0.17, height: 0.3)], for: 3, d)
        let hints = await presenter.framingHints
        XCTAssertEqual(hints, [])
        XCTAssertTrue(try framingEvents(events).isEmpty)
    }
}
