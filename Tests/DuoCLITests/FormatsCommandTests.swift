import Foundation
import XCTest

/// `duo-capture formats`: format choice on real webcams' mode lists (caps files in gst-device-monitor's
/// syntax), on the Duo profiles, and on a pair with nothing in common.
final class FormatsCommandTests: XCTestCase {
    private func caps(_ name: String) -> String {
        "caps:" + URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/caps/\(name).caps").path
    }

    private func lastLine(_ run: Run) -> String { String(run.stdout.split(separator: "\n").last ?? "") }

    func testWebcamsChooseTheLargestSmoothFormat() throws {
        let expected = [("c920-class", "choice: 1920x1080@30"),       // not 2304x1536 at 2 fps
                        ("lifecam-class", "choice: 1280x720@30"),     // MJPEG 720p30, not raw 720p at 10 fps
                        ("facecam-class", "choice: 1920x1080@60"),
                        ("document-camera-slow", "choice: 1280x960@20")]  // nothing reaches 24: the highest rate
        for (name, choice) in expected {
            let run = try duoCapture(["formats", caps(name)])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(lastLine(run), choice, name)
        }
        // --min-fps and --format apply.
        XCTAssertEqual(lastLine(try duoCapture(["formats", caps("c920-class"), "--min-fps", "1"])), "choice: 2304x1536@2")
        XCTAssertEqual(lastLine(try duoCapture(["formats", caps("c920-class"), "--format", "1280x720@30"])), "choice: 1280x720@30")
        // Rates that are not whole numbers print as fractions.
        XCTAssertTrue(try duoCapture(["formats", caps("c920-class")]).stdout.contains("1600x896@15/2"))
    }

    func testTwoCamerasShareTheirIntersection() throws {
        let run = try duoCapture(["formats", caps("c920-class"), caps("lifecam-class")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(lastLine(run), "choice: 1280x720@30")
        XCTAssertTrue(run.stdout.contains("common (after decoding): 1280x720@30"), run.stdout)

        let duo = try duoCapture(["formats", "inner", "outer"])
        XCTAssertEqual(duo.status, 0, duo.stderr)
        XCTAssertEqual(lastLine(duo), "choice: 1920x1080@60")
        XCTAssertTrue(duo.stdout.contains("dropped by the intersection: 3840x2160@120"), duo.stdout)
        XCTAssertTrue(duo.stdout.contains("depth (the virtual camera carries none)"), duo.stdout)
    }

    func testAPairWithNothingInCommonExitsOne() throws {
        let run = try duoCapture(["formats", caps("facecam-class"), caps("document-camera-slow")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.contains("common (after decoding): none"), run.stdout)
        XCTAssertEqual(lastLine(run), "choice: none")
    }

    func testBadCamerasAreOneLineErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let junk = dir.appendingPathComponent("junk.caps")
        try "this is not caps {{".write(to: junk, atomically: true, encoding: .utf8)
        for (args, status, words) in [(["formats", "caps:\(junk.path)"], Int32(65), ["not a caps description"]),
                                      (["formats", "caps:\(dir.path)/none.caps"], 65, ["does not exist"]),
                                      (["formats", "webcam"], 64, ["inner, outer, profile:FILE, caps:FILE"]),
                                      (["formats"], 64, ["give a camera"]),
                                      (["formats", "inner", "outer", "inner"], 64, ["at most two cameras"])] {
            let run = try duoCapture(args)
            XCTAssertEqual(run.status, status, "\(args): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            for w in words { XCTAssertTrue(run.stderr.contains(w), "\(args): \(run.stderr)") }
        }
    }
}
