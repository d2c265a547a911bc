import DuoCore
import Foundation
import XCTest

final class TakeSidecarTests: XCTestCase {
    func testSidecarSitsNextToTheTakeAndRoundTrips() throws {
        XCTAssertEqual(TakeSidecar.path(forTake: "/v/duo-2026-11-29_143005-take01.mkv"), "/v/duo-2026-11-29_143005-take01.json")
        XCTAssertEqual(TakeSidecar.path(forTake: "/v/a.b/take-2.mp4"), "/v/a.b/take-2.json")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-sidecar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let started = Date(timeIntervalSince1970: 1_800_000_000.25)
        var s = TakeSidecar(toolVersion: "0.1.0", gstreamerVersion: "GStreamer 1.22.0", take: 3, file: "t.mkv", started: started,
                            countdownSeconds: 3, cameras: [.init(role: "A", label: "inner", mode: "1920x1080@30 I420")],
                            format: "1080x1080@30", aspect: "1:1", encoder: "x264enc", container: "matroskamux",
                            audio: .init(source: "audiotestsrc", encoder: "opusenc", buffers: nil))
        XCTAssertFalse(s.complete, "a new sidecar describes a take still recording")
        XCTAssertEqual(s.swaps, [])
        XCTAssertEqual(s.markersPassed, [])
        s.markersPassed = [.init(title: "Intro", atSeconds: 1.5)]
        s.swaps = [.init(atSeconds: 2, from: "A", to: "B", format: "1920x1080@30")]
        s.complete = true
        let take = dir.appendingPathComponent("t.mkv").path
        try s.write(nextTo: take)
        let back = try TakeSidecar.read(TakeSidecar.path(forTake: take))
        XCTAssertEqual(back, s)
        XCTAssertEqual(try XCTUnwrap(TakeSidecar.date(back.started)).timeIntervalSince1970, 1_800_000_000.25, accuracy: 0.001)
        XCTAssertThrowsError(try TakeSidecar.read(take)) { XCTAssertEqual(($0 as? DuoError)?.kind, .input) }
    }
}
