import Foundation
import XCTest
import DuoCore
@testable import DuoRender

/// The framing hint on the subject view: it reaches the subject only through the whitelisted view model
/// (a closed set of fixed words), it is drawn, and never over the reading line or the text panel.
final class FramingHintViewTests: XCTestCase {
    private static let sentinel = "SENTINEL-PRIVATE-9c1d"

    private func session(hints: [PersonHint], accessory: AccessoryKind = .teleprompter) throws -> PrompterSessionState {
        let text = try String(contentsOfFile: Checkout.path("Assets/scripts/talk.md"), encoding: .utf8)
        let script = try ScriptParser.parse(bytes: Array(text.utf8), format: .markdown, name: "talk.md")
        var scroll = ScrollModel(length: Double(script.subject.wordCount), speed: .wordsPerMinute(160))
        scroll.start(at: 0)
        var s = PrompterSessionState(accessory: accessory, script: script, scroll: scroll, recordingStartedAt: 0, aspect: AspectRatio(16, 9))
        s.framingHints = hints
        return s
    }

    private static let interview = [PersonHint(person: .left, hint: .moveRight), PersonHint(person: .right, hint: .stepBack)]

    func testTheHintComesOnlyThroughTheWhitelist() throws {
        for hints in [[PersonHint(person: nil, hint: .moveLeft)], Self.interview, [PersonHint(person: nil, hint: .noOne)]] {
            let plain = try session(hints: hints)
            var secret = plain
            let x = Self.sentinel
            secret.scriptPath = "/home/\(x)/talk.md"; secret.takeFilePath = "/media/\(x)/take.mkv"
            secret.cameraDeviceName = "\(x) webcam"; secret.hostName = x; secret.userName = x
            secret.lastError = "\(x) failed"; secret.statsLine = x; secret.droppedFrames = 4242
            let a = SubjectViewModel.whitelisted(from: plain), b = SubjectViewModel.whitelisted(from: secret)
            XCTAssertEqual(a, b)
            XCTAssertEqual(a.framingHints, hints, "the hint is copied")
            XCTAssertFalse(String(describing: b).contains(x))
            for (w, h) in [(640, 360), (1920, 1080)] {
                XCTAssertTrue(SubjectRenderer.render(a, at: 2_000_000_000, width: w, height: h).packedBytes()
                              == SubjectRenderer.render(b, at: 2_000_000_000, width: w, height: h).packedBytes(), "\(hints) \(w)x\(h)")
            }
        }
        // The accessory off shows nothing, hints included.
        XCTAssertEqual(SubjectViewModel.whitelisted(from: try session(hints: Self.interview, accessory: .off)).framingHints, [])
    }

    func testTheHintIsDrawnAndChangesTheFrame() throws {
        let none = SubjectViewModel.whitelisted(from: try session(hints: []))
        let left = SubjectViewModel.whitelisted(from: try session(hints: [PersonHint(person: nil, hint: .moveLeft)]))
        let right = SubjectViewModel.whitelisted(from: try session(hints: [PersonHint(person: nil, hint: .moveRight)]))
        let frames = [none, left, right].map { SubjectRenderer.render($0, at: 2_000_000_000, width: 640, height: 360).packedBytes() }
        XCTAssertFalse(frames[0] == frames[1], "a hint is drawn")
        XCTAssertFalse(frames[1] == frames[2], "each hint draws its own words")
    }

    func testTheHintIsNeverOverTheReadingLine() throws {
        let webcam = try DisplayProfile.load(path: Checkout.path("Assets/displays/webcam-top-centre.json"))
        for hints in [[PersonHint(person: nil, hint: .noOne)], Self.interview] {
            for profile in [DisplayProfile.plain, webcam] {
                for mirror in [MirrorFlags.none, MirrorFlags(horizontal: true, vertical: true)] {
                    var state = try session(hints: hints)
                    state.mirror = mirror
                    let vm = SubjectViewModel.whitelisted(from: state)
                    for (w, h) in [(640, 360), (1920, 1080), (1080, 1920), (3840, 2160)] {
                        let scene = SubjectScene(viewModel: vm, width: w, height: h, profile: profile, format: .argb)
                        let label = try XCTUnwrap(scene.framingHintLabel)
                        let placed = scene.items(at: 2_000_000_000).compactMap { item -> (x: Int, y: Int)? in
                            if case .sprite(let image, let x, let y) = item, image === label { return (x, y) }
                            return nil
                        }
                        let where_ = "\(hints.map(\.text)) \(w)x\(h) mirror \(mirror)"
                        XCTAssertEqual(placed.count, 1, where_)
                        guard let p = placed.first, let panel = scene.panelRectangle else { continue }
                        // On the monitor, whole.
                        XCTAssertTrue(p.x >= 0 && p.y >= 0 && p.x + label.width <= w && p.y + label.height <= h, where_)
                        // Never over the reading line nor the two lines either side of it: the text fills the
                        // monitor, and the hint sits over the lines faded out at its far edge.
                        let lh = try XCTUnwrap(scene.strip?.layout.lineHeight)
                        let reading = mirror.vertical ? Double(h) - scene.geometry.readingLineY : scene.geometry.readingLineY
                        let apart = Double(p.x + label.width) <= Double(panel.x) || Double(panel.x + panel.width) <= Double(p.x)
                            || Double(p.y + label.height) <= reading - 2.6 * lh || reading + 2.6 * lh <= Double(p.y)
                        XCTAssertTrue(apart, "\(where_): hint at \(p) \(label.width)x\(label.height) near the reading line at \(reading)")
                        // Nor over the recording light and its clock (the other sprites).
                        for item in scene.items(at: 2_000_000_000) {
                            guard case .sprite(let image, let x, let y) = item, image !== label else { continue }
                            let clear = p.x + label.width <= x || x + image.width <= p.x || p.y + label.height <= y || y + image.height <= p.y
                            XCTAssertTrue(clear, "\(where_): hint at \(p) over a sprite at \(x),\(y)")
                        }
                    }
                }
            }
        }
    }
}

/// The operator HUD draws the face the detector found as a box over the preview, where the preview shows
/// it (mirrored with it).
final class FramingHudDrawingTests: XCTestCase {
    func testTheFaceBoxIsDrawnOverTheFace() {
        var hud = HudModel()
        hud.videoWidth = 1280
        hud.videoHeight = 720
        hud.framing = "single"
        hud.framingHint = "move right"
        hud.faces = [FaceBox(x: 0.6, y: 0.5, width: 0.2, height: 0.3)]
        func bright(_ image: CairoImage, _ x: Int, _ y: Int) -> Bool {
            let bytes = image.packedBytes(), i = (y * image.width + x) * 4
            // Anywhere near the stroke (2 px wide, centred on the edge).
            return (-1...1).contains { dx in
                let j = i + dx * 4
                return max(bytes[j], bytes[j + 1], bytes[j + 2]) > 200
            }
        }
        let plain = HudRenderer.image(hud, width: 1280, height: 720)
        XCTAssertTrue(bright(plain, 768, 468), "the box's left edge at x 768")
        XCTAssertTrue(bright(plain, 1024, 468), "its right edge at x 1024")
        XCTAssertFalse(bright(plain, 896, 468), "not filled")
        XCTAssertFalse(bright(plain, 256, 468), "nothing on the other side")
        hud.previewMirrored = true
        let mirrored = HudRenderer.image(hud, width: 1280, height: 720)
        XCTAssertTrue(bright(mirrored, 256, 468), "mirrored: the box's left edge at x 256")
        XCTAssertFalse(bright(mirrored, 768, 468))
    }
}
