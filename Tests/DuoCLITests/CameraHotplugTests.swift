import DuoCore
import DuoMedia
import DuoPlatform
import Foundation
import XCTest

/// Cameras that come and go, through the test camera provider (`DUO_TEST_CAMERAS`): a GstDeviceProvider
/// whose devices are files in a folder, so listing, identity, device-removed and device-added take the
/// same GstDeviceMonitor path real cameras take.
final class CameraHotplugTests: XCTestCase {
    /// A folder of test cameras, with a state and a runtime folder of its own (what is remembered, locks).
    private struct Rig {
        let dir: String
        let cameras: String
        var environment: [String: String] {
            ["DUO_TEST_CAMERAS": cameras, "XDG_STATE_HOME": "\(dir)/state", "XDG_RUNTIME_DIR": "\(dir)/run"]
        }
    }

    private func rig(_ cameras: [(file: String, serial: String, name: String)]) throws -> Rig {
        let dir = try scratchDirectory(self)
        let folder = "\(dir)/cameras"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for c in cameras {
            try Data("""
                name=\(c.name)
                serial=\(c.serial)
                caps=video/x-raw,format=YUY2,width=320,height=240,framerate=30/1; video/x-raw,format=YUY2,width=160,height=120,framerate=30/1
                pattern=ball
                """.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(c.file).camera"))
        }
        return Rig(dir: dir, cameras: folder)
    }

    private func timeline(_ rig: Rig, _ lines: String) throws -> String {
        let path = "\(rig.dir)/timeline.jsonl"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testCamerasListsEachDeviceWithItsIdentity() throws {
        let r = try rig([("cam-a", "DUO-TEST-A", "Test Camera A"), ("cam-b", "DUO-TEST-B", "Test Camera B")])
        let run = try duoCapture(["cameras"], environment: r.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, run.stdout)
        XCTAssertTrue(lines[0].hasPrefix("\(r.cameras)/cam-a.camera\tTest Camera A\tid:DUO-TEST-A\tbest 320x240@30, 2 modes\t(auto)"), lines[0])
        XCTAssertTrue(lines[1].contains("\tid:DUO-TEST-B\t"), lines[1])
        XCTAssertFalse(lines[1].contains("(auto"), lines[1])
    }

    /// A camera's name comes from its USB descriptor: control characters in it (a screen clear, a title
    /// change) are shown escaped in `cameras`, never sent to the terminal raw.
    func testCameraNamesReachTheTerminalEscaped() throws {
        let r = try rig([("cam-a", "DUO-TEST-A", "Evil\u{1B}]0;pwned\u{07}Cam\u{1B}[2J")])
        let run = try duoCapture(["cameras"], environment: r.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("\u{1B}") || run.stdout.contains("\u{07}"), "raw control characters: \(run.stdout.debugDescription)")
        XCTAssertTrue(run.stdout.contains("Evil"), run.stdout)
        XCTAssertTrue(run.stdout.contains("pwned"), run.stdout)
    }

    /// The camera last used is remembered by identity: `--camera auto` opens it again though it is now
    /// listed second and sits at another path.
    func testAutoOpensTheCameraLastUsedByIdentity() throws {
        let r = try rig([("cam-a", "DUO-TEST-A", "Test Camera A"), ("cam-b", "DUO-TEST-B", "Test Camera B")])
        let first = try duoCapture(["--headless", "--camera", "id:DUO-TEST-B", "--duration", "0.3", "--quiet"], environment: r.environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try String(contentsOfFile: "\(r.dir)/state/duo-capture/last-camera", encoding: .utf8), "DUO-TEST-B\n")
        try FileManager.default.moveItem(atPath: "\(r.cameras)/cam-b.camera", toPath: "\(r.cameras)/cam-z.camera")
        let listed = try duoCapture(["cameras"], environment: r.environment)
        XCTAssertTrue(listed.stdout.contains("id:DUO-TEST-B\tbest 320x240@30, 2 modes\t(auto, last used)"), listed.stdout)
        let events = "\(r.dir)/events.jsonl"
        let again = try duoCapture(["--headless", "--duration", "0.3", "--quiet", "--events", events], environment: r.environment)
        XCTAssertEqual(again.status, 0, again.stderr)
        let started = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").first { $0.contains("\"started\"") }
        XCTAssertTrue(started?.contains("Test Camera B") ?? false, "\(started ?? "no started event")")
    }

