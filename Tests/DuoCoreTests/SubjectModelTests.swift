import Foundation
import XCTest
@testable import DuoCore

final class SubjectModelTests: XCTestCase {
    private func seconds(_ s: Double) -> Int64 { Int64((s * 1e9).rounded()) }

    // MARK: Countdown

    func testCountdownShowsThreeTwoOneThenEnds() throws {
        let c = Countdown.defaultValue
        XCTAssertEqual(c.seconds, 3)
        XCTAssertEqual(c.displayedValue(elapsed: 0), 3)
        XCTAssertEqual(c.displayedValue(elapsed: seconds(0.999)), 3)
        XCTAssertEqual(c.displayedValue(elapsed: seconds(1)), 2)
        XCTAssertEqual(c.displayedValue(elapsed: seconds(2.5)), 1)
        XCTAssertNil(c.displayedValue(elapsed: seconds(3)))
        XCTAssertTrue(c.hasEnded(elapsed: seconds(3)))
        XCTAssertNil(try Countdown(seconds: 0).displayedValue(elapsed: 0))
        XCTAssertEqual(try Countdown(seconds: 10).displayedValue(elapsed: 0), 10)
    }

    func testCountdownRange() {
        for bad in ["-1", "11", "three", ""] {
            XCTAssertThrowsError(try Countdown.parse(bad)) { error in
                XCTAssertEqual((error as? DuoError)?.kind, .usage)
            }
        }
    }

    // MARK: Safe frame

    func testSafeFrameSixteenNineInsideSixteenNine() {
        let s = SafeFrame(aspect: AspectRatio(16, 9), frameWidth: 1920, frameHeight: 1080)
        XCTAssertEqual(s.composition, FrameRect(x: 0, y: 0, width: 1920, height: 1080))
        XCTAssertEqual(s.actionSafe.width, 1920 * 0.93, accuracy: 1e-9)
        XCTAssertEqual(s.actionSafe.x, 1920 * 0.035, accuracy: 1e-9)
        XCTAssertEqual(s.graphicsSafe.height, 1080 * 0.9, accuracy: 1e-9)
        XCTAssertEqual(s.graphicsSafe.y, 54, accuracy: 1e-9)
    }

    func testSafeFrameNineSixteenIsACentredColumn() {
        let s = SafeFrame(aspect: AspectRatio(9, 16), frameWidth: 1920, frameHeight: 1080)
        XCTAssertEqual(s.composition.height, 1080)
        XCTAssertEqual(s.composition.width, 606) // 1080·9/16 = 607.5, kept even
        XCTAssertEqual(s.composition.midX, 960, accuracy: 1)
        XCTAssertEqual(s.actionSafe.width, 606 * 0.93, accuracy: 1e-9)
    }

    // MARK: Display profiles

    func testWebcamTopCentreMovesTextBelowTheCameraAndTheReadingLineNextToIt() throws {
        let profile = try DisplayProfile.parse(data: Data("""
            { "insets": { "top": 0, "left": 0.02, "bottom": 0.04, "right": 0.05 },
              "occlusions": [ { "kind": "camera", "x": 0.44, "y": 0, "width": 0.12, "height": 0.1 } ] }
            """.utf8))
        let g = SubjectGeometry(profile: profile, width: 1000, height: 1000, lineHeight: 50, maximumPanelWidth: 2000)
        // Insets edge by edge (not symmetric), then the top cut below the camera.
        XCTAssertEqual(g.content.minX, 20, accuracy: 1e-9)
        XCTAssertEqual(g.content.maxX, 950, accuracy: 1e-9)
        XCTAssertEqual(g.content.maxY, 960, accuracy: 1e-9)
        XCTAssertEqual(g.content.minY, 100, accuracy: 1e-9)
        XCTAssertFalse(g.occlusions.contains { $0.intersects(g.content) })
        XCTAssertFalse(g.occlusions.contains { $0.intersects(g.panel) })
        // Reading line right under the lens: the band's top two lines below the camera's bottom (the lines
        // read before it fade out toward the text's edge).
        XCTAssertEqual(g.readingLineY - 30, 100 + 2 * 50, accuracy: 1e-9)
    }

    func testCameraAtTheBottomPutsTheReadingLineAboveIt() throws {
        let profile = DisplayProfile(insets: .init(), occlusions: [.init(kind: .camera, x: 0.4, y: 0.9, width: 0.2, height: 0.1)], readingLine: nil)
        let g = SubjectGeometry(profile: profile, width: 1000, height: 1000, lineHeight: 40, maximumPanelWidth: 800)
        XCTAssertEqual(g.content.maxY, 900, accuracy: 1e-9)
        // Two lines (80 px) between the band's bottom and the camera's top, where they fade out.
        XCTAssertEqual(g.readingLineY + 24, 900 - 80, accuracy: 1e-9)
    }

