import DuoCore
import Foundation
import XCTest

/// Issue 37: a take whose camera could not keep up says so in the summary, the sidecar and the log (the
/// operator HUD's message line on a desktop). The camera is throttled by the test, not by the machine's
/// speed: a copy of the shipped pipelines whose test camera sleeps 25 ms a frame (40 frames a second at
/// most) is asked for 60 a second.
final class KeepUpRunTests: XCTestCase {
    func testAThrottledCameraSaysItCouldNotKeepUp() throws {
        let dir = try scratchDirectory(self)
        let pipelines = "\(dir)/Pipelines"
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Pipelines").path
        try FileManager.default.copyItem(atPath: shipped, toPath: pipelines)
        let camera = try String(contentsOfFile: "\(pipelines)/camera-test.gst", encoding: .utf8)
        XCTAssertTrue(camera.contains("framerate={{camera_rate}}"), camera)
        try Data((camera.trimmingCharacters(in: .whitespacesAndNewlines) + "\n! identity sleep-time=25000\n").utf8)
            .write(to: URL(fileURLWithPath: "\(pipelines)/camera-test.gst"))

        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--format", "320x240@60", "--record", "--duration", "2",
                                  "--countdown", "0", "--record-dir", dir, "--pipelines", pipelines, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        let take = try XCTUnwrap((summary["takes"] as? [[String: Any]])?.first, run.stdout)
        let frames = try XCTUnwrap(take["frames"] as? Int)
        XCTAssertLessThan(frames, 90, "the throttled camera made at most 40 a second: \(run.stdout)")
        let said = try XCTUnwrap(take["keepUp"] as? String, "the summary says it: \(run.stdout)")
        let pattern = #"^the camera delivered (\d+) of (\d+) frames: this machine could not keep up with 320x240@60"#
        let match = try XCTUnwrap(said.firstMatch(of: try Regex(pattern)), said)
        XCTAssertEqual(Int(match.output[1].substring ?? ""), frames, said)
        let expected = try XCTUnwrap(Int(match.output[2].substring ?? ""))
        XCTAssertTrue((110...125).contains(expected), "about 2 s × 60: \(said)")
        let file = try XCTUnwrap(take["file"] as? String)
        let sidecar = try TakeSidecar.read(TakeSidecar.path(forTake: file))
        XCTAssertEqual(sidecar.keepUp, said)
        XCTAssertTrue(run.stderr.contains("warning: take 1: \(said)"), run.stderr)
    }
}
