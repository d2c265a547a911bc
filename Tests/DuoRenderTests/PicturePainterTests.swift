import DuoCore
@testable import DuoRender
import XCTest

/// The operator picture painted by the window: where the layout puts it, scaled to it, black around it.
final class PicturePainterTests: XCTestCase {
    /// A 16x9 BGRx picture of one colour painted into a 64x64 area: letterboxed, centred, filled.
    func testPictureFillsItsLayoutAndBlackSurroundsIt() {
        var bytes = [UInt8](repeating: 0, count: 16 * 9 * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) { bytes[i] = 40; bytes[i + 1] = 200; bytes[i + 2] = 250 }  // B, G, R
        let image = CairoImage(width: 64, height: 64)
        image.draw { cr in
            bytes.withUnsafeBytes { raw in
                let picture = PictureBytes(base: raw.baseAddress!, width: 16, height: 9, stride: 64, time: 0)
                var hud = HudModel()
                hud.videoWidth = 16; hud.videoHeight = 9
                let layout = hud.previewRect(width: 64, height: 64)
                PicturePainter.paint(picture, cr: cr, width: 64, height: 64, scale: 1, into: layout)
            }
        }
        func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let p = image.pixels + y * image.stride + x * 4
            return (Int(p[2]), Int(p[1]), Int(p[0]))
        }
        // 16:9 in 64x64: 64x36 at y 14.
        XCTAssertEqual(pixel(32, 32).0, 250, "the picture, stretched to its layout")
        XCTAssertEqual(pixel(2, 16).1, 200)
        XCTAssertEqual(pixel(61, 48).1, 200)
        XCTAssertEqual(pixel(32, 4).0, 0, "black above")
        XCTAssertEqual(pixel(32, 60).0, 0, "black below")
    }

    /// A camera smaller than the window is painted up from its own pixels (nearest: each output pixel is
    /// one of the picture's, never a blend), and a picture within 2 pixels of its layout (the graph's even
    /// rounding) is copied 1:1, centred, black around it, rather than stretched.
    func testSmallerPicturesArePaintedUpWithoutBlendingAndNearFitsAreCopied() {
        // A 4x2 checker of two colours, painted 3x into 12x6 (layout 12x6 of 12x6).
        let checker = picture(width: 4, height: 2) { x, y in (x + y) % 2 == 0 ? 240 : 20 }
        let up = paint(checker, width: 4, area: (12, 6), layout: FrameRect(x: 0, y: 0, width: 12, height: 6))
        for y in 0..<6 { for x in 0..<12 {
            XCTAssertEqual(up(x, y), (x / 3 + y / 3) % 2 == 0 ? 240 : 20, "pixel \(x),\(y): the picture's own value, no blend")
        } }
        // 1.5x: an 8x4 checker into 12x6: every pixel still one of the picture's two values.
        let fine = picture(width: 8, height: 4) { x, y in (x + y) % 2 == 0 ? 240 : 20 }
        let half = paint(fine, width: 8, area: (12, 6), layout: FrameRect(x: 0, y: 0, width: 12, height: 6))
        for y in 0..<6 { for x in 0..<12 { XCTAssertTrue([240, 20].contains(half(x, y)), "pixel \(x),\(y): \(half(x, y))") } }

        // A 62x34 gradient laid out as 64x36 at 0,14 of 64x64: copied at 1,15 exactly, black in the gap.
        let ramp = picture(width: 62, height: 34) { x, y in UInt8((x * 3 + y) % 256) }
        let near = paint(ramp, width: 62, area: (64, 64), layout: FrameRect(x: 0, y: 14, width: 64, height: 36))
        for (x, y) in [(0, 0), (61, 0), (0, 33), (61, 33), (30, 17)] {
            XCTAssertEqual(near(x + 1, y + 15), UInt8((x * 3 + y) % 256), "pixel \(x),\(y) copied 1:1")
        }
        XCTAssertEqual(near(0, 30), 0, "black left of the copied picture")
        XCTAssertEqual(near(63, 30), 0, "black right of it")
    }

    private func picture(width: Int, height: Int, _ value: (Int, Int) -> UInt8) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height { for x in 0..<width { for c in 0..<3 { bytes[(y * width + x) * 4 + c] = value(x, y) } } }
        return bytes
    }

    /// Paints a picture `width` pixels wide (4 bytes a pixel) into `layout` of `area`; returns a reader of
    /// the green channel.
    private func paint(_ bytes: [UInt8], width: Int, area: (Int, Int), layout: FrameRect) -> (Int, Int) -> UInt8 {
        let height = bytes.count / 4 / width
        let image = CairoImage(width: area.0, height: area.1)
        image.draw { cr in
            bytes.withUnsafeBytes { raw in
                let p = PictureBytes(base: raw.baseAddress!, width: width, height: height, stride: width * 4, time: 0)
                PicturePainter.paint(p, cr: cr, width: Double(area.0), height: Double(area.1), scale: 1, into: layout)
            }
        }
        return { x, y in (image.pixels + y * image.stride + x * 4)[1] }
    }
}