    func testMirroringFlipsOcclusionsAndInsets() {
        let profile = DisplayProfile(insets: .init(top: 0.1, left: 0.2, bottom: 0, right: 0),
                                     occlusions: [.init(kind: .camera, x: 0, y: 0, width: 0.1, height: 0.1)], readingLine: nil)
        let m = profile.mirrored(MirrorFlags(horizontal: true, vertical: true))
        XCTAssertEqual(m.insets, .init(top: 0, left: 0, bottom: 0.1, right: 0.2))
        XCTAssertEqual(m.occlusions[0].x, 0.9, accuracy: 1e-9)
        XCTAssertEqual(m.occlusions[0].y, 0.9, accuracy: 1e-9)
    }

    func testBadDisplayProfilesGiveOneLineInputErrors() {
        let cases: [(String, String)] = [
            ("not json", "is not valid JSON"),
            (#"{"insets": {"top": "big"}}"#, "insets.top"),
            (#"{"insets": {"top": 0.6}}"#, "insets.top is 0.6"),
            (#"{"occlusions": [{"kind": "camera", "x": 0.9, "y": 0, "width": 0.5, "height": 0.1}]}"#, "occlusions[0]"),
            (#"{"occlusions": [{"kind": "lamp", "x": 0, "y": 0, "width": 0.1, "height": 0.1}]}"#, "kind must be camera or other"),
            (#"{"occlusions": [{"kind": "camera", "y": 0, "width": 0.1, "height": 0.1}]}"#, "missing key 'occlusions[0].x'"),
            (#"{"readingLine": 2}"#, "readingLine is 2"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try DisplayProfile.parse(data: Data(json.utf8), name: "p.json")) { error in
                let e = error as? DuoError
                XCTAssertEqual(e?.kind, .input)
                XCTAssertTrue(e?.message.contains(expected) ?? false, "\(json): \(e?.message ?? "")")
                XCTAssertFalse(e?.message.contains("\n") ?? true)
            }
        }
    }

    func testShippedProfilesParse() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for name in ["plain", "webcam-top-centre", "webcam-bottom-left"] {
            _ = try DisplayProfile.load(path: root.appendingPathComponent("Assets/displays/\(name).json").path)
        }
    }

    // MARK: Whitelist

    func testViewModelCopiesOnlyWhitelistedFields() {
        let script = ScriptParser.parse(text: "Hello [[note: private]] world", format: .plainText)
        var a = PrompterSessionState(script: script, aspect: AspectRatio(16, 9))
        a.recordingStartedAt = 0
        var b = a
        b.scriptPath = "/home/someone/secret.md"
        b.takeFilePath = "/media/take-0001.mkv"
        b.cameraDeviceName = "Logitech BRIO"
        b.hostName = "studio-host"
        b.userName = "someone"
        b.lastError = "encoder failed"
        b.droppedFrames = 42
        b.statsLine = "cpu 93%"
        b.script = ScriptParser.parse(text: "Hello [[note: a different private note]] world", format: .plainText)
        XCTAssertEqual(SubjectViewModel.whitelisted(from: a), SubjectViewModel.whitelisted(from: b))
        XCTAssertNotEqual(a.script, b.script, "the operator's notes did differ")
    }

    func testPreviewFrameOnlyReachesThePreviewKind() {
        var session = PrompterSessionState(accessory: .teleprompter, preview: PreviewFrame(width: 1, height: 1, pixels: [1, 2, 3, 255]))
        XCTAssertNil(SubjectViewModel.whitelisted(from: session).preview)
        session.accessory = .preview
        XCTAssertNotNil(SubjectViewModel.whitelisted(from: session).preview)
        session.accessory = .off
        session.recordingStartedAt = 0
        XCTAssertNil(SubjectViewModel.whitelisted(from: session).recordingElapsedSeconds(at: 5_000_000_000))
    }

    func testParsersOfOptionValues() throws {
        XCTAssertEqual(try AccessoryKind.parse("preview"), .preview)
        XCTAssertEqual(try MirrorFlags.parse("hv"), MirrorFlags(horizontal: true, vertical: true))
        XCTAssertEqual(try PromptTheme.parse("high-contrast"), .highContrast)
        XCTAssertThrowsError(try AccessoryKind.parse("banner"))
        XCTAssertThrowsError(try MirrorFlags.parse("x"))
        XCTAssertThrowsError(try PromptTheme.parse("dark"))
    }
}
