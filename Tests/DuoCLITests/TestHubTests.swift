@testable import DuoTestHub
import DuoCore
import Foundation
import XCTest

/// The test hub's fault commands, parsed once the hub is registered (as duo-capture-testhub does), and the
/// product without it: duo-capture knows none of them and ignores the hub's variables.
final class TestHubTests: XCTestCase {
    func testTheHubsCommandsParseOnceItIsRegistered() throws {
        TestHub.install()
        let cases: [(String, ExtensionCommand)] = [
            (#"{"cmd":"unplug","camera":"B"}"#, .init(name: "unplug", fields: ["camera": "1"])),
            (#"{"cmd":"replug","camera":"A"}"#, .init(name: "replug", fields: ["camera": "0"])),
            (#"{"cmd":"unplug","monitor":"subject"}"#, .init(name: "unplug", fields: ["monitor": "subject"])),
            (#"{"cmd":"rotate","camera":"A","degrees":90}"#, .init(name: "rotate", fields: ["camera": "0", "degrees": "90"])),
        ]
        for (line, expected) in cases { XCTAssertEqual(try ControlCommand.parse(line), .extended(expected), line) }
        for (line, words) in [(#"{"cmd":"unplug","monitor":"operator"}"#, "\"monitor\": \"subject\""),
                              (#"{"cmd":"rotate","camera":"A","degrees":45}"#, "0, 90, 180 or 270"),
                              (#"{"cmd":"rotate","degrees":90}"#, "\"camera\": \"A\" or \"B\"")] {
            XCTAssertThrowsError(try ControlCommand.parse(line), line) { error in
                XCTAssertTrue((error as! DuoError).message.contains(words), "\(error)")
            }
        }
    }

    /// The installed program is the product: a fault command is an unknown command, and DUO_TEST_CAMERAS
    /// adds no camera. (The same lines work in duo-capture-testhub, which the rest of the suite runs.)
    func testTheProductBinaryHasNoTestHub() throws {
        let dir = try scratchDirectory(self)
        let timeline = "\(dir)/t.jsonl"
        try #"{"at": 0.2, "cmd": "unplug", "camera": "A"}"#.write(toFile: timeline, atomically: true, encoding: .utf8)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "0.5", "--timeline", timeline], product: "duo-capture")
        XCTAssertEqual(run.status, 65, "a timeline with a hub command is a bad input file for the product: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("unknown command \"unplug\""), run.stderr)
        try FileManager.default.createDirectory(atPath: "\(dir)/cameras", withIntermediateDirectories: true)
        try "name=Hub Cam\nserial=HUB-1\ncaps=video/x-raw,format=YUY2,width=320,height=240,framerate=30/1\npattern=ball\n"
            .write(toFile: "\(dir)/cameras/cam.camera", atomically: true, encoding: .utf8)
        let cameras = try duoCapture(["cameras"], environment: ["DUO_TEST_CAMERAS": "\(dir)/cameras"], product: "duo-capture")
        XCTAssertFalse(cameras.stdout.contains("HUB-1"), "the product lists no test camera: \(cameras.stdout)")
        let hub = try duoCapture(["cameras"], environment: ["DUO_TEST_CAMERAS": "\(dir)/cameras"])
        XCTAssertTrue(hub.stdout.contains("id:HUB-1"), "the test hub lists it: \(hub.stdout)")
    }
}
