@testable import DuoCLI
import DuoCore
import DuoPlatform
import Foundation
import XCTest

/// `--screen [MONITOR]` and `--screen-rate FPS` as the command line and the settings file give them: the
/// monitor may be left out, on the command line and in the file (`screen = true` or `screen = 1`).
final class ScreenOptionTests: XCTestCase {
    func testTheMonitorMayBeLeftOut() throws {
        let bare = try Options.parse(["--screen", "--record"])
        XCTAssertTrue(bare.screen)
        XCTAssertNil(bare.screenMonitor)
        XCTAssertTrue(bare.record, "the next option is not taken for a monitor")
        XCTAssertEqual(try Options.parse(["--screen", "DP-2"]).screenMonitor, "DP-2")
        XCTAssertEqual(try Options.parse(["--screen=1"]).screenMonitor, "1")
        XCTAssertFalse(try Options.parse([]).screen)
        XCTAssertEqual(try Options.parse(["--screen-rate", "10"]).screenRate, 10)
        XCTAssertEqual(try Options.parse([]).screenRate, 15)
        for bad in ["0", "61", "7.5", "x"] {
            XCTAssertThrowsError(try Options.parse(["--screen-rate", bad]), bad) { error in
                XCTAssertTrue((error as? DuoError)?.message.contains("--screen-rate") ?? false, "\(error)")
            }
        }
    }

    func testTheSettingsFileTakesASwitchOrAMonitor() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-screen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func applied(_ text: String) throws -> [String] {
            let path = dir.appendingPathComponent("duo-capture.conf").path
            try "[duo-capture]\n\(text)\n".write(toFile: path, atomically: true, encoding: .utf8)
            return try SettingsDefaults.apply(["--headless"], file: try SettingsFile.load(path)).arguments
        }
        XCTAssertTrue(try applied("screen = 1").contains { $0 == "1" })
        XCTAssertEqual(try Options.parse(try applied("screen = 1")).screenMonitor, "1")
        let on = try Options.parse(try applied("screen = true"))
        XCTAssertTrue(on.screen)
        XCTAssertNil(on.screenMonitor)
        XCTAssertFalse(try Options.parse(try applied("screen = false")).screen)
    }
}
