import DuoCore
import DuoPlatform
import Foundation
import XCTest

final class CameraLockTests: XCTestCase {
    /// A PipeWire or libcamera camera has no device node: it is locked by its identity, any characters
    /// in it (a libcamera id has backslashes and slashes) safe in the lock's file name.
    func testACameraWithoutADeviceNodeIsLockedByIdentity() throws {
        let dir = try temporaryDirectory(self)
        var held: CameraLock? = try CameraLock(identity: "libcamera:\\_SB_.PCI0/CAM0", label: "id:libcamera:cam", directory: dir)
        XCTAssertEqual(held.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().path }, URL(fileURLWithPath: dir).path, "the lock file stays in its folder")
        XCTAssertThrowsError(try CameraLock(identity: "libcamera:\\_SB_.PCI0/CAM0", directory: dir)) { error in
            XCTAssertTrue((error as! DuoError).message.hasPrefix("camera libcamera:\\_SB_.PCI0/CAM0 is in use by duo-capture pid \(getpid())"), "\(error)")
        }
        XCTAssertNoThrow(try CameraLock(identity: "pipewire:other-node", directory: dir), "another camera is free")
        held = nil
        XCTAssertNoThrow(try CameraLock(identity: "libcamera:\\_SB_.PCI0/CAM0", directory: dir))
    }

    func testASecondOwnerIsToldWhoHoldsTheCamera() throws {
        let dir = try temporaryDirectory(self)
        // Two character devices stand in for two cameras (there are none here).
        var first: CameraLock? = try CameraLock(device: "/dev/null", directory: dir)
        XCTAssertNotNil(first)
        XCTAssertThrowsError(try CameraLock(device: "/dev/null", directory: dir)) { error in
            let e = error as! DuoError
            XCTAssertEqual(e.kind, .runtime)
            XCTAssertTrue(e.message.contains("/dev/null is in use by duo-capture pid \(getpid())"), e.message)
        }
        // Another camera is free; releasing the first frees it for the next owner.
        XCTAssertNoThrow(try CameraLock(device: "/dev/zero", directory: dir))
        first = nil
        XCTAssertNoThrow(try CameraLock(device: "/dev/null", directory: dir))
    }

    /// The lock is on the device itself (its device number), not on a path: another node made for the
    /// same device (mknod, as udev's by-path and by-id links or a container's /dev do) is the same camera,
    /// and the error names the camera as it was asked for.
    func testAnotherNodeForTheSameDeviceIsTheSameCamera() throws {
        let dir = try temporaryDirectory(self)
        var info = stat()
        XCTAssertEqual(stat("/dev/null", &info), 0)
        let node = "\(dir)/camera-node"
        XCTAssertEqual(mknod(node, S_IFCHR | 0o600, info.st_rdev), 0, "mknod needs root: the tests run as root (apt-get)")
        let held = try CameraLock(device: "/dev/null", directory: dir)
        XCTAssertThrowsError(try CameraLock(device: node, label: "id:USB-CAM-1", directory: dir)) { error in
            XCTAssertTrue((error as! DuoError).message.hasPrefix("camera id:USB-CAM-1 is in use by duo-capture pid"), "\(error)")
        }
        XCTAssertThrowsError(try CameraLock(device: "\(dir)/no-such-camera", directory: dir)) { error in
            XCTAssertEqual((error as! DuoError).kind, .usage)
        }
        withExtendedLifetime(held) {}
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
