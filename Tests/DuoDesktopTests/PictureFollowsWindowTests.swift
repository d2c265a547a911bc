import Foundation
import XCTest

/// The operator picture follows its window on the virtual desktop (a 1280x720 operator monitor and a
/// 1920x1080 second one): windowed, resized to 800x450 and back, then moved to the bigger monitor and
/// made fullscreen there, the picture fills the window at the camera's aspect each time (the test
/// pattern's bars where they belong, pixels), and it keeps moving (the pattern's snow differs between
/// two screenshots). The frames the window paints follow its size (their negotiated caps, reported by
/// the `operator-picture` event): the graph scales the camera down to each window size, once, and the
/// window copies them pixel for pixel; on the monitor the camera fits, its own 1920x1080 pixels.
final class PictureFollowsWindowTests: XCTestCase {
    func testPictureFillsTheWindowThroughResizesAndAMoveToAnotherMonitor() throws {
        let desktop = try VirtualDesktop(subjectSize: "1920x1080", test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--source", "videotestsrc", "--format", "1920x1080@30", "--events", events.path,
                                    "--record-dir", desktop.directory.appendingPathComponent("takes").path],
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        let app = DesktopEndToEndTests.App(process: p, events: events)
        try app.wait("frames to flow") { $0["event"] as? String == "frames" && $0["flowing"] as? Bool == true }
        try app.wait("fullscreen") { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        try expectPicture(desktop, in: (0, 0, 1280, 720), "fullscreen on the operator monitor")
        try expectFrames(app, 1280, 720, after: 0)

        // Windowed, then 800x450, then back to 1120x630.
        var mark = app.count
        try desktop.key("Escape")
        try app.wait("fullscreen off", after: mark) { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == false }
        let window = try operatorWindow(desktop)
        for (w, h) in [(800, 450), (1120, 630)] {
            let resized = app.count
            _ = try desktop.run("xdotool", ["windowsize", window, "\(w)", "\(h)"])
            var rect = (0, 0, 0, 0)
            try waitFor("the window at \(w)x\(h)", timeout: 10) {
                rect = try self.geometry(desktop, window)
                return rect.2 == w && rect.3 == h
            }
            try expectPicture(desktop, in: rect, "windowed at \(w)x\(h)")
            try expectFrames(app, w, h, after: resized)
        }

        // Moved to the 1920x1080 monitor and fullscreen there (F11 on the monitor the window is on).
        _ = try desktop.run("xdotool", ["windowmove", window, "1400", "100"])
        try waitFor("the window on the second monitor", timeout: 10) { try self.geometry(desktop, window).0 >= 1280 }
        mark = app.count
        try desktop.key("F11")
        try app.wait("fullscreen on", after: mark) { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        try waitFor("the window filling the second monitor", timeout: 10) {
            let r = try self.geometry(desktop, window)
            return r == (1280, 0, 1920, 1080)
        }
        try expectPicture(desktop, in: (1280, 0, 1920, 1080), "fullscreen on the 1920x1080 monitor")
        try expectFrames(app, 1920, 1080, after: mark)
        // The window is on the subject's monitor now: the subject view cannot be shown, and says why.
        let moved = try app.wait("availability on the moved window", after: mark) {
            $0["event"] as? String == "availability" && ($0["reasons"] as? [String] ?? []).contains("subject-monitor-is-operators")
        }
        XCTAssertEqual(moved.event["shown"] as? Bool, false)

        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }

    /// Waits for the window to paint frames of `width`×`height` (the appsink's negotiated caps) copied
    /// pixel for pixel into a rectangle of the same size.
    private func expectFrames(_ app: DesktopEndToEndTests.App, _ width: Int, _ height: Int, after mark: Int) throws {
        let e = try app.wait("\(width)x\(height) frames painted 1:1", after: mark) {
            $0["event"] as? String == "operator-picture" && $0["width"] as? Int == width && $0["height"] as? Int == height
        }.event
        XCTAssertEqual(e["filter"] as? String, "copy", "\(e)")
        XCTAssertEqual(e["shownWidth"] as? Int, width, "\(e)")
        XCTAssertEqual(e["shownHeight"] as? Int, height, "\(e)")
    }

    /// The operator window's id (xdotool).
    /// (Searched again while another window vanishes under the search: xdotool's BadWindow, seen.)
    private func operatorWindow(_ desktop: VirtualDesktop) throws -> String {
        var id: String?, stderr = ""
        try? waitFor("the operator window", timeout: 10) {
            guard let r = try? desktop.run("xdotool", ["search", "--name", "^duo-capture operator$"]) else { return false }
            stderr = r.stderr
            id = r.stdout.split(separator: "\n").first.map(String.init)
            return id != nil
        }
        guard let id else { throw Failure("no operator window: \(stderr)") }
        return id
    }

    /// The window's inside on the screen: x, y, width, height (xwininfo's absolute corner and size).
    private func geometry(_ desktop: VirtualDesktop, _ window: String) throws -> (Int, Int, Int, Int) {
        let out = try desktop.run("xwininfo", ["-id", window]).stdout
        func field(_ name: String) -> Int {
            out.split(separator: "\n").first { $0.contains(name) }.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) } ?? -1
        }
        return (field("Absolute upper-left X"), field("Absolute upper-left Y"), field("Width"), field("Height"))
    }

