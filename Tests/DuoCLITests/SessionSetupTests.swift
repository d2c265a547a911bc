@testable import DuoCLI
import DuoCore
import DuoMedia
import XCTest

final class SessionSetupTests: XCTestCase {
    /// No camera on the machine: the simulated inner camera stands in, and the user is told in one line.
    func testWithoutACameraTheSimulatedInnerCameraStandsIn() throws {
        var notices: [String] = []
        let source = try SessionSetup.resolveCamera(.auto, notices: &notices, discover: { [] }).source
        guard case .simulated(let profile) = source else { return XCTFail("expected the simulated camera, got \(source)") }
        XCTAssertEqual(profile.id, "inner")
        XCTAssertEqual(notices, ["no camera found; using the simulated inner camera at 1280x720@30 (--camera inner --format WxH@FPS for another)"],
                       "the stand-in runs light, and says so")
    }

    /// Takes go under $HOME (not the password file's home), and an empty or relative XDG_VIDEOS_DIR is
    /// passed over: it used to record into ./duo-capture, wherever the user happened to be.
    func testTheRecordFolderComesFromHomeAndNeverFromTheCurrentFolder() throws {
        let home = try scratchDirectory(self)
        XCTAssertEqual(SessionSetup.defaultRecordDirectory(["HOME": home]), "\(home)/Videos/duo-capture")
        XCTAssertEqual(SessionSetup.defaultRecordDirectory(["HOME": home, "XDG_VIDEOS_DIR": ""]), "\(home)/Videos/duo-capture")
        XCTAssertEqual(SessionSetup.defaultRecordDirectory(["HOME": home, "XDG_VIDEOS_DIR": "Videos"]), "\(home)/Videos/duo-capture")
        XCTAssertEqual(SessionSetup.defaultRecordDirectory(["HOME": home, "XDG_VIDEOS_DIR": "/srv/films"]), "/srv/films/duo-capture")
        try FileManager.default.createDirectory(atPath: "\(home)/.config", withIntermediateDirectories: true)
        try "XDG_VIDEOS_DIR=\"$HOME/Clips\"\n".write(toFile: "\(home)/.config/user-dirs.dirs", atomically: true, encoding: .utf8)
        XCTAssertEqual(SessionSetup.defaultRecordDirectory(["HOME": home]), "\(home)/Clips/duo-capture", "user-dirs.dirs under $HOME")
        XCTAssertEqual(XDGPaths.stateHome(["HOME": home]), "\(home)/.local/state")
        XCTAssertEqual(XDGPaths.configHome(["HOME": home, "XDG_CONFIG_HOME": ""]), "\(home)/.config")
    }

    /// Cameras that are not V4L2 (no device path) do not count as "a real camera found".
    func testNonV4L2DevicesAreNotPicked() throws {
        var notices: [String] = []
        let pipewireOnly = DiscoveredCamera(name: "PipeWire camera", devicePath: nil, modes: [])
        let source = try SessionSetup.resolveCamera(.auto, notices: &notices, discover: { [pipewireOnly] }).source
        guard case .simulated = source else { return XCTFail("expected the simulated camera, got \(source)") }
        XCTAssertEqual(notices.count, 1)
    }
}
