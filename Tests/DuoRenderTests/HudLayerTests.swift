import CCairo
import DuoCore
@testable import DuoRender
import XCTest

/// The operator HUD drawn client-side once per change (HudLayer) and composed over each frame by the
/// picture painter: drawn only when what it shows changes, and the composed picture the same as the HUD
/// drawn straight over the frame (what the operator saw before).
final class HudLayerTests: XCTestCase {
    private func recordingHud(width: Int = 1280, height: Int = 720) -> HudModel {
        var hud = HudModel()
        hud.videoWidth = width; hud.videoHeight = height
        hud.run.recording = true
        hud.run.takeNumber = 3
        hud.run.cameraLabel = "inner"
        hud.run.format = "\(width)x\(height)@30"
        hud.run.notes = ["smile at the end"]
        return hud
    }

    /// A take's frames at 30 fps on a manual clock, each handing the window the HUD as the run has it
    /// then (its elapsed time moving every frame): the layer is drawn once for the first second's frames
    /// and once more when the REC clock turns to the next second; a window of another size draws it anew.
    func testTheLayerIsDrawnWhenTheClockTurnsNotEveryFrame() {
        let clock = ManualClock(12_400_000_000)   // 12.4 s into the take
        let layer = HudLayer()
        var hud = recordingHud()
        var drawsAtSecondStart: [Int] = []
        for frame in 0..<60 {
            hud.run.elapsedSeconds = Double(clock.now()) / 1e9
            hud.run.cameraDropped = Int64(frame / 45)   // one dropped frame, shown, at 13.9 s
            if frame % 30 == 0 { drawsAtSecondStart.append(layer.draws) }
            layer.update(HudLayer.Content(hud: hud, link: nil, width: 1920, height: 1080, scale: 1))
            clock.advance(byNanoseconds: 33_333_333)
        }
        // 12.4 s … 14.37 s: the clock shows 0:12, 0:13, 0:14; the dropped-frame line appears once.
        XCTAssertEqual(drawsAtSecondStart, [0, 2], "drawn at 0:12 and 0:13 in the first 30 frames")
        XCTAssertEqual(layer.draws, 4, "0:12, 0:13, the dropped frame, 0:14 — and not one draw per frame")
        XCTAssertFalse(layer.update(HudLayer.Content(hud: hud, link: nil, width: 1920, height: 1080, scale: 1)), "nothing changed")
        XCTAssertTrue(layer.update(HudLayer.Content(hud: hud, link: nil, width: 1280, height: 720, scale: 1)), "another size")
        XCTAssertEqual(layer.draws, 5)
    }

