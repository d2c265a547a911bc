import DuoCore
@testable import DuoRender
import Foundation
import XCTest

/// Issue 37: the operator HUD is a laid-out panel (state and elapsed large, take and time left, the
/// other lines, a sound meter), a confidence strip of what the subject reads with the private notes
/// inline and marked, and the key list over the picture; all scaled with the window, inside it, and
/// never over one another.
final class HudPanelTests: XCTestCase {
    private func busyHud(width: Int, height: Int) -> HudModel {
        var hud = HudModel()
        hud.videoWidth = width; hud.videoHeight = height
        hud.run.cameraLabel = "inner"
        hud.run.format = "\(width)x\(height)@30"
        hud.run.recording = true
        hud.run.takeNumber = 3
        hud.run.elapsedSeconds = 83.4
        hud.run.scriptProgress = 0.24
        hud.run.secondsLeft = 47
        hud.run.speed = "160 wpm"
        hud.run.shot = "shot 01 Opening  (1/3)  2 takes (1 good, 0 no good)"
        hud.run.notes = ["smile at the end"]
        hud.run.audioPeakDB = -12
        hud.run.confidence = [
            ConfidenceLine(text: "Thank you for joining us today.", kind: .subject(reading: false)),
            ConfidenceLine(text: "This short talk shows how duo-capture keeps", kind: .subject(reading: true)),
            ConfidenceLine(text: "wave at the camera here", kind: .privateNote),
            ConfidenceLine(text: "the camera, the operator and the person on screen", kind: .subject(reading: false)),
        ]
        return hud
    }

    private func inside(_ r: FrameRect, _ w: Int, _ h: Int) -> Bool {
        r.x >= 0 && r.y >= 0 && r.x + r.width <= Double(w) && r.y + r.height <= Double(h) && r.width > 0 && r.height > 0
    }

