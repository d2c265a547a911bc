import DuoCore
import DuoMedia
import Foundation
import XCTest

/// Cameras through PipeWire, end to end: a private PipeWire daemon (`PipeWireDaemon`) with virtual
/// camera nodes, and the real duo-capture binary talking to it.
final class PipeWireCameraTests: XCTestCase {
    /// The fixture itself: a published camera is listed by `duo-capture cameras` under that daemon only,
    /// and is gone when unpublished.
    func testPrivateDaemonPublishesAndRemovesACamera() throws {
        let daemon = try PipeWireDaemon(test: self)
        try daemon.publishCamera("duo-fixture-cam", caps: "video/x-raw,width=320,height=240,framerate=30/1")
        let listed = try duoCapture(["cameras"], environment: daemon.environment)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("duo-fixture-cam"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("320x240@30"), listed.stdout)
        try daemon.unpublish("duo-fixture-cam")
        let after = try duoCapture(["cameras"], environment: daemon.environment)
        XCTAssertFalse(after.stdout.contains("duo-fixture-cam"), after.stdout)
    }
}