    func testAnIdentityNotConnectedIsOneLineNamingWhatIs() throws {
        let r = try rig([("cam-a", "DUO-TEST-A", "Test Camera A")])
        let run = try duoCapture(["--headless", "--camera", "id:NOT-HERE", "--duration", "1"], environment: r.environment)
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stderr, "duo-capture: error: camera id:NOT-HERE is not connected (connected: id:DUO-TEST-A); plug it in or list cameras with: duo-capture cameras\n")
    }

    /// The owner lock is on the device, not on the name it is reached by: held through a symbolic link to
    /// the camera's device file, the camera asked for by identity is refused, naming the owner.
    func testALockTakenThroughALinkHoldsTheCamera() throws {
        let r = try rig([("cam-a", "DUO-TEST-A", "Test Camera A")])
        try FileManager.default.createSymbolicLink(atPath: "\(r.dir)/link", withDestinationPath: "\(r.cameras)/cam-a.camera")
        let held = try CameraLock(device: "\(r.dir)/link", directory: "\(r.dir)/run/duo-capture")
        let run = try duoCapture(["--headless", "--camera", "id:DUO-TEST-A", "--duration", "1"], environment: r.environment)
        XCTAssertEqual(run.status, 70, run.stderr)
        XCTAssertTrue(run.stderr.contains("camera id:DUO-TEST-A is in use by duo-capture pid \(getpid())"), run.stderr)
        withExtendedLifetime(held) {}
    }

    /// Camera B pulled out mid-take in virtual mode, while on the air, and plugged back at another path:
    /// the take goes on at full rate on A in one file, B is lost at once (not after a watchdog) and taken
    /// back by identity; events and the sidecar say so.
    func testACameraPulledOutIsTakenBackByIdentityAtItsNewPath() throws {
        let r = try rig([("cam-a", "DUO-TEST-A", "Test Camera A"), ("cam-b", "DUO-TEST-B", "Test Camera B")])
        let t = try timeline(r, """
            {"at": 0.1, "cmd": "record"}
            {"at": 1.0, "cmd": "swap"}
            {"at": 1.5, "cmd": "unplug", "camera": "B"}
            {"at": 3.0, "cmd": "replug", "camera": "B"}
            {"at": 4.0, "cmd": "swap"}
            {"at": 5.0, "cmd": "quit"}
            """)
        let events = "\(r.dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "id:DUO-TEST-A", "--camera", "id:DUO-TEST-B", "--timeline", t,
                                  "--record-dir", r.dir, "--countdown", "0", "--events", events, "--json"], environment: r.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try eventStory(events), ["take", "swap", "lost B", "swap", "restored B", "swap", "ended", "stopped quit command"])
        let lost = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").first { $0.contains("camera-lost") }
        XCTAssertTrue(lost?.contains("unplugged (\(r.cameras)/cam-b.camera)") ?? false, "\(lost ?? "")")
        XCTAssertTrue(run.stderr.contains("plugged back in at \(r.cameras)/cam-b-2.camera"), run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1, "one file through the loss")
        let decoded = try MediaInspector.decode(report.takes[0].file)
        let seconds = Double((decoded.video.lastPTS ?? 0) - (decoded.video.firstPTS ?? 0)) / 1e9
        XCTAssertGreaterThan(seconds, 4.5)
        XCTAssertGreaterThanOrEqual(Double(decoded.video.frames), 0.97 * 30 * seconds, "full rate through the loss")
        XCTAssertLessThanOrEqual(decoded.video.maxGap, 34_000_000, "no gap over one frame interval at the loss")
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: report.takes[0].file))
        XCTAssertEqual(sidecar.interruptions?.map { "\($0.what) \($0.device)" }, ["lost B", "restored B"])
    }

    /// One camera pulled out: the take is finalised, the run waits; plugged back, it records again.
    func testTheOnlyCameraPulledOutAndPluggedBack() throws {
        let r = try rig([("cam-a", "DUO-TEST-A", "Test Camera A")])
        let t = try timeline(r, """
            {"at": 0.1, "cmd": "record"}
            {"at": 1.5, "cmd": "unplug", "camera": "A"}
            {"at": 3.0, "cmd": "replug", "camera": "A"}
            {"at": 3.8, "cmd": "record"}
            {"at": 5.0, "cmd": "quit"}
            """)
        let events = "\(r.dir)/events.jsonl"
        let run = try duoCapture(["--headless", "--camera", "id:DUO-TEST-A", "--timeline", t, "--record-dir", r.dir,
                                  "--countdown", "0", "--events", events, "--json"], environment: r.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try eventStory(events), ["take", "lost A", "ended", "restored A", "take", "ended", "stopped quit command"])
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 2)
        XCTAssertGreaterThanOrEqual(try MediaInspector.decode(report.takes[0].file).video.frames, 35)
        XCTAssertGreaterThanOrEqual(try MediaInspector.decode(report.takes[1].file).video.frames, 25)
    }
}
