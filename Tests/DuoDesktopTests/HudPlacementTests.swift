import Foundation
import XCTest

/// Where the operator HUD goes, read from screenshots of the virtual desktop: beside a 9:16 composition on
/// the 16:9 operator monitor (the composition's own pixels left clear), and inside an operator display
/// profile's insets; a bad profile is one line and exit 65.
final class HudPlacementTests: XCTestCase {
    private func start(_ desktop: VirtualDesktop, _ extra: [String]) throws -> DesktopEndToEndTests.App {
        let events = desktop.directory.appendingPathComponent("events-\(UUID().uuidString).jsonl")
        let p = try desktop.launch(DesktopEndToEndTests.binary.path, ["--source", "videotestsrc", "--format", "1280x720@30",
                                                                      "--events", events.path] + extra,
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        return DesktopEndToEndTests.App(process: p, events: events)
    }

    /// The SMPTE bars' colour under (x, y) of the 1280-wide operator picture, undimmed by any panel.
    private func bareBar(_ s: Screenshot, _ x: Int, _ y: Int) -> Bool {
        let expected: [(Bool, Bool, Bool)] = [(true, true, true), (true, true, false), (false, true, true), (false, true, false),
                                              (true, false, true), (true, false, false), (false, false, true)]
        let (r, g, b) = expected[min(6, x * 7 / 1280)]
        let p = s.pixel(x, y)
        let on = { (v: Int, want: Bool) in want ? v > 170 : v < 80 }
        return on(p.r, r) && on(p.g, g) && on(p.b, b)
    }

    /// Pixels of the HUD's panel in a region: dimmed white (the backdrop over the white bar) or text.
    private func panelPixels(_ s: Screenshot, x: Int, y: Int, w: Int, h: Int) -> Int {
        var n = 0
        for yy in stride(from: y, to: y + h, by: 2) {
            for xx in stride(from: x, to: x + w, by: 2) {
                let p = s.pixel(xx, yy)
                if p.r > 60 && p.r < 140 && abs(p.r - p.g) < 20 && abs(p.g - p.b) < 20 { n += 1 }
            }
        }
        return n
    }

    func testHudGoesBesideANineBySixteenComposition() throws {
        let desktop = try VirtualDesktop(test: self)
        let app = try start(desktop, ["--aspect", "9:16"])
        try app.wait("fullscreen") { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        // The composition is 405 px wide, centred (x 437 to 842): the panel goes in the bar left of it.
        let points = [(460, 30), (640, 30), (820, 30), (460, 120), (640, 120), (820, 120), (460, 200), (640, 200)]
        var last: [String] = []
        let shot = try waitForScreen(desktop, "the preview with the HUD beside the composition") { s in
            last = points.filter { !self.bareBar(s, $0.0, $0.1) }.map { "\($0)" }
            return last.isEmpty && self.panelPixels(s, x: 8, y: 8, w: 420, h: 200) > 500
        }
        shot.keep("hud-beside")
        XCTAssertEqual(last, [], "nothing of the HUD over the composition")
        XCTAssertGreaterThan(panelPixels(shot, x: 8, y: 8, w: 420, h: 200), 500, "the HUD is in the bar beside it")
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
    }

    func testOperatorDisplayProfileKeepsTheHudOutOfItsInsets() throws {
        let desktop = try VirtualDesktop(monitors: 1, test: self)
        let profile = desktop.directory.appendingPathComponent("notch.json")
        try Data(#"{"insets": {"top": 0.1, "left": 0.1}}"#.utf8).write(to: profile)
        let app = try start(desktop, ["--operator-display", profile.path])
        try app.wait("fullscreen") { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        // Insets of 72 px at the top and 128 px at the left: the bars there are bare, the panel below.
        let clear = [(60, 30), (200, 30), (400, 30), (600, 60), (60, 200), (100, 300)]
        var last: [String] = []
        let shot = try waitForScreen(desktop, "the HUD inside the profile's insets") { s in
            last = clear.filter { !self.bareBar(s, $0.0, $0.1) }.map { "\($0)" }
            return last.isEmpty && self.panelPixels(s, x: 136, y: 80, w: 200, h: 120) > 300
        }
        shot.keep("hud-insets")
        XCTAssertEqual(last, [], "nothing of the HUD in the insets")
        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }

        // A profile that is not JSON: one line, exit 65, nothing started.
        let bad = desktop.directory.appendingPathComponent("bad.json")
        try Data("not json".utf8).write(to: bad)
        let r = try desktop.run(DesktopEndToEndTests.binary.path, ["--source", "videotestsrc", "--operator-display", bad.path, "--duration", "5"])
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("--operator-display"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { !$0.contains("dconf") }.count, 1, r.stderr)
    }
}
