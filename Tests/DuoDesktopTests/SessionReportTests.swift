import Foundation
import XCTest

/// `duo-capture report DIR` opened in headless Chromium: the page shows each take's thumbnails (the test
/// source's colour bars), the audio level plot (its green line) and a take that does not decode as damaged
/// (the red banner), read from a screenshot of the page.
final class SessionReportTests: XCTestCase {
    func testTheReportShowsThumbnailsTheLevelPlotAndADamagedTake() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let env = ProcessInfo.processInfo.environment.filter { $0.key != "DISPLAY" }
        let binary = DesktopEndToEndTests.binary.path
        let take = try runTool(binary, ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "test", "--record",
                                        "--countdown", "0", "--duration", "2", "--record-dir", dir, "--quiet"], environment: env)
        XCTAssertEqual(take.status, 0, take.stderr)
        // A take cut short by a crash of the disk: a few kilobytes of a Matroska header.
        let good = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".mkv") })
        try Data(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(good)")).prefix(3000)).write(to: URL(fileURLWithPath: "\(dir)/cut-short.mkv"))
        let report = try runTool(binary, ["report", dir], environment: env)
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertEqual(report.stdout, "\(dir)/report.html: 2 takes, 1 damaged\n")
        let html = try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "self-contained: nothing from the network")

        let png = "\(dir)/page.png"
        let shot = try runTool("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1100,900",
                                            "--screenshot=\(png)", "file://\(dir)/report.html"], environment: env)
        XCTAssertEqual(shot.status, 0, shot.stderr)
        let ppm = try runTool("convert", [png, "-depth", "8", "ppm:-"], environment: env, binary: true)
        XCTAssertEqual(ppm.status, 0, ppm.stderr)
        let page = try Screenshot(ppm: ppm.data)
        var yellow = 0, green = 0, red = 0
        for y in stride(from: 0, to: page.height, by: 2) {
            for x in stride(from: 0, to: page.width, by: 2) {
                let p = page.pixel(x, y)
                if p.r > 200, p.g > 200, p.b < 60 { yellow += 1 }                       // the bars' yellow: thumbnails
                if p.r < 60, p.g > 150, p.g < 220, p.b < 60 { green += 1 }              // the level plot's line
                if p.r > 180, p.g < 40, p.b < 40 { red += 1 }                           // the damaged banner
            }
        }
        XCTAssertGreaterThan(yellow, 1000, "thumbnails on the page")
        XCTAssertGreaterThan(green, 100, "the audio level plot on the page")
        XCTAssertGreaterThan(red, 2000, "the damaged take's banner on the page")
        XCTAssertTrue(html.contains("damaged: "), "the damaged take is listed with its reason")
    }
}
