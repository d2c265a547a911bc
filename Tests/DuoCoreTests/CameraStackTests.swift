import DuoCore
import Foundation
import XCTest

/// PipeWire and libcamera cameras as pure policy: which stack a device is, the identity that survives a
/// replug, which camera `--camera auto` opens, where the PipeWire daemon is looked for, and the graph a
/// service camera renders to.
final class CameraStackTests: XCTestCase {
    /// A PipeWire node (as GStreamer's PipeWire provider reports it) is known by its node name, not by its
    /// serial (which changes each time the node is published) nor by `device.api = v4l2` (PipeWire
    /// opening a USB camera itself).
    func testAPipeWireNodeIsKnownByItsNodeName() {
        let first = CameraDeviceMapping.map(.init(typeName: "GstPipeWireDevice", propertiesName: "pipewire-proplist",
                                                  properties: ["node.name": "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0", "object.serial": "52",
                                                               "device.api": "v4l2", "media.class": "Video/Source"],
                                                  displayName: "Integrated Camera"))
        XCTAssertEqual(first.stack, .pipewire)
        XCTAssertEqual(first.identity, "pipewire:v4l2_input.pci-0000_00_14.0-usb-0_1_1.0")
        XCTAssertEqual(first.target, "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0")
        let republished = CameraDeviceMapping.map(.init(typeName: "GstPipeWireDevice", propertiesName: "pipewire-proplist",
                                                        properties: ["node.name": "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0", "object.serial": "97"],
                                                        displayName: "Integrated Camera"))
        XCTAssertEqual(republished.identity, first.identity, "the same camera after a replug")
        // A node without a name falls back to its serial (good for this session only).
        XCTAssertEqual(CameraDeviceMapping.map(.init(typeName: "GstPipeWireDevice", properties: ["object.serial": "61"], displayName: "x")).target, "61")
    }

    /// libcamera's provider gives no properties: its camera id (the display name) is the identity and
    /// what libcamerasrc's camera-name takes.
    func testALibcameraCameraIsKnownByItsCameraId() {
        let mapped = CameraDeviceMapping.map(.init(typeName: "GstLibcameraDevice", propertiesName: nil, properties: [:],
                                                   displayName: "\\_SB_.PCI0.I2C2.CAM0"))
        XCTAssertEqual(mapped.stack, .libcamera)
        XCTAssertEqual(mapped.identity, "libcamera:\\_SB_.PCI0.I2C2.CAM0")
        XCTAssertEqual(mapped.target, "\\_SB_.PCI0.I2C2.CAM0")
        XCTAssertEqual(CameraStack.libcamera.sourceElement, "libcamerasrc")
        XCTAssertEqual(CameraStack.pipewire.sourceElement, "pipewiresrc")
    }

    /// V4L2 and the test provider keep the identity udev's facts give (CameraIdentity.assign).
    func testV4L2AndTestCamerasKeepTheirUdevIdentity() {
        let v4l2 = CameraDeviceMapping.map(.init(typeName: "GstV4l2Device", propertiesName: "v4l2deviceprovider",
                                                 properties: ["device.path": "/dev/video0", "device.api": "v4l2", "device.serial": "Logi_C920"],
                                                 displayName: "C920"))
        XCTAssertEqual(v4l2, .init(stack: .v4l2, identity: nil, target: "/dev/video0"))
        let test = CameraDeviceMapping.map(.init(typeName: "DuoTestDevice", properties: ["device.path": "/tmp/a.camera", "device.api": "duotest"],
                                                 displayName: "Test"))
        XCTAssertEqual(test.stack, .test)
        XCTAssertNil(test.identity)
    }

    /// `--camera auto`: the remembered camera wherever it comes from, else PipeWire, else V4L2 (or the
    /// test provider), else libcamera directly; none: nil (the simulated camera, said by the caller).
    func testAutoPrefersTheRememberedCameraThenPipeWireThenV4L2() {
        let cameras: [DefaultCameraOrder.Candidate] = [.init(identity: "Logi_C920", stack: .v4l2),
                                                       .init(identity: "libcamera:cam0", stack: .libcamera),
                                                       .init(identity: "pipewire:node", stack: .pipewire)]
        XCTAssertEqual(DefaultCameraOrder.choose(cameras, remembered: "Logi_C920"), 0)
        XCTAssertEqual(DefaultCameraOrder.choose(cameras, remembered: "gone"), 2)
        XCTAssertEqual(DefaultCameraOrder.choose(cameras, remembered: nil), 2)
        XCTAssertEqual(DefaultCameraOrder.choose(Array(cameras.prefix(2)), remembered: nil), 0)
        XCTAssertEqual(DefaultCameraOrder.choose([cameras[1]], remembered: nil), 0)
        XCTAssertNil(DefaultCameraOrder.choose([], remembered: "Logi_C920"))
    }

