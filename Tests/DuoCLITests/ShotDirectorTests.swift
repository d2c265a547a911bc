@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// The run director walking a shot list (`--shots`), in process with the fake capture and a manual
/// clock: takes named and numbered by shot, marks (also after the take ended) in the sidecars, re-takes,
/// moves refused while a take runs, the subject's shot card, and the list reloaded when saved.
final class ShotDirectorTests: XCTestCase {
    private var directory = ""
    private var eventsPath = ""
    private var shotsPath = ""
    let clock = ManualClock(1_000_000_000)

    let threeShots = """
        ## 01 — Opening
        Look into the lens.
        note: PRIVATE check the mic

        ## 02 — The problem
        Explain what goes wrong.

        ## 03 — Closing
        Thank the viewer.
        """

    override func setUpWithError() throws {
        directory = try scratchDirectory(self)
        eventsPath = directory + "/events.jsonl"
        shotsPath = directory + "/shots.md"
        try threeShots.write(toFile: shotsPath, atomically: true, encoding: .utf8)
    }

    private func director(face: any RunFace = HeadlessFace()) throws -> (RunDirector, FakeCapture, SubjectPresenter) {
        let plan = try TestPlans.simulated("320x240@30")
        var settings = RunDirector.Settings()
        settings.recordDirectory = directory
        settings.countdown = try Countdown(seconds: 0)
        settings.parts.shots = .init(list: try ShotList.load(path: shotsPath), path: shotsPath)
        var subject = SubjectSetup()
        subject.accessory = .countdown
        let presenter = try SubjectPresenter(subject, width: 320, height: 240, format: .i420)
        let capture = FakeCapture(plan: plan, clock: clock)
        let d = RunDirector(settings: settings, plan: plan, capture: capture, presenter: presenter, face: face,
                            clock: clock, events: try EventLog(path: eventsPath), watchDevices: { _ in nil }, log: { _ in })
        return (d, capture, presenter)
    }

