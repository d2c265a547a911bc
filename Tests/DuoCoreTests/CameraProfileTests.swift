import DuoCore
import Foundation
import XCTest

final class CameraProfileTests: XCTestCase {
    func testShippedProfilesMatchTheDocuments() throws {
        let inner = try loadShipped("inner")
        XCTAssertEqual(FormatSelection.best(of: inner.formats, upTo: nil)?.description, "1920x1080@60")
        let outer = try loadShipped("outer")
        XCTAssertEqual(FormatSelection.best(of: outer.formats, upTo: nil)?.description, "3840x2160@120")
        XCTAssertNotEqual(inner.testPattern, outer.testPattern, "simulated cameras must look different")
    }

    private func parseError(_ json: String) -> DuoError? {
        do { _ = try CameraProfile.parse(Data(json.utf8), source: "p.json"); return nil } catch { return error }
    }

    func testMalformedProfilesGiveOneLineInputErrors() {
        let cases: [(String, String)] = [
            ("{", "not valid JSON"),
            ("{\"id\":\"a\",\"name\":\"b\"}", "missing \"formats\""),
            ("{\"id\":\"a\",\"name\":\"b\",\"formats\":[]}", "\"formats\" is empty"),
            ("{\"id\":\"a\",\"name\":\"b\",\"rotation\":45,\"formats\":[{\"width\":640,\"height\":360,\"frameRates\":[30]}]}", "rotation"),
            ("{\"id\":\"a\",\"name\":\"b\",\"formats\":[{\"width\":8193,\"height\":360,\"frameRates\":[30]}]}", "must be between 16 and 8192"),
            ("{\"id\":\"a\",\"name\":\"b\",\"formats\":[{\"width\":640,\"height\":360,\"frameRates\":[0]}]}", "frame rate"),
            ("{\"id\":\"a\",\"name\":\"b\",\"formats\":[{\"width\":\"640\",\"height\":360,\"frameRates\":[30]}]}", "wrong type at formats[0].width"),
            ("{\"id\":\"a b\",\"name\":\"b\",\"formats\":[{\"width\":640,\"height\":360,\"frameRates\":[30]}]}", "\"id\""),
            ("{\"id\":\"a\",\"name\":\"b\",\"formats\":[{\"pixelFormat\":\"XYZ\",\"width\":640,\"height\":360,\"frameRates\":[30]}]}", "pixelFormat"),
        ]
        for (json, expected) in cases {
            guard let e = parseError(json) else { XCTFail("accepted: \(json)"); continue }
            XCTAssertEqual(e.kind, .input)
            XCTAssertTrue(e.message.contains(expected), "\(e.message) should mention \(expected)")
            XCTAssertTrue(e.message.contains("p.json"), e.message)
            XCTAssertFalse(e.message.contains("\n"))
        }
    }

    func testCapsFromARealWebcamBecomeModes() {
        // As printed by gst_caps_to_string for a typical UVC webcam.
        let caps = "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, pixel-aspect-ratio=(fraction)1/1, framerate=(fraction){ 30/1, 15/1 }; image/jpeg, width=(int)1280, height=(int)720, pixel-aspect-ratio=(fraction)1/1, framerate=(fraction)30/1; video/x-raw, format=(string)NV12, width=(int)[ 1, 32768 ], height=(int)[ 1, 32768 ], framerate=(fraction)[ 0/1, 2147483647/1 ]; video/x-raw, format=(string)YUY2, width=(int)320, height=(int)240, framerate=(fraction)[ 5/1, 60/1 ]"
        let modes = CapsDescription.modes(from: caps)
        XCTAssertEqual(modes.map { "\($0.pixelFormat) \($0.format)" },
                       ["YUY2 640x480@30", "YUY2 640x480@15", "jpeg 1280x720@30", "YUY2 320x240@60"])
    }
}
