import Foundation
import XCTest

/// The operator window's on-screen controls on the real two-monitor X desktop: the pointer shows the
/// bar, its buttons send the same commands as the keys (record with its countdown, faster, reverse, next
/// marker), and it hides again 3 s after the last input, leaving the picture uncovered.
final class OperatorControlsTests: XCTestCase {
    /// duo-capture (the test hub build) on the desktop with the talk script, as DesktopEndToEndTests runs it.
    private func start(_ desktop: VirtualDesktop, _ extra: [String] = []) throws -> DesktopEndToEndTests.App {
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let p = try desktop.launch(DesktopEndToEndTests.binary.path, ["--source", "videotestsrc", "--format", "1280x720@30", "--script", script,
                                                                      "--events", events.path, "--record-dir", desktop.directory.appendingPathComponent("takes").path] + extra,
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        return DesktopEndToEndTests.App(process: p, events: events)
    }

    func testButtonsSendTheKeysCommandsAndTheBarHidesAfterThreeSeconds() throws {
        let desktop = try VirtualDesktop(test: self)
        let app = try start(desktop)
        try app.wait("frames to flow") { $0["event"] as? String == "frames" && $0["flowing"] as? Bool == true }
        try app.wait("fullscreen") { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        let clean = try waitForScreen(desktop, "the preview") { s in s.pixel(Int(4.5 * 1280 / 7), 260).r > 120 }
        XCTAssertFalse(app.all().contains { $0["event"] as? String == "controls" }, "no bar before any input")

        // Pointer motion shows the bar; every button is touch-sized.
        try desktop.pointer(moveTo: 640, 300)
        let shown = try app.wait("the control bar to show") { $0["event"] as? String == "controls" && $0["shown"] as? Bool == true }
        let buttons = try XCTUnwrap(shown.event["buttons"] as? [String: [Int]], "\(shown.event)")
        for name in ["record", "pause", "slower", "faster", "reverse", "previous", "next", "accessory", "script", "keys", "fullscreen"] {
            let r = try XCTUnwrap(buttons[name], "no \(name) button: \(buttons.keys.sorted())")
            XCTAssertGreaterThanOrEqual(r[2], 44, "\(name) is at least 44 px wide")
            XCTAssertGreaterThanOrEqual(r[3], 44, "\(name) is at least 44 px high")
            XCTAssertTrue(r[0] >= 0 && r[0] + r[2] <= 1280 && r[1] + r[3] <= 720, "\(name) on the operator monitor: \(r)")
        }
        XCTAssertNil(buttons["swap"], "one camera: no swap button")
        let record = buttons["record"]!
        // Compared left of the test pattern's noise (its bottom row from 3/4 of the width changes every
        // frame): a bar of more buttons reaches into it.
        let barArea = (x: buttons["record"]![0], y: record[1], w: min(buttons["fullscreen"]![0] + buttons["fullscreen"]![2], 1280 * 3 / 4) - record[0], h: record[3])
        let withBar = try waitForScreen(desktop, "the bar on the screen") { s in
            self.difference(s, clean, barArea) > 20
        }
        XCTAssertGreaterThan(difference(withBar, clean, barArea), 20, "the bar is drawn over the bottom of the picture")
        clean.keep("controls-before"); withBar.keep("controls-shown")

        // A user points first and clicks what is there: once the bar hid (3 s), the pointer brings it back.
        func click(_ name: String) throws {
            let rect = buttons[name]!
            try desktop.pointer(moveTo: rect[0] + rect[2] / 2, rect[1] + rect[3] / 2)
            try waitFor("the bar to be up for \(name)", timeout: 10) {
                app.all().last { $0["event"] as? String == "controls" }?["shown"] as? Bool == true
            }
            try desktop.click(rect)
        }

        // Record: the countdown, then the take; the command came from the button.
        var mark = app.count
        try click("record")
        try app.wait("toggle from the button", after: mark) { $0["event"] as? String == "command" && $0["cmd"] as? String == "toggle" && $0["source"] as? String == "button" }
        try app.wait("the countdown", after: mark) { $0["event"] as? String == "countdown" }
        try app.wait("the take", after: mark, timeout: 20) { $0["event"] as? String == "take-started" }
        let moving = try app.wait("the script to scroll", after: mark) { $0["event"] as? String == "status" && ($0["position"] as? Double ?? 0) > 1 }

        // The HUD is composed into the picture (issue 36) and looks as it did drawn over it: the REC line in
        // red in its panel at the top left, the safe frame's white border on the picture's edge, and the
        // panel drawn again when what it says changes (the REC clock turning each second).
        let panel = (x: 0, y: 0, w: 640, h: 120)
        let recording = try waitForScreen(desktop, "the REC line on the HUD") { s in self.redPixels(s, panel) > 30 }
        recording.keep("controls-recording")
        XCTAssertGreaterThan(redPixels(recording, panel), 30, "the REC line, red")
        let border = recording.pixel(1, 650), inside = recording.pixel(12, 650)   // over the dark blue bar
        XCTAssertGreaterThan(border.r, inside.r + 25, "the safe frame's white line on the picture's left edge: \(border) vs \(inside)")
        let turned = try waitForScreen(desktop, "the REC clock to turn") { s in self.difference(s, recording, panel) > 0.5 }
        turned.keep("controls-clock-turned")
        XCTAssertGreaterThan(difference(turned, recording, panel), 0.5, "the panel follows what it says")

        // Faster: the speed goes up, as with the Up key.
        mark = app.count
        try click("faster")
        try app.wait("speed from the button", after: mark) { $0["event"] as? String == "command" && $0["cmd"] as? String == "speed" && $0["source"] as? String == "button" }
        let faster = try app.wait("a faster speed", after: mark) { $0["event"] as? String == "status" && $0["trigger"] as? String == "command" }
        XCTAssertNotEqual(faster.event["speed"] as? String, moving.event["speed"] as? String)

        // Reverse: the script scrolls back.
        mark = app.count
        try click("reverse")
        let reversed = try app.wait("reverse from the button", after: mark) { $0["event"] as? String == "command" && $0["cmd"] as? String == "reverse" && $0["source"] as? String == "button" }
        let r1 = try app.wait("a status after reversing", after: reversed.index) { $0["event"] as? String == "status" }
        let r2 = try app.wait("the script to scroll back", after: r1.index + 1) {
            $0["event"] as? String == "status" && ($0["position"] as? Double ?? .infinity) < (r1.event["position"] as? Double ?? 0) - 0.5
        }
        XCTAssertEqual(r2.event["recording"] as? Bool, true)

        // Next marker: the position jumps forward to the next heading.
        mark = app.count
        let clickedAt = Date()
        try click("next")
        try app.wait("jump from the button", after: mark) { $0["event"] as? String == "command" && $0["cmd"] as? String == "jump" && $0["source"] as? String == "button" }
        let jumped = try app.wait("the status after the jump", after: mark) { $0["event"] as? String == "status" && $0["trigger"] as? String == "command" }
        XCTAssertGreaterThan(jumped.event["position"] as? Double ?? 0, (r2.event["position"] as? Double ?? 0) + 1, "the next marker is ahead")

        // No input for 3 s: the bar hides, and the picture is whole again where it was.
        let hidden = try app.wait("the bar to hide", after: mark, timeout: 10) { $0["event"] as? String == "controls" && $0["shown"] as? Bool == false }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(clickedAt), 2.95, "hidden only after 3 s without input")
        XCTAssertEqual((hidden.event["buttons"] as? [String: Any])?.count, 0)
        let after = try waitForScreen(desktop, "the bar gone from the screen") { s in self.difference(s, clean, barArea) < 8 }
        XCTAssertLessThan(difference(after, clean, barArea), 8, "nothing covers the picture once hidden")
        after.keep("controls-hidden")

        // The keys: 3 is preset 3 (160 wpm), R reverses.
        mark = app.count
        try desktop.key("3")
        let preset = try app.wait("preset 3", after: mark) { $0["event"] as? String == "status" && $0["trigger"] as? String == "command" }
        XCTAssertEqual(preset.event["speed"] as? String, "160 wpm")
        mark = app.count
        try desktop.key("r")
        try app.wait("reverse from R", after: mark) { $0["event"] as? String == "command" && $0["cmd"] as? String == "reverse" && $0["source"] as? String == "key" }

        try desktop.key("q")
        try waitFor("duo-capture to exit", timeout: 30) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }

    /// Pixels of the HUD's live (red) tone in a region: the REC line.
    private func redPixels(_ s: Screenshot, _ r: (x: Int, y: Int, w: Int, h: Int)) -> Int {
        var n = 0
        for y in r.y..<(r.y + r.h) {
            for x in r.x..<(r.x + r.w) {
                let p = s.pixel(x, y)
                if p.r > 200 && p.g < 130 && p.b < 130 { n += 1 }
            }
        }
        return n
    }

    /// Mean absolute RGB difference of two screenshots over a region (sampled every 4 pixels).
    private func difference(_ a: Screenshot, _ b: Screenshot, _ r: (x: Int, y: Int, w: Int, h: Int)) -> Double {
        var sum = 0, n = 0
        for y in stride(from: r.y, to: r.y + r.h, by: 4) {
            for x in stride(from: r.x, to: r.x + r.w, by: 4) {
                let p = a.pixel(x, y), q = b.pixel(x, y)
                sum += abs(p.r - q.r) + abs(p.g - q.g) + abs(p.b - q.b)
                n += 1
            }
        }
        return Double(sum) / Double(max(1, n * 3))
    }
}

extension VirtualDesktop {
    /// Moves the pointer (XTEST), as a user's mouse does.
    func pointer(moveTo x: Int, _ y: Int) throws {
        let r = try run("xdotool", ["mousemove", "\(x)", "\(y)"])
        guard r.status == 0 else { throw Failure("xdotool mousemove failed: \(r.stderr)") }
    }

    /// Moves the pointer to the middle of `rect` (`[x, y, width, height]`) and clicks the left button.
    func click(_ rect: [Int]) throws {
        let r = try run("xdotool", ["mousemove", "\(rect[0] + rect[2] / 2)", "\(rect[1] + rect[3] / 2)", "click", "1"])
        guard r.status == 0 else { throw Failure("xdotool click failed: \(r.stderr)") }
    }
}

extension Screenshot {
    /// Writes the screenshot as `DUO_TEST_SHOTS/<name>.ppm` when that variable names a folder (to look
    /// at what a test saw); does nothing otherwise.
    func keep(_ name: String) {
        guard let folder = ProcessInfo.processInfo.environment["DUO_TEST_SHOTS"] else { return }
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: rgb)
        try? data.write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name).ppm"))
    }
}
