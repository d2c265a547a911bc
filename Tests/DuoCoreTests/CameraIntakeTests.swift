import DuoCore
import XCTest

/// Which camera modes the chain takes, and the one line a camera that gave no first frame ends the
/// start with: pure, over caps as GStreamer prints them.
final class CameraIntakeTests: XCTestCase {
    /// videoflip's sink caps as `gst_pad_query_caps` prints them (shortened), with a features structure.
    private let flip = "video/x-raw, format=(string){ AYUV, I420, YUY2, NV12, GRAY16_LE }, width=(int)[ 1, 2147483647 ]; "
        + "video/x-raw(ANY), format=(string){ I420, YV12 }, width=(int)[ 1, 2147483647 ]"

    func testPixelFormatsAreReadFromListsSingleValuesAndAny() {
        XCTAssertEqual(CapsDescription.pixelFormats(from: flip), ["AYUV", "I420", "YUY2", "NV12", "GRAY16_LE", "YV12"])
        XCTAssertEqual(CapsDescription.pixelFormats(from: "video/x-raw, format=(string)YUY2, width=(int)640"), ["YUY2"])
        XCTAssertNil(CapsDescription.pixelFormats(from: "ANY"))
        XCTAssertNil(CapsDescription.pixelFormats(from: "video/x-raw, width=(int)640"), "a raw structure without a format takes any")
        XCTAssertEqual(CapsDescription.pixelFormats(from: "image/jpeg, width=(int)640"), [])
    }

    func testDeviceCapsWithoutAFormatOrWithAListBecomeModes() {
        let modes = CapsDescription.modes(from: "video/x-raw, width=(int)320, height=(int)240, framerate=(fraction)30/1; "
            + "video/x-raw, format=(string){ v210, YUY2 }, width=(int)640, height=(int)480, framerate=(fraction)30/1")
        XCTAssertEqual(modes.map { "\($0.pixelFormat) \($0.format)" },
                       ["no pixel format 320x240@30", "v210 640x480@30", "YUY2 640x480@30"])
    }

    func testTheChainTakesListedFormatsAndMJPEGButNeverAnUnnamedOne() {
        let intake = CameraIntake(rawFormats: CapsDescription.pixelFormats(from: flip))
        func mode(_ pixel: String) -> CameraProfile.Mode { .init(pixelFormat: pixel, format: VideoFormat.parse("320x240@30")!) }
        XCTAssertTrue(intake.takes(mode("YUY2")))
        XCTAssertTrue(intake.takes(mode("jpeg")))
        for refused in ["v210", "r210", "IYU2", "Y444_16LE", CameraProfile.Mode.unnamedPixelFormat] {
            XCTAssertFalse(intake.takes(mode(refused)), refused)
        }
        XCTAssertFalse(CameraIntake.any.takes(mode(CameraProfile.Mode.unnamedPixelFormat)))
        XCTAssertTrue(CameraIntake.any.takes(mode("v210")), "nothing known: any named format")
        XCTAssertEqual(intake.usable([mode("v210"), mode("YUY2")]), [mode("YUY2")])
        XCTAssertEqual(intake.refusal([mode("v210"), mode("IYU2"), mode("v210")]), "it offers only v210, IYU2, which duo-capture cannot convert")
        XCTAssertEqual(intake.refusal([mode(CameraProfile.Mode.unnamedPixelFormat)]), "its modes name no pixel format")
        XCTAssertEqual(intake.refusal([mode("r210"), mode(CameraProfile.Mode.unnamedPixelFormat)]),
                       "it offers only r210 (or no pixel format), which duo-capture cannot convert")
    }

    func testTheLineNamesTheCameraItsModeAndWhatStartUpWaitedFor() {
        let v210 = CameraProfile.Mode(pixelFormat: "v210", format: VideoFormat.parse("320x240@30")!)
        let node = CameraSource.service(stack: .pipewire, target: "cam-v210", name: "Cam", modes: [v210])
        let noFormat = CameraStartWait.format.error(camera: node, mode: v210, waited: .text("within %s s", 3), graphTakes: false)
        XCTAssertEqual(noFormat.kind, .dependency, "exit 69")
        XCTAssertEqual(noFormat.message, "camera Cam (PipeWire cam-v210) gave no first frame within 3 s: no format could be agreed with PipeWire node cam-v210, which offers 320x240@30 in v210 (a pixel format duo-capture cannot convert); pick another camera or mode (duo-capture cameras marks the ones it cannot use)")
        let yuy2 = CameraProfile.Mode(pixelFormat: "YUY2", format: VideoFormat.parse("640x480@30")!)
        let silent = CameraStartWait.frame(agreed: "640x480@30 YUY2").error(camera: node, mode: yuy2, waited: .text("within %s s", 10), graphTakes: true)
        XCTAssertEqual(silent.message, "camera Cam (PipeWire cam-v210) gave no first frame within 10 s: PipeWire node cam-v210 agreed 640x480@30 YUY2 and sent no frame; check the camera with duo-capture cameras and gst-launch-1.0, or give a longer --start-timeout")
        let webcam = CameraStartWait.frame(agreed: nil).error(camera: .v4l2(device: "/dev/video4", modes: [yuy2]), mode: yuy2, waited: nil, graphTakes: true)
        XCTAssertEqual(webcam.message, "camera /dev/video4 gave no first frame: waiting for its first frame at 640x480@30 in YUY2; check the camera with duo-capture cameras and gst-launch-1.0, or give a longer --start-timeout")
        XCTAssertFalse(noFormat.message.contains("\n"))
    }
}
