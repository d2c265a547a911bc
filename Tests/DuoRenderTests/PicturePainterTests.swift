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
}
