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

    /// Letting go removes the lock file, and a symbolic link to a camera is the same camera.
    func testNoLockFileIsLeftAndALinkIsTheSameCamera() throws {
        let dir = try temporaryDirectory(self)
        let device = "\(dir)/video7"
        FileManager.default.createFile(atPath: device, contents: nil)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/by-id-cam", withDestinationPath: device)
        var lock: CameraLock? = try CameraLock(device: device, directory: dir)
        let path = try XCTUnwrap(lock?.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertThrowsError(try CameraLock(device: "\(dir)/by-id-cam", directory: dir), "the link names the same camera")
        lock = nil
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no lock file left behind")
        XCTAssertNoThrow(try CameraLock(device: "\(dir)/by-id-cam", directory: dir))
    }
}
