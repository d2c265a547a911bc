import DuoCore
import Foundation
import XCTest

/// The subject view at the subject monitor's own resolution, on a real X desktop whose subject monitor is
/// 1920x1080 or 3840x2160: what the monitor shows equals `render-subject --size` of the same state, and
/// its text edges are as sharp as the renderer makes them (not a small frame scaled up by the display).
final class SubjectMonitorTests: XCTestCase {
    private var script: String { VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path }

    func testTeleprompterAt1080pEqualsRenderSubjectAndIsSharp() throws {
        try assertNativeTeleprompter(width: 1920, height: 1080)
    }

    func testTeleprompterAt4KEqualsRenderSubjectAndIsSharp() throws {
        try assertNativeTeleprompter(width: 3840, height: 2160)
    }

    /// With a lens in a corner and a large self-view, the monitor still equals `render-subject` with the
    /// same options everywhere but inside the self-view (the camera live, a test pattern offline).
    func testLensAndLargeSelfViewAt1080pEqualRenderSubject() throws {
        try assertNativeTeleprompter(width: 1920, height: 1080, options: ["--lens", "top-left", "--self-view", "large"],
                                     selfView: (.topLeft, .large), checkSharpness: false)
    }

    /// A beam-splitter prompter: the text mirrored for the glass, live as offline.
    func testBehindTheGlassAt1080pEqualsRenderSubject() throws {
        try assertNativeTeleprompter(width: 1920, height: 1080, options: ["--lens", "behind"], selfView: (.behind, .small),
                                     checkSharpness: false)
    }

