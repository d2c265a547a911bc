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

    /// Each value a damaged or edited sidecar can hold that used to trap the report (a time outside Int's
    /// range, a sum past Int64's end) gives a page that says the sidecar was left out, and why.
    func testTheReportSurvivesEverySidecarValueThatCouldTrap() {
        func sidecar(_ edit: (inout TakeSidecar) -> Void) -> TakeSidecar {
            var s = TakeSidecar(toolVersion: "0.1.0", gstreamerVersion: "GStreamer 1.22.0", take: 1, file: "t.mkv", started: Date(),
                                countdownSeconds: 3, cameras: [], format: "320x240@30", aspect: nil, encoder: "x264enc",
                                container: "matroskamux", audio: nil)
            edit(&s)
            return s
        }
        func take(_ s: TakeSidecar, seconds: Double = 2) -> SessionReport.Take {
            SessionReport.Take(file: "/v/t.mkv", sidecar: s, thumbnails: [], levels: [], seconds: seconds, frames: 60, width: 320,
                               height: 240, damage: nil)
        }
        let cases: [(TakeSidecar, String)] = [
            (sidecar { $0.markersPassed = [.init(title: "Intro", atSeconds: 1e300)] }, "marker"),
            (sidecar { $0.markersPassed = [.init(title: "Intro", atSeconds: -.infinity)] }, "marker"),
            (sidecar { $0.swaps = [.init(atSeconds: -1e300, from: "A", to: "B", format: "x")] }, "swap"),
            (sidecar { $0.interruptions = [.init(atSeconds: .nan, device: "A", what: "lost")] }, "A lost"),
            (sidecar { $0.droppedFrames = .max }, "droppedFrames"),
            (sidecar { $0.frames = -1 }, "frames"),
            (sidecar { $0.durationSeconds = 1e300 }, "durationSeconds"),
            (sidecar { $0.countdownSeconds = .min }, "countdownSeconds"),
        ]
        for (s, what) in cases {
            let page = SessionReport.html(folder: "/v", takes: [take(s), take(s)])
            XCTAssertTrue(page.contains("sidecar damaged: its \(what)"), "\(what): \(page)")
        }
        // The take's own length from a file is clamped for the clock, never converted past Int's range.
        let good = sidecar { $0.droppedFrames = 2 }
        let page = SessionReport.html(folder: "/v", takes: [take(good, seconds: 1e300), take(good, seconds: .infinity)])
        XCTAssertTrue(page.contains("<b>4</b>dropped frames"), page)
        XCTAssertFalse(page.contains("sidecar damaged"))
    }
}
