import DuoCore
import XCTest

/// Do not disturb's policy: when banners go off and come back, the crash marker's format, and which
/// markers a run gives back at its start.
final class DoNotDisturbTests: XCTestCase {
    func testOffWhileTheMonitorIsHeldOrRecordingAndBackAfterwards() {
        var d = DoNotDisturb(allowNotifications: false)
        XCTAssertNil(d.update(monitorHeld: false, recording: false))
        XCTAssertEqual(d.update(monitorHeld: true, recording: false), true)
        XCTAssertNil(d.update(monitorHeld: true, recording: true), "already off")
        XCTAssertNil(d.update(monitorHeld: false, recording: true), "a take alone keeps it off")
        XCTAssertEqual(d.update(monitorHeld: false, recording: false), false)
        _ = d.update(monitorHeld: true, recording: false)
        XCTAssertTrue(d.end(), "the end gives back what is off")
        XCTAssertFalse(d.end())
    }

    /// The curtain holds the monitor between takes with the view hidden: banners stay off throughout.
    func testTheCurtainKeepsBannersOffBetweenTakes() {
        var d = DoNotDisturb(allowNotifications: false)
        var curtain = SubjectCurtain(enabled: true)
        var accessory = AccessoryState(enabled: true, inputs: AvailabilityInputs(operatorFullscreen: true, framesFlowing: true,
                                                                               subjectMonitor: "DUMMY1", operatorMonitor: "DUMMY0"))
        _ = curtain.update(accessory)
        XCTAssertEqual(d.update(monitorHeld: curtain.holdsMonitor, recording: false), true)
        XCTAssertNil(d.update(monitorHeld: curtain.holdsMonitor, recording: true), "a take")
        _ = accessory.update { $0.operatorFullscreen = false }   // Esc: the view hides
        XCTAssertEqual(curtain.update(accessory), .curtain)
        XCTAssertNil(d.update(monitorHeld: curtain.holdsMonitor, recording: false), "between takes, view hidden: still off")
        XCTAssertNil(d.update(monitorHeld: curtain.holdsMonitor, recording: true), "the second take")
        XCTAssertTrue(d.end())
    }

    func testAllowNotificationsNeverSilences() {
        var d = DoNotDisturb(allowNotifications: true)
        XCTAssertNil(d.update(monitorHeld: true, recording: true))
        XCTAssertFalse(d.end())
    }

    func testMarkerRoundTripsWithItsRun() throws {
        let run = DoNotDisturb.RunTag(pid: 4242, bootID: "0b9e6c5e-1f6e-4c4d-9a57-7e1d8d3c1a11")
        let text = DoNotDisturb.marker(schema: "org.gnome.desktop.notifications", key: "show-banners", previous: true, run: run)
        let m = try XCTUnwrap(DoNotDisturb.parseMarker(text))
        XCTAssertEqual(m.schema, "org.gnome.desktop.notifications")
        XCTAssertEqual(m.key, "show-banners")
        XCTAssertTrue(m.previous)
        XCTAssertEqual(m.run, run)
        XCTAssertNil(DoNotDisturb.parseMarker("garbage"))
        XCTAssertNil(DoNotDisturb.parseMarker("a b true x boot"), "a pid that is not one")
        let old = try XCTUnwrap(DoNotDisturb.parseMarker("org.gnome.desktop.notifications show-banners true\n"))
        XCTAssertNil(old.run, "an untagged marker from an earlier version still reads")
    }

    /// A live run's marker is left alone; a dead run's, another boot's, an untagged one or one naming this
    /// very pid (reused) is given back.
    func testOnlyAGoneRunsMarkerIsGivenBack() throws {
        let boot = "0b9e6c5e-1f6e-4c4d-9a57-7e1d8d3c1a11"
        func marker(_ pid: Int32, _ bootID: String) throws -> DoNotDisturb.Marker {
            try XCTUnwrap(DoNotDisturb.parseMarker(DoNotDisturb.marker(schema: "s", key: "k", previous: true,
                                                                       run: .init(pid: pid, bootID: bootID))))
        }
        let alive: (Int32) -> Bool = { $0 == 100 }
        XCTAssertEqual(DoNotDisturb.leftover(try marker(100, boot), bootID: boot, ownPid: 200, alive: alive), .leaveAlone)
        XCTAssertEqual(DoNotDisturb.leftover(try marker(101, boot), bootID: boot, ownPid: 200, alive: alive), .giveBack)
        XCTAssertEqual(DoNotDisturb.leftover(try marker(100, "another-boot"), bootID: boot, ownPid: 200, alive: alive), .giveBack)
        XCTAssertEqual(DoNotDisturb.leftover(try marker(100, boot), bootID: boot, ownPid: 100, alive: alive), .giveBack)
        let untagged = try XCTUnwrap(DoNotDisturb.parseMarker("s k true"))
        XCTAssertEqual(DoNotDisturb.leftover(untagged, bootID: boot, ownPid: 200, alive: { _ in true }), .giveBack)
    }
}