    private func assertNativeTeleprompter(width: Int, height: Int, options: [String] = [],
                                          selfView: (LensPosition, SelfViewSize) = (.top, .small), checkSharpness: Bool = true,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let desktop = try VirtualDesktop(subjectSize: "\(width)x\(height)", test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let process = try desktop.launch(DesktopEndToEndTests.binary.path,
                                         ["--source", "videotestsrc", "--format", "1280x720@30", "--script", script,
                                          "--events", events.path] + options, log: "duo-capture.log")
        let app = DesktopEndToEndTests.App(process: process, events: events)
        let shown = try app.wait("the subject view to be shown") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        XCTAssertEqual(shown.event["subjectMonitor"] as? String, "DUMMY1", file: file, line: line)

        // The same state offline: the script at its start, no take, the same options, 1:1 pixels. Only the
        // self-view's inside differs (the live camera there, a test pattern offline).
        let png = desktop.directory.appendingPathComponent("expected.png").path
        let render = try desktop.run(DesktopEndToEndTests.binary.path, ["render-subject", "--script", script, "--at", "0",
                                                                          "--size", "\(width)x\(height)", "--out", png] + options)
        let hole = SelfViewDesktopTests.expectedSelfView(selfView.0, size: selfView.1, width: width, height: height)
        XCTAssertEqual(render.status, 0, render.stderr, file: file, line: line)
        let converted = try desktop.run("convert", [png, "-depth", "8", "ppm:-"], binary: true)
        let expected = try Screenshot(ppm: converted.data)

        // Polls the monitor until it shows that frame (its tiles render in the background after start-up).
        var last: Comparison?
        let monitor: Screenshot
        do {
            monitor = try {
                var match: Screenshot?
                try waitFor("the subject monitor to show the render-subject frame", timeout: 30, interval: 0.3) {
                    let shot = try desktop.screenshot()
                    guard shot.width == 1280 + width, shot.height >= height else { return false }
                    let c = Comparison(shot, offsetX: 1280, expected, excluding: hole)
                    last = c
                    if c.matches { match = shot }
                    return c.matches
                }
                return match!
            }()
        } catch {
            // What the monitor showed, beside expected.png, for a look (DUO_KEEP=1 keeps the folder).
            _ = try? desktop.run("import", ["-window", "root", "-crop", "\(width)x\(height)+1280+0", "+repage",
                                            desktop.directory.appendingPathComponent("monitor.png").path])
            XCTFail("\(error); last comparison: \(last.map(String.init(describing:)) ?? "none"); \(desktop.tail("duo-capture.log"))", file: file, line: line)
            return
        }

        if checkSharpness {
        // Sharp: the text's dark-to-light edges are about one pixel wide on the monitor, as in the render,
        // while the same frame drawn small and scaled up by the display (as before) has edges several wide.
        let live = EdgeWidth.measure(monitor, x: 1280, width: width, height: height)
        let small = desktop.directory.appendingPathComponent("small.png").path
        let smallRender = try desktop.run(DesktopEndToEndTests.binary.path, ["render-subject", "--script", script, "--at", "0",
                                                                               "--aspect", "none", "--size", "640x360",
                                                                               "--font-size", "\(Int(48.0 * 360 / Double(height)))",
                                                                               "--out", small])
        XCTAssertEqual(smallRender.status, 0, smallRender.stderr, file: file, line: line)
        let upscaled = try desktop.run("convert", [small, "-filter", "Triangle", "-resize", "\(width)x\(height)!", "-depth", "8", "ppm:-"], binary: true)
        let blurred = EdgeWidth.measure(try Screenshot(ppm: upscaled.data), x: 0, width: width, height: height)
        print("subject monitor \(width)x\(height): edges \(String(format: "%.2f", live.mean)) px wide on average over \(live.edges) edges; scaled up from 640x360: \(String(format: "%.2f", blurred.mean)) px")
        XCTAssertGreaterThan(live.edges, 200, "the measure found text edges on the monitor", file: file, line: line)
        XCTAssertLessThan(live.mean, 1.6, "text edges on the \(width)x\(height) monitor are sharp (mean transition \(live.mean) px)", file: file, line: line)
        XCTAssertGreaterThan(blurred.mean, live.mean + 1, "the measure tells a scaled-up frame (\(blurred.mean) px) from native text", file: file, line: line)
        }

        kill(process.processIdentifier, SIGTERM)
        try app.wait("the run to stop") { $0["event"] as? String == "stopped" }
        try waitFor("duo-capture to exit", timeout: 20) { !process.isRunning }
        XCTAssertEqual(process.terminationStatus, 0, desktop.tail("duo-capture.log"), file: file, line: line)
    }

    /// The preview kind: the subject monitor shows the camera picture, mirrored (a selfie view) and fitted
    /// to the monitor by the graph; the subject branch carries frames for it.
    func testPreviewKindShowsTheMirroredPictureAcrossTheMonitor() throws {
        let desktop = try VirtualDesktop(subjectSize: "1920x1080", test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let process = try desktop.launch(DesktopEndToEndTests.binary.path,
                                         ["--source", "videotestsrc", "--format", "1280x720@30", "--accessory", "preview",
                                          "--events", events.path], log: "duo-capture.log")
        let app = DesktopEndToEndTests.App(process: process, events: events)
        try app.wait("the subject view to be shown") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        // SMPTE bars left to right are grey, yellow, cyan, green, magenta, red, blue: mirrored, blue comes first.
        let mirrored: [(String, Bool, Bool, Bool)] = [("blue", false, false, true), ("red", true, false, false),
                                                      ("magenta", true, false, true), ("green", false, true, false),
                                                      ("cyan", false, true, true), ("yellow", true, true, false)]
        func showsBars(_ s: Screenshot) -> Bool {
            guard s.width == 1280 + 1920 else { return false }
            return mirrored.enumerated().allSatisfy { i, bar in
                let p = s.pixel(1280 + Int((Double(i) + 0.5) * 1920 / 7), 400)
                let on = { (v: Int, want: Bool) in want ? v > 120 : v < 80 }
                return on(p.r, bar.1) && on(p.g, bar.2) && on(p.b, bar.3)
            }
        }
        var last: Screenshot?
        do {
            try waitFor("the mirrored bars across the subject monitor", timeout: 30, interval: 0.3) {
                last = try desktop.screenshot()
                return showsBars(last!)
            }
        } catch {
            let seen = last.map { s in (0..<7).map { i in "\(s.pixel(1280 + Int((Double(i) + 0.5) * 1920 / 7), 400))" } } ?? []
            XCTFail("\(error): \(seen)")
        }
        try app.wait("subject frames in a status") { $0["event"] as? String == "status" && ($0["subjectFrames"] as? Int ?? 0) > 10 }
        kill(process.processIdentifier, SIGTERM)
        try waitFor("duo-capture to exit", timeout: 20) { !process.isRunning }
        XCTAssertEqual(process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }
}

/// A screenshot region against an expected frame, pixel by pixel.
///
/// Thread: value type.
struct Comparison: CustomStringConvertible {
    var maximum = 0
    var differing = 0
    var total = 0
    /// Equal within a small per-pixel tolerance: no channel off by more than 6 anywhere but in 0.05 % of
    /// pixels (antialiased edges of translucent fills may round differently in the X server).
    var matches: Bool { total > 0 && Double(differing) / Double(total) < 0.0005 }

    /// `excluding`: a rectangle of the expected frame left out (the self-view's live picture).
    init(_ shot: Screenshot, offsetX: Int, _ expected: Screenshot, excluding hole: FrameRect? = nil) {
        guard shot.width >= offsetX + expected.width, shot.height >= expected.height else { return }
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                if let hole, Double(x) >= hole.minX, Double(x) < hole.maxX, Double(y) >= hole.minY, Double(y) < hole.maxY { continue }
                let a = shot.pixel(offsetX + x, y), b = expected.pixel(x, y)
                let d = max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
                maximum = max(maximum, d)
                if d > 6 { differing += 1 }
                total += 1
            }
        }
    }

    var description: String { "\(differing) of \(total) pixels differ by more than 6 (largest difference \(maximum))" }
}

/// How wide text edges are: along every row, each run from dark (luma < 60) to light (luma > 170) or back
/// is an edge; its width is the number of pixels in between. Native antialiased text has edges of 0–2
/// pixels; a frame scaled up by N has edges about N wide.
///
/// Thread: value type.
struct EdgeWidth {
    var edges = 0
    var mean = 0.0

    static func measure(_ shot: Screenshot, x: Int, width: Int, height: Int) -> EdgeWidth {
        var result = EdgeWidth()
        var sum = 0
        for y in stride(from: 0, to: min(height, shot.height), by: 2) {
            var lastExtreme: (x: Int, light: Bool)?
            for xx in x..<min(x + width, shot.width) {
                let p = shot.pixel(xx, y)
                let luma = (299 * p.r + 587 * p.g + 114 * p.b) / 1000
                let light: Bool
                if luma < 60 { light = false } else if luma > 170 { light = true } else { continue }
                if let last = lastExtreme, last.light != light, xx - last.x - 1 <= 12 {
                    sum += xx - last.x - 1
                    result.edges += 1
                }
                lastExtreme = (xx, light)
            }
        }
        result.mean = result.edges > 0 ? Double(sum) / Double(result.edges) : 0
        return result
    }
}