    private func events(_ name: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: eventsPath, encoding: .utf8)
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == name }
    }

    private func sidecar(_ path: String) throws -> TakeSidecar { try TakeSidecar.read(TakeSidecar.path(forTake: path)) }

    private func send(_ command: ControlCommand, _ d: RunDirector) async { await d.process(.command(command, source: .control)) }

    func testTakesAreNamedAndNumberedByShotAndMarksReachTheSidecars() async throws {
        let (d, capture, presenter) = try director()
        await d.process(.started)
        XCTAssertEqual(try events("shot").first?["id"] as? String, "01")
        let shot1 = await presenter.shownShot
        XCTAssertEqual(shot1?.instruction, "Look into the lens.")
        // Take 1 of shot 01, then a re-take: the unmarked take 1 is no good, take 2 of shot 01 records.
        await send(.record, d)
        await send(.stop, d)
        await send(.retake, d)
        await send(.stop, d)
        await send(.mark(good: true, take: nil), d)   // after the take ended: its sidecar is rewritten
        await send(.shot(next: true, id: nil), d)
        await send(.record, d)
        await send(.shot(next: true, id: nil), d)     // refused: a take records
        await send(.mark(good: false, take: nil), d)  // while it records: the final sidecar keeps it
        await send(.stop, d)
        let begun = await capture.begun.map { ($0.path as NSString).lastPathComponent }
        XCTAssertEqual(begun.count, 3)
        XCTAssertTrue(begun[0].hasSuffix("-shot01-take01.mkv"), begun[0])
        XCTAssertTrue(begun[1].hasSuffix("-shot01-take02.mkv"), begun[1])
        XCTAssertTrue(begun[2].hasSuffix("-shot02-take01.mkv"), begun[2])
        let paths = await capture.begun.map(\.path)
        let sidecars = try paths.map(sidecar)
        XCTAssertEqual(sidecars.map(\.shot), ["01", "01", "02"])
        XCTAssertEqual(sidecars.map(\.shotTake), [1, 2, 1])
        XCTAssertEqual(sidecars.map(\.take), [1, 2, 3])
        XCTAssertEqual(sidecars.map(\.mark), ["no-good", "good", "no-good"])
        XCTAssertEqual(sidecars.map(\.complete), [true, true, true])
        XCTAssertEqual(sidecars.first?.shotList, URL(fileURLWithPath: shotsPath).standardizedFileURL.path)
        XCTAssertEqual(try events("mark").map { $0["mark"] as? String }, ["no-good", "good", "no-good"])
        XCTAssertEqual(try events("mark").map { $0["by"] as? String }, ["retake", "operator", "operator"])
        XCTAssertEqual(try events("shot-take").map { "\($0["shot"] ?? "")/\($0["shotTake"] ?? "")" }, ["01/1", "01/2", "02/1"])
        XCTAssertTrue(try events("error").contains { ($0["message"] as? String ?? "").contains("stop it before moving to another shot") })
        XCTAssertEqual(try events("shot").map { $0["id"] as? String }, ["01", "02"], "the refused move did not move")
        let shot2 = await presenter.shownShot
        XCTAssertEqual(shot2?.id, "02")
    }

    func testShotMovesPastTheEndsAndMarksWithNoTakeAreRefused() async throws {
        let (d, _, _) = try director()
        await d.process(.started)
        await send(.shot(next: false, id: nil), d)
        await send(.mark(good: true, take: nil), d)
        await send(.shot(next: nil, id: "03"), d)
        await send(.shot(next: true, id: nil), d)
        let errors = try events("error").compactMap { $0["message"] as? String }
        XCTAssertEqual(errors, ["control: shot: shot 01 is the first in the list",
                                "control: mark: no take has been recorded yet; record one first",
                                "control: shot: shot 03 is the last in the list"])
    }

    func testASavedListReloadsKeepingTheShotByIdAndARemovedShotFallsToTheNext() async throws {
        let (d, _, presenter) = try director()
        await d.process(.started)
        await send(.shot(next: true, id: nil), d)
        // Saved with shot 02 retitled and a shot added before it: still shot 02.
        try ("## 00 — Warm-up\nStretch.\n\n" + threeShots.replacingOccurrences(of: "The problem", with: "What breaks"))
            .write(toFile: shotsPath, atomically: true, encoding: .utf8)
        clock.advance(bySeconds: 1)
        await d.process(.tick)
        var reloads = try events("shots-reloaded")
        XCTAssertEqual(reloads.last?["current"] as? String, "02")
        XCTAssertTrue(reloads.last?["notice"] is NSNull)
        let shot3 = await presenter.shownShot
        XCTAssertEqual(shot3?.title, "What breaks", "the retitled shot is on the subject's card")
        // Saved without shot 02: the next shot (03), with a notice.
        try threeShots.replacingOccurrences(of: "## 02 — The problem\nExplain what goes wrong.\n", with: "")
            .write(toFile: shotsPath, atomically: true, encoding: .utf8)
        clock.advance(bySeconds: 1)
        await d.process(.tick)
        reloads = try events("shots-reloaded")
        XCTAssertEqual(reloads.count, 2)
        XCTAssertEqual(reloads.last?["current"] as? String, "03")
        XCTAssertEqual(reloads.last?["notice"] as? String, "shot 02 is no longer in the shot list; now at shot 03 (Closing)")
        XCTAssertEqual(try events("shot").last?["id"] as? String, "03")
        let shot4 = await presenter.shownShot
        XCTAssertEqual(shot4?.id, "03")
        // A save that does not parse keeps the list, and says why with the file and line.
        try "## 01 — A\nx\n## 01 — B\n".write(toFile: shotsPath, atomically: true, encoding: .utf8)
        clock.advance(bySeconds: 1)
        await d.process(.tick)
        XCTAssertTrue(try events("error").contains { ($0["message"] as? String ?? "").contains("shots.md:3: shot id 01 is used twice") })
        let shot5 = await presenter.shownShot
        XCTAssertEqual(shot5?.id, "03")
    }

    func testAShotThatNamesAScriptOpensItWhenItBecomesCurrent() async throws {
        try "# Two\n\nThe words of the second shot.\n".write(toFile: directory + "/two.md", atomically: true, encoding: .utf8)
        try threeShots.replacingOccurrences(of: "Explain what goes wrong.", with: "Explain what goes wrong.\nscript: two.md")
            .write(toFile: shotsPath, atomically: true, encoding: .utf8)
        let (d, _, _) = try director()
        await d.process(.started)
        var path = await d.scriptPath
        XCTAssertNil(path, "shot 01 names no script")
        await send(.shot(next: true, id: nil), d)
        let loading = await d.scriptLoad?.path
        XCTAssertEqual(loading, directory + "/two.md", "shot 02's script is being opened")
        guard loading != nil else { return }
        for await input in d.inputs {
            guard case .scriptPrepared = input else { continue }
            await d.process(input)
            break
        }
        path = await d.scriptPath
        XCTAssertEqual(path, directory + "/two.md", "the shot's script, found beside the shot list")
    }

    func testTheHudShowsTheShotItsTakesTheNextShotAndItsNotes() async throws {
        let face = HudFace()
        let (d, _, _) = try director(face: face)
        await d.process(.started)
        await send(.record, d)
        await send(.stop, d)
        await send(.mark(good: true, take: nil), d)
        var hud = HudModel()
        hud.run = try XCTUnwrap(face.run)
        XCTAssertTrue(hud.lines.contains("shot 01 Opening  (1/3)  1 take (1 good, 0 no good)"), "\(hud.lines)")
        XCTAssertTrue(hud.lines.contains { $0.hasPrefix("next 02 The problem  0 takes") }, "\(hud.lines)")
        XCTAssertTrue(hud.lines.contains("shot note: PRIVATE check the mic"), "the operator sees the shot's note: \(hud.lines)")
    }

    func testTheSubjectSeesTheShotButNeverItsNotes() async throws {
        let (d, _, presenter) = try director()
        await d.process(.started)
        let maybeShown = await presenter.shownShot
        let shown = try XCTUnwrap(maybeShown)
        XCTAssertFalse("\(shown)".contains("PRIVATE"))
        var state = PrompterSessionState(accessory: .countdown)
        state.shot = shown
        XCTAssertFalse("\(SubjectViewModel.whitelisted(from: state))".contains("PRIVATE"))
        XCTAssertEqual(SubjectViewModel.whitelisted(from: state).shot?.title, "Opening")
        state.accessory = .off
        XCTAssertNil(SubjectViewModel.whitelisted(from: state).shot, "nothing reaches a subject view that is off")
    }
}
