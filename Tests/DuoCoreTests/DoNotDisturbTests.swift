import DuoCore
import XCTest

/// Do not disturb's policy: when banners go off and come back, and the crash marker's format.
final class DoNotDisturbTests: XCTestCase {
    func testOffWhileShownOrRecordingAndBackAfterwards() {
        var d = DoNotDisturb(allowNotifications: false)
        XCTAssertNil(d.update(subjectShown: false, recording: false))
        XCTAssertEqual(d.update(subjectShown: true, recording: false), true)
        XCTAssertNil(d.update(subjectShown: true, recording: true), "already off")
        XCTAssertNil(d.update(subjectShown: false, recording: true), "a take alone keeps it off")
        XCTAssertEqual(d.update(subjectShown: false, recording: false), false)
        _ = d.update(subjectShown: true, recording: false)
        XCTAssertTrue(d.end(), "the end gives back what is off")
        XCTAssertFalse(d.end())
    }

    func testAllowNotificationsNeverSilences() {
        var d = DoNotDisturb(allowNotifications: true)
        XCTAssertNil(d.update(subjectShown: true, recording: true))
        XCTAssertFalse(d.end())
    }

    func testMarkerRoundTrips() throws {
        let text = DoNotDisturb.marker(schema: "org.gnome.desktop.notifications", key: "show-banners", previous: true)
        let m = try XCTUnwrap(DoNotDisturb.parseMarker(text))
        XCTAssertEqual(m.schema, "org.gnome.desktop.notifications")
        XCTAssertEqual(m.key, "show-banners")
        XCTAssertTrue(m.previous)
        XCTAssertNil(DoNotDisturb.parseMarker("garbage"))
    }
}
