import Foundation
@testable import DuoRender

/// Tesseract's reading of a box of a rendered frame (issue 37's OCR checks): the box's brightest channel,
/// inverted to dark text on light (what tesseract reads best), written as a PGM, read as one block.
enum RenderOCR {
    static func read(_ image: CairoImage, box: (x: Int, y: Int, width: Int, height: Int), singleLine: Bool = false) throws -> String {
        let x0 = max(0, box.x), y0 = max(0, box.y)
        let x1 = min(image.width, box.x + box.width), y1 = min(image.height, box.y + box.height)
        var pgm = Array("P5\n\(x1 - x0) \(y1 - y0)\n255\n".utf8)
        for y in y0..<y1 {
            let row = image.pixels + y * image.stride
            for x in x0..<x1 { pgm.append(255 - max(row[x * 4], row[x * 4 + 1], row[x * 4 + 2])) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("duo-render-ocr-\(UUID().uuidString).pgm").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        FileManager.default.createFile(atPath: path, contents: Data(pgm))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["tesseract", path, "-", "--psm", singleLine ? "7" : "6"]
        // One OpenMP thread: tesseract's spinning threads double its time on a loaded machine; same text.
        p.environment = ProcessInfo.processInfo.environment.merging(["OMP_THREAD_LIMIT": "1"]) { old, _ in old }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
    }
}
