@testable import DuoCLI
import DuoCore
import Foundation
import XCTest

/// The cameras' part: a loss and a restoration reach the sidecar of the take they happened in, and
/// `--camera-loss exit` ends the run with the camera named.
final class CamerasPartTests: XCTestCase {
    /// Two cameras: A goes silent mid-take (the take goes on with B), comes back, and the take's sidecar
    /// lists both, at their times into the take.
    func testALossAndItsRestorationAreInTheSidecarOfTheTake() async throws {
        let run = try PartRun(self, cameras: [["320x240@30"], ["320x240@30"]])
        let d = run.director, capture = run.capture
        await d.process(.started)
        await capture.setPerCamera([100, 100])
        await capture.setCameraFrames(100)
        await run.advance(0.2)
        await run.send(.record)   // at 1.2 s
        for step in 1...2 {   // A silent, B delivering: lost after 0.3 s of silence (at 30 fps), at the second tick
            await capture.setPerCamera([100, 100 + 6 * Int64(step)])
            await capture.setCameraFrames(100 + 6 * Int64(step))
            await run.advance(0.2)
        }
        XCTAssertEqual(try run.events("camera-lost").map { $0["camera"] as? String }, ["A"])
        var active = await capture.activeCamera
        XCTAssertEqual(active, 1, "the take goes on with B")
        await capture.setPerCamera([106, 118])
        await capture.setCameraFrames(118)
        await run.advance(0.2)
        XCTAssertEqual(try run.events("camera-restored").map { $0["camera"] as? String }, ["A"])
        active = await capture.activeCamera
        XCTAssertEqual(active, 1)
        await run.send(.stop)
        let file = try XCTUnwrap(try run.events("take-ended").first?["file"] as? String)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        XCTAssertEqual(sidecar.interruptions?.map { "\($0.what) \($0.device)" }, ["lost A", "restored A"])
        let at = try XCTUnwrap(sidecar.interruptions?.map(\.atSeconds))
        guard at.count == 2 else { return XCTFail("\(at)") }
        XCTAssertEqual(at[0], 0.4, accuracy: 0.01, "lost 0.4 s into the take")
        XCTAssertEqual(at[1], 0.6, accuracy: 0.01, "back 0.6 s into the take")
    }

    /// One camera pulled out (the device port) with `--camera-loss exit`: the run ends at once, exit 70,
    /// saying which camera and what to do.
    func testCameraLossExitEndsTheRunNamingTheCamera() async throws {
        let devices = ScriptedDevices()
        let run = try PartRun(self, configure: { $0.parts.cameras.loss = .exit }, adapt: { $0.deviceIdentities = ["CAM-A"] }, devices: devices)
        await run.director.process(.started)
        await run.send(.record)
        devices.queue(.removed(CameraDevice(name: "Cam A", devicePath: "/dev/video3", identity: "CAM-A", api: "v4l2")))
        await run.director.process(.devicesChanged)
        let outcome = await run.director.finish()
        XCTAssertEqual(outcome.exitCode, 70)
        XCTAssertEqual(outcome.error?.message, "camera \(run.plan.camera.label) lost: unplugged (/dev/video3); check the camera and start again")
        XCTAssertEqual(try run.events("take-ended").count, 1, "the take is finalised on the way out")
    }
}

/// The posture part: fold and unfold pick the camera by the way it faces, a camera turned round flips the
/// displays' mirroring, and the HUD names the camera on the air.
final class PosturePartTests: XCTestCase {
    func testFoldPicksTheCameraFacingTheSubjectAndTheHudNamesIt() async throws {
        let face = RecordingFace()
        let run = try PartRun(self, cameras: [["320x240@30"], ["320x240@30"]], face: face)
        await run.director.process(.started)
        await run.send(.unfold)
        var active = await run.capture.activeCamera
        XCTAssertEqual(active, 0, "unfolded: A faces the operator, already on the air")
        XCTAssertTrue(try run.events("swap").isEmpty)
        await run.send(.fold)
        active = await run.capture.activeCamera
        XCTAssertEqual(active, 1, "folded: B faces the subject")
        XCTAssertEqual(face.run?.cameraLabel, run.plan.secondCamera?.label)
        // Turned round, A faces the subject too: folding again keeps B; unfold finds no camera facing the operator.
        await run.send(.faces(camera: 0, viewer: .theSubject))
        await run.send(.unfold)
        active = await run.capture.activeCamera
        XCTAssertEqual(active, 1)
        XCTAssertFalse(try run.events("error").isEmpty, "no camera faces the operator: refused, saying why")
    }

    func testACameraTurnedRoundFlipsTheMirroringAndSaysSo() async throws {
        let face = RecordingFace()
        let run = try PartRun(self, cameras: [["320x240@30"], ["320x240@30"]], face: face)
        await run.director.process(.started)
        await run.send(.faces(camera: 0, viewer: .theSubject))
        let mirrors = try run.events("mirror")
        XCTAssertFalse(mirrors.isEmpty, "A on the air now faces the subject: a display's picture flips")
        XCTAssertTrue(mirrors.allSatisfy { $0["camera"] as? String == "A" && $0["cause"] as? String == "faces" })
        let faces = await run.capture.faces
        XCTAssertEqual(faces, [.theSubject, .theSubject])
        XCTAssertTrue(face.said.contains { $0.contains("picture") }, "\(face.said)")
    }
}