    /// The picture with the layer composed over it (in the boxes the layer covers) is, pixel for pixel,
    /// the picture with the HUD drawn straight over it — at several sizes, aspects, scales, with faces,
    /// the pairing card, and a picture smaller than its area (the panel then partly over the black).
    func testComposedPictureEqualsTheHudDrawnOverTheFrame() throws {
        let cases: [(area: (Int, Int), picture: (Int, Int), aspect: AspectRatio?, scale: Int, link: Bool)] = [
            ((640, 360), (640, 360), nil, 1, false),
            ((960, 540), (960, 540), AspectRatio(9, 16), 1, false),
            ((683, 384), (512, 288), nil, 1, true),
            ((600, 450), (1200, 676), AspectRatio(1, 1), 2, false),
        ]
        for c in cases {
            var hud = recordingHud(width: c.picture.0, height: c.picture.1)
            hud.aspect = c.aspect
            hud.run.faces = [FaceBox(x: 0.4, y: 0.3, width: 0.2, height: 0.3)]
            hud.run.framingHint = "move left"
            let matrix = QRMatrix(size: 21, modules: (0..<441).map { $0 % 3 == 0 || $0 % 7 == 1 })!
            let link = c.link ? WebRemoteLinkCard(url: "http://192.168.1.20:8080/?token=abcdef", matrix: matrix) : nil
            // A picture with structure (a gradient), so a patch put in the wrong place shows.
            let (pw, ph) = c.picture
            var bytes = [UInt8](repeating: 0, count: pw * ph * 4)
            for y in 0..<ph { for x in 0..<pw {
                let i = (y * pw + x) * 4
                bytes[i] = UInt8(x * 255 / pw); bytes[i + 1] = UInt8(y * 255 / ph); bytes[i + 2] = UInt8((x + y) % 256)
            } }
            let (aw, ah) = (c.area.0 * c.scale, c.area.1 * c.scale)
            let lw = Double(c.area.0), lh = Double(c.area.1), s = Double(c.scale)
            let layer = HudLayer()
            layer.update(HudLayer.Content(hud: hud, link: link, width: aw, height: ah, scale: c.scale))
            XCTAssertFalse(layer.covered.isEmpty)
            let composed = CairoImage(width: aw, height: ah), drawnOver = CairoImage(width: aw, height: ah)
            bytes.withUnsafeBytes { raw in
                let picture = PictureBytes(base: raw.baseAddress!, width: pw, height: ph, stride: pw * 4, time: 0)
                let r = hud.previewRect(width: lw, height: lh)
                composed.draw { cr in
                    cairo_scale(cr, s, s)
                    PicturePainter.paint(picture, cr: cr, width: lw, height: lh, scale: s, into: r, overlay: layer)
                }
                drawnOver.draw { cr in
                    cairo_scale(cr, s, s)
                    PicturePainter.paint(picture, cr: cr, width: lw, height: lh, scale: s, into: r)
                    HudRenderer.draw(hud, cr: cr, width: lw, height: lh)
                    if let link { WebRemoteLinkPainter.draw(link, cr: cr, width: lw, height: lh, scale: s) }
                }
            }
            let a = composed.packedBytes(), b = drawnOver.packedBytes()
            var differing = 0, worst = 0
            for i in stride(from: 0, to: a.count, by: 4) {
                let d = (0..<3).map { abs(Int(a[i + $0]) - Int(b[i + $0])) }.max()!
                if d > 3 { differing += 1 }
                worst = max(worst, d)
            }
            XCTAssertEqual(differing, 0, "\(c.area) picture \(c.picture) scale \(c.scale): \(differing) pixels differ (worst by \(worst))")
            // And the HUD is really there: the composed picture is not the bare frame.
            let bare = CairoImage(width: aw, height: ah)
            bytes.withUnsafeBytes { raw in
                let picture = PictureBytes(base: raw.baseAddress!, width: pw, height: ph, stride: pw * 4, time: 0)
                bare.draw { cr in
                    cairo_scale(cr, s, s)
                    PicturePainter.paint(picture, cr: cr, width: lw, height: lh, scale: s, into: hud.previewRect(width: lw, height: lh))
                }
            }
            XCTAssertNotEqual(bare.packedBytes(), a, "the HUD is composed in")
        }
    }

    /// The covered boxes are few (a dashed safe frame is not hundreds of patches) and hold every visible
    /// pixel of the layer.
    func testCoveredBoxesAreFewAndHoldEveryVisiblePixel() {
        for (w, h) in [(1280, 720), (1920, 1080), (3840, 2160), (1000, 1000)] {
            let layer = HudLayer()
            var hud = recordingHud()
            hud.aspect = AspectRatio(9, 16)
            layer.update(HudLayer.Content(hud: hud, link: nil, width: w, height: h, scale: 1))
            let image = layer.image!
            XCTAssertLessThanOrEqual(layer.covered.count, 24, "\(w)x\(h): \(layer.covered.count) boxes")
            let area = layer.covered.reduce(0) { $0 + $1.width * $1.height }
            XCTAssertLessThan(Double(area), 0.35 * Double(w * h), "\(w)x\(h): the boxes cover little of the area")
            let p = image.pixels
            var outside = 0
            for y in 0..<h {
                let line = UnsafeRawPointer(p + y * image.stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w where line[x] >> 24 != 0 {
                    if !layer.covered.contains(where: { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }) { outside += 1 }
                }
            }
            XCTAssertEqual(outside, 0, "\(w)x\(h): visible pixels outside every box")
        }
    }
}