    /// Waits until the test pattern fills `rect` (x, y, width, height) at its aspect: its six colour bars at
    /// their places across the whole width, the white bar at the left edge and the blue one at the right;
    /// then that the picture moves there (the snow differs between two screenshots).
    private func expectPicture(_ desktop: VirtualDesktop, in rect: (Int, Int, Int, Int), _ what: String) throws {
        let (x, y, w, h) = rect
        var problems: [String] = []
        let shot = try waitForScreen(desktop, "the picture filling the window (\(what))", timeout: 15) { s in
            problems = self.barProblems(s, x, y, w, h)
            return problems.isEmpty
        }
        XCTAssertEqual(problems, [], what)
        shot.keep("picture-\(w)x\(h)")
        // The snow, bottom right of the pattern, changes from frame to frame.
        let snow = (x: x + w * 80 / 100, y: y + h * 82 / 100, w: w * 15 / 100, h: h * 14 / 100)
        let moved = try waitForScreen(desktop, "the picture moving (\(what))", timeout: 10) { s in
            self.difference(s, shot, snow) > 20
        }
        XCTAssertGreaterThan(difference(moved, shot, snow), 20, "a live picture, not a frozen frame (\(what))")
    }

    private func barProblems(_ s: Screenshot, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> [String] {
        guard s.width >= x + w, s.height >= y + h else { return ["screen \(s.width)x\(s.height) too small"] }
        let expected: [(String, Bool, Bool, Bool)] = [("white", true, true, true), ("yellow", true, true, false), ("cyan", false, true, true),
                                                      ("green", false, true, false), ("magenta", true, false, true),
                                                      ("red", true, false, false), ("blue", false, false, true)]
        let row = y + h * 60 / 100
        var problems: [String] = []
        // The middle of each bar, and each outer bar right at the window's edge (no black border).
        var samples = expected.enumerated().map { (x + Int((Double($0.offset) + 0.5) * Double(w) / 7), $0.element) }
        samples.append((x + 2, expected[0]))
        samples.append((x + w - 3, expected[6]))
        for (sx, (name, r, g, b)) in samples {
            let p = s.pixel(sx, row)
            let on = { (v: Int, want: Bool) in want ? v > 120 : v < 80 }
            if !(on(p.r, r) && on(p.g, g) && on(p.b, b)) { problems.append("\(name) at \(sx),\(row): \(p)") }
        }
        // The picture's bottom edge: the bottom strip reaches the window's bottom row (16:9 fills it).
        let bottom = s.pixel(x + w / 14, y + h - 3)
        if bottom.b < 80 { problems.append("no picture at the bottom edge: \(bottom)") }
        return problems
    }

    private func difference(_ a: Screenshot, _ b: Screenshot, _ r: (x: Int, y: Int, w: Int, h: Int)) -> Double {
        var sum = 0, n = 0
        for yy in stride(from: r.y, to: r.y + r.h, by: 3) {
            for xx in stride(from: r.x, to: r.x + r.w, by: 3) {
                let p = a.pixel(xx, yy), q = b.pixel(xx, yy)
                sum += abs(p.r - q.r) + abs(p.g - q.g) + abs(p.b - q.b)
                n += 1
            }
        }
        return Double(sum) / Double(max(1, n * 3))
    }
}
