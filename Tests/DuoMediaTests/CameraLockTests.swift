import DuoCore
import DuoMedia
import Foundation
import XCTest

final class CameraLockTests: XCTestCase {
    func testASecondOwnerIsToldWhoHoldsTheCamera() throws {
        let dir = try temporaryDirectory(self)
        var first: CameraLock? = try CameraLock(device: "/dev/video0", directory: dir)
        XCTAssertNotNil(first)
        XCTAssertThrowsError(try CameraLock(device: "/dev/video0", directory: dir)) { error in
            let e = error as! DuoError
            XCTAssertEqual(e.kind, .runtime)
            XCTAssertTrue(e.message.contains("/dev/video0 is in use by duo-capture pid \(getpid())"), e.message)
        }
        // Another camera is free; releasing the first frees it for the next owner.
        XCTAssertNoThrow(try CameraLock(device: "/dev/video1", directory: dir))
        first = nil
        XCTAssertNoThrow(try CameraLock(device: "/dev/video0", directory: dir))
    }
}
