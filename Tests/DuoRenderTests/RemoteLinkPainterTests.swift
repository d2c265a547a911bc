import DuoCore
import DuoRender
import Foundation
import XCTest

/// The pairing card's QR code: libqrencode's symbols have the sizes the standard gives for their
/// content, and the card as the operator window draws it is read back by a real decoder (zbarimg).
final class RemoteLinkPainterTests: XCTestCase {
    /// Byte mode at level M holds 14 bytes in version 1, 26 in 2, 42 in 3, 62 in 4 (ISO/IEC 18004
    /// table 7): one byte more takes the next version, 4 modules larger on each side.
    func testKnownTextsGiveTheVersionTheStandardGives() throws {
        for (bytes, version) in [(1, 1), (14, 1), (15, 2), (26, 2), (27, 3), (42, 3), (43, 4), (62, 4), (63, 5)] {
            let matrix = try QRCodeEncoder.encode(String(repeating: "a", count: bytes))
            XCTAssertEqual(matrix.version, version, "\(bytes) bytes")
            XCTAssertEqual(matrix.size, 17 + 4 * version, "\(bytes) bytes")
            XCTAssertEqual(matrix.modules.count, matrix.size * matrix.size)
        }
        // The finder pattern in the top-left corner: a dark 7×7 ring, a light ring, a dark 3×3 centre.
        let m = try QRCodeEncoder.encode("http://192.0.2.2:8080/?token=abcdefghijklmnopqrstuv")
        XCTAssertEqual((0..<7).map { m[$0, 0] }, Array(repeating: true, count: 7))
        XCTAssertEqual((1..<6).map { m[$0, 1] }, [false, false, false, false, false])
        XCTAssertEqual((2..<5).map { m[$0, 3] }, [true, true, true])
        XCTAssertFalse(m[7, 0], "the separator is light")
        XCTAssertFalse(m[-1, 0] || m[0, m.size], "outside the symbol (the quiet zone) is light")
        XCTAssertThrowsError(try QRCodeEncoder.encode(""))
        XCTAssertThrowsError(try QRCodeEncoder.encode(String(repeating: "a", count: 3000)), "more than a symbol holds")
    }

    /// The card drawn as the operator window draws it (1280×720 and a 4K window) is read back by zbarimg
    /// as the address; its modules are whole pixels, its symbol about a third of the window's height.
    func testTheDrawnCardDecodesToTheAddress() throws {
        let url = "http://192.0.2.2:41234/?token=Zq0-_vY3mW8kL2xP9rT4sU6n"
        let card = WebRemoteLinkCard(url: url, matrix: try QRCodeEncoder.encode(url))
        for (width, height) in [(1280, 720), (3840, 2160)] {
            let layout = card.layout(width: width, height: height, textHeight: 60, textWidth: 600)
            let share = Double(layout.symbol.side) / Double(height)
            XCTAssertTrue(share > 0.28 && share < 0.4, "\(width)x\(height): the symbol is \(layout.symbol.side) px high")
            XCTAssertEqual(layout.symbol.side, layout.module * (card.matrix.size + 2 * QRMatrix.quietZone))

            let png = FileManager.default.temporaryDirectory.appendingPathComponent("duo-qr-\(UUID().uuidString).png").path
            defer { try? FileManager.default.removeItem(atPath: png) }
            try WebRemoteLinkPainter.image(card, width: width, height: height).writePNG(to: png)
            if let dir = ProcessInfo.processInfo.environment["DUO_QR_PNG"] { try? FileManager.default.copyItem(atPath: png, toPath: "\(dir)/card-\(height).png") }
            XCTAssertEqual(try Self.zbarimg(png), [url], "\(width)x\(height)")
        }
        // The check can fail: the picture without the card holds no code.
        let plain = FileManager.default.temporaryDirectory.appendingPathComponent("duo-qr-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: plain) }
        try HudRenderer.image(HudModel(), width: 1280, height: 720).writePNG(to: plain)
        XCTAssertEqual(try Self.zbarimg(plain), [])
    }

    /// The QR codes zbarimg reads in a picture (Debian: zbar-tools).
    static func zbarimg(_ path: String) throws -> [String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        p.arguments = ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        // 0: found; 4: nothing found.
        guard p.terminationStatus == 0 || p.terminationStatus == 4 else { throw DuoError.runtime("zbarimg \(path) exited \(p.terminationStatus)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