    private func overlap(_ a: FrameRect, _ b: FrameRect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    /// At 1280x720, 1920x1080 and 3840x2160 (and a 9:16 composition on 1920x1080, the panel then beside
    /// it): the panel, its headline and meter, and the strip lie inside the picture, the panel and the
    /// strip never overlap, and the text grows with the window (a 15 px cap would fail the 2160 check).
    func testThePanelAndStripFitAndScaleWithTheWindow() throws {
        var headlines: [Int: Double] = [:]
        for (w, h, aspect) in [(1280, 720, nil), (1920, 1080, nil), (3840, 2160, nil), (1920, 1080, AspectRatio(9, 16))] as [(Int, Int, AspectRatio?)] {
            var hud = busyHud(width: w, height: h)
            hud.aspect = aspect
            let b = HudRenderer.boxes(hud, width: w, height: h)
            let what = "\(w)x\(h) \(aspect.map { "\($0)" } ?? ""): \(b)"
            let strip = try XCTUnwrap(b.strip, what), meter = try XCTUnwrap(b.meter, what), reading = try XCTUnwrap(b.readingLine, what)
            for r in [b.panel, b.headline, strip, meter, reading] { XCTAssertTrue(inside(r, w, h), "inside the picture: \(r) in \(what)") }
            XCTAssertFalse(overlap(b.panel, strip), "the panel and the strip apart: \(what)")
            XCTAssertTrue(b.panel.x <= b.headline.x && b.headline.y + b.headline.height <= meter.y, "the headline first, the meter below: \(what)")
            XCTAssertTrue(meter.x + meter.width <= b.panel.x + b.panel.width && meter.width >= 5 * b.unit, "the meter in the panel, long enough: \(what)")
            XCTAssertTrue(strip.y <= reading.y && reading.y + reading.height <= strip.y + strip.height, what)
            if aspect == nil { headlines[h] = b.headline.height }
        }
        let small = try XCTUnwrap(headlines[720]), large = try XCTUnwrap(headlines[2160])
        XCTAssertGreaterThanOrEqual(small, 28, "the state is large at 720 lines")
        XCTAssertEqual(large / small, 3, accuracy: 0.45, "the headline scales with the window: \(headlines)")
    }

    /// The pixels: the headline is drawn red while recording, the reading line's band is lit, the private
    /// note is amber, and the key list, when asked for, is a card inside the picture over both.
    func testTheHeadlineStripAndKeyListAreDrawnWhereTheBoxesSay() throws {
        for (w, h) in [(1280, 720), (3840, 2160)] {
            var hud = busyHud(width: w, height: h)
            let image = HudRenderer.image(hud, width: w, height: h)
            if let dir = ProcessInfo.processInfo.environment["DUO_HUD_PNG"] { try image.writePNG(to: "\(dir)/hud-panel-\(w).png") }
            let b = HudRenderer.boxes(hud, width: w, height: h)
            let bytes = image.packedBytes()   // Cairo's ARGB32 in memory: B, G, R, A
            func count(_ r: FrameRect, _ test: (UInt8, UInt8, UInt8) -> Bool) -> Int {
                var n = 0
                for y in Int(r.y)..<Int(r.y + r.height) { for x in Int(r.x)..<Int(r.x + r.width) {
                    let i = (y * w + x) * 4
                    if test(bytes[i + 2], bytes[i + 1], bytes[i]) { n += 1 }
                } }
                return n
            }
            let red = count(b.headline) { r, g, bl in r > 200 && g < 110 && bl < 110 }
            XCTAssertGreaterThan(red, Int(b.headline.height * b.headline.height / 4), "● REC drawn red at \(w)x\(h)")
            let strip = try XCTUnwrap(b.strip), reading = try XCTUnwrap(b.readingLine)
            let amber = count(strip) { r, g, bl in r > 200 && g > 150 && g < 230 && bl < 110 }
            XCTAssertGreaterThan(amber, 100, "the private note is marked amber at \(w)x\(h)")
            XCTAssertEqual(count(reading) { r, g, bl in r > 200 && g > 150 && g < 230 && bl < 110 }, 0, "the reading line is not the note")
            XCTAssertGreaterThan(count(reading) { r, g, bl in min(r, g, bl) > 230 }, 50, "the reading line's words are white at \(w)x\(h)")

            hud.keyHelp = [KeyHelp(key: "Space", does: "record / stop"), KeyHelp(key: "?", does: "this key list on / off")]
                + (1...20).map { KeyHelp(key: "K\($0)", does: "does thing number \($0) of the twenty") }
            let keys = try XCTUnwrap(HudRenderer.boxes(hud, width: w, height: h).keys)
            XCTAssertTrue(inside(keys, w, h), "the key list fits at \(w)x\(h): \(keys)")
            XCTAssertGreaterThan(keys.height, Double(h) / 3, "the key list is large enough to read")
        }
    }

    /// The panel's facts: the state large with the elapsed time, take and time left under it, the
    /// standby line names the ? key, and a saved take's file shows for a few seconds, then goes.
    func testThePanelSaysTheStateTakeAndSavedFile() {
        var hud = busyHud(width: 1280, height: 720)
        XCTAssertEqual(hud.panel.headline.text, "● REC  1:23")
        XCTAssertEqual(hud.panel.facts, "take 3  ·  0:47 left")
        hud.run.recording = false
        XCTAssertEqual(hud.panel.headline.text, "STANDBY")
        XCTAssertTrue(hud.panel.facts.contains("? keys"), hud.panel.facts)
        XCTAssertTrue(hud.lines[0].contains("? keys"), hud.lines[0])

        let second: Int64 = 1_000_000_000
        var notice = TakeFileNotice()
        notice.ended(path: "/home/me/Videos/duo-capture/take-20261202-031500-003.mkv", at: 100 * second)
        XCTAssertEqual(notice.file(at: 100 * second), "take-20261202-031500-003.mkv")
        XCTAssertEqual(notice.file(at: 109 * second), "take-20261202-031500-003.mkv", "still there after 9 s")
        XCTAssertNil(notice.file(at: 100 * second + TakeFileNotice.duration), "gone after its time")
        notice.ended(path: "take-004.mkv", at: 200 * second)
        notice.takeStarted()
        XCTAssertNil(notice.file(at: 201 * second), "the next take clears it")
        hud.run.takeFile = "take-004.mkv"
        XCTAssertTrue(hud.panel.rows.contains { $0.text == "saved take-004.mkv" && $0.tone == .attention }, "\(hud.lines)")
        XCTAssertFalse(hud.privateItemsHidden.lines.contains { $0.contains("take-004") }, "a file name is private")
        XCTAssertTrue(hud.privateItemsHidden.run.confidence.isEmpty, "the strip and its notes are private")
    }
}
