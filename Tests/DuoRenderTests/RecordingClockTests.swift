@testable import DuoRender
import XCTest

/// The subject view's recording clock, drawn on every frame of a take.
final class RecordingClockTests: XCTestCase {
    func testMinutesAndSecondsThenHours() {
        XCTAssertEqual(SubjectScene.recordingClock(0), "00:00")
        XCTAssertEqual(SubjectScene.recordingClock(65), "01:05")
        XCTAssertEqual(SubjectScene.recordingClock(3599), "59:59")
        XCTAssertEqual(SubjectScene.recordingClock(3600), "1:00:00")
        XCTAssertEqual(SubjectScene.recordingClock(36_061), "10:01:01")
    }
}