    /// The daemon's socket, found the way libpipewire finds it.
    func testThePipeWireSocketIsFoundLikeLibpipewireFindsIt() {
        XCTAssertEqual(PipeWireDaemonLocation.socketPath(["XDG_RUNTIME_DIR": "/run/user/1000"]), "/run/user/1000/pipewire-0")
        XCTAssertEqual(PipeWireDaemonLocation.socketPath(["XDG_RUNTIME_DIR": "/run/user/1000", "PIPEWIRE_RUNTIME_DIR": "/pw"]), "/pw/pipewire-0")
        XCTAssertEqual(PipeWireDaemonLocation.socketPath(["XDG_RUNTIME_DIR": "/r", "PIPEWIRE_REMOTE": "pipewire-1"]), "/r/pipewire-1")
        XCTAssertEqual(PipeWireDaemonLocation.socketPath(["PIPEWIRE_REMOTE": "/abs/sock"]), "/abs/sock")
        XCTAssertNil(PipeWireDaemonLocation.socketPath([:]))
        XCTAssertTrue(PipeWireDaemonLocation.notRunningNotice([:]).hasPrefix("no PipeWire daemon (XDG_RUNTIME_DIR is not set); "))
        XCTAssertFalse(PipeWireDaemonLocation.notRunningNotice(["XDG_RUNTIME_DIR": "/r"]).contains("\n"), "one line")
    }

    /// Only one of PipeWire's and libcamera's device providers runs in a process (together they abort).
    func testOnlyOneOfPipeWireAndLibcameraProvidersRuns() {
        XCTAssertEqual(CameraProviderChoice.providersToHide(pipeWireReachable: true), ["libcameraprovider"])
        XCTAssertEqual(CameraProviderChoice.providersToHide(pipeWireReachable: false), ["pipewiredeviceprovider"])
    }

    /// A PipeWire camera renders to pipewiresrc pointed at its node name, with video caps right after it
    /// (without them WirePlumber does not link it); MJPEG is decoded; libcamera renders to libcamerasrc
    /// with camera-name, quoted for gst-launch; the start line names the stack.
    func testServiceCamerasRenderToTheirSourceElements() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let library = PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path)
        let mode720 = CameraProfile.Mode(pixelFormat: "YUY2", format: VideoFormat.parse("1280x720@30")!)
        let pipewire = CameraSource.service(stack: .pipewire, target: "v4l2_input.usb-1", name: "Webcam", modes: [mode720])
        let chain = try GraphPlan(library: library, camera: pipewire, requested: nil, aspect: nil, encoder: .x264, container: .mkv).cameraDescription()
        XCTAssertTrue(chain.hasPrefix("pipewiresrc name=camera target-object=\"v4l2_input.usb-1\" client-name=duo-capture do-timestamp=true ! video/x-raw,width=1280,height=720,framerate=30/1"), chain)
        XCTAssertEqual(pipewire.label, "Webcam (PipeWire v4l2_input.usb-1)")
        let jpeg = CameraSource.service(stack: .pipewire, target: "n", name: "n", modes: [.init(pixelFormat: "jpeg", format: VideoFormat.parse("1920x1080@30")!)])
        let jpegChain = try GraphPlan(library: library, camera: jpeg, requested: nil, aspect: nil, encoder: .x264, container: .mkv).cameraDescription()
        XCTAssertTrue(jpegChain.contains("! image/jpeg,width=1920,height=1080,framerate=30/1 ! jpegdec"), jpegChain)
        XCTAssertEqual(jpeg.label, "n (PipeWire)")
        let libcamera = CameraSource.service(stack: .libcamera, target: "\\_SB_.CAM0", name: "\\_SB_.CAM0", modes: [.init(pixelFormat: "NV12", format: VideoFormat.parse("1280x720@30")!)])
        let lcChain = try GraphPlan(library: library, camera: libcamera.rotated(180), requested: nil, aspect: nil, encoder: .x264, container: .mkv).cameraDescription()
        XCTAssertTrue(lcChain.hasPrefix("libcamerasrc name=camera camera-name=\"\\\\_SB_.CAM0\" ! video/x-raw,format=NV12,width=1280,height=720"), lcChain)
        XCTAssertTrue(lcChain.contains("video-direction=180"), lcChain)
    }
}
