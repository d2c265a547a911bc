import DuoCore
import XCTest

final class CameraIdentityTests: XCTestCase {
    func testSerialThenByIdThenPortThenPath() {
        let ids = CameraIdentity.assign([
            .init(serial: "Logitech_C920_ABCD1234", byIdNames: ["usb-Logitech_C920_ABCD1234-video-index0"], busPath: "pci-0000:00:14.0-usb-0:2:1.0", path: "/dev/video0"),
            .init(serial: nil, byIdNames: ["usb-Generic_Cam-video-index0", "usb-Generic_Cam-video-index1"], busPath: "pci-0000:00:14.0-usb-0:3:1.0", path: "/dev/video2"),
            .init(serial: "", byIdNames: [], busPath: "platform-fe801000.csi", path: "/dev/video4"),
            .init(path: "/dev/video6"),
        ])
        XCTAssertEqual(ids, ["Logitech_C920_ABCD1234", "usb-Generic_Cam-video-index0", "platform-fe801000.csi", "/dev/video6"])
    }

    /// Two cameras of one model without serial numbers report the same ID_SERIAL: the port tells them apart.
    func testTwoAlikeAreToldApartByTheirPort() {
        let ids = CameraIdentity.assign([
            .init(serial: "Generic_USB_Camera", busPath: "pci-0000:00:14.0-usb-0:2:1.0", path: "/dev/video0"),
            .init(serial: "Generic_USB_Camera", busPath: "pci-0000:00:14.0-usb-0:4:1.0", path: "/dev/video2"),
            .init(serial: "Other", path: "/dev/video4"),
        ])
        XCTAssertEqual(ids, ["Generic_USB_Camera@pci-0000:00:14.0-usb-0:2:1.0", "Generic_USB_Camera@pci-0000:00:14.0-usb-0:4:1.0", "Other"])
    }

    func testTheCameraLastUsedIsRememberedByIdentity() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-memory-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let memory = CameraMemory(file: "\(dir)/state/last-camera")
        XCTAssertNil(memory.last())
        memory.remember("Logitech_C920_ABCD1234")
        XCTAssertEqual(memory.last(), "Logitech_C920_ABCD1234")
        memory.remember("Other")
        XCTAssertEqual(CameraMemory(file: "\(dir)/state/last-camera").last(), "Other")
    }
}
