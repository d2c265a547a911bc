import Foundation
import XCTest
import DuoCore
@testable import DuoRender

/// Paths into the checkout, found from this file (tests never read /work/shared).
enum Checkout {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
}

/// How far two frames differ: the share of pixels whose largest channel difference exceeds `threshold`,
/// and the mean absolute channel difference.
struct FrameDifference {
    let differingPixelShare: Double
    let meanAbsoluteDifference: Double

    init(_ a: [UInt8], _ b: [UInt8], threshold: Int = 40) {
        precondition(a.count == b.count)
        var differing = 0, total = 0
        var i = 0
        while i < a.count {
            var worst = 0
            for c in 0..<4 {
                let d = abs(Int(a[i + c]) - Int(b[i + c]))
                total += d
                worst = max(worst, d)
            }
            if worst > threshold { differing += 1 }
            i += 4
        }
        differingPixelShare = Double(differing) / Double(a.count / 4)
        meanAbsoluteDifference = Double(total) / Double(a.count)
    }

    /// The tolerance: antialiasing may move a few edge pixels (other FreeType or Pango builds), but a line
    /// of text in the wrong place, a missing glyph or a wrong colour breaks it.
    var isWithinTolerance: Bool { differingPixelShare <= 0.002 && meanAbsoluteDifference <= 0.5 }
}

/// Compares `image` with `Golden/<name>.png`. `DUO_UPDATE_GOLDENS=1` rewrites the golden instead.
func assertMatchesGolden(_ image: CairoImage, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let golden = Checkout.goldens.appendingPathComponent("\(name).png").path
    if ProcessInfo.processInfo.environment["DUO_UPDATE_GOLDENS"] == "1" {
        try FileManager.default.createDirectory(at: Checkout.goldens, withIntermediateDirectories: true)
        try image.writePNG(to: golden)
        return
    }
    guard FileManager.default.fileExists(atPath: golden) else {
        XCTFail("no golden \(golden); run DUO_UPDATE_GOLDENS=1 swift test --filter GoldenImageTests and review the PNGs", file: file, line: line)
        return
    }
    let expected = try CairoImage.readPNG(path: golden)
    guard expected.width == image.width, expected.height == image.height else {
        XCTFail("\(name): size \(image.width)x\(image.height), golden \(expected.width)x\(expected.height)", file: file, line: line)
        return
    }
    let difference = FrameDifference(image.packedBytes(), expected.packedBytes())
    if !difference.isWithinTolerance {
        let actual = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-actual.png").path
        try? image.writePNG(to: actual)
        XCTFail(String(format: "%@: %.3f%% of pixels differ, mean difference %.2f; actual frame written to %@",
                       name, difference.differingPixelShare * 100, difference.meanAbsoluteDifference, actual),
                file: file, line: line)
    }
}

/// Runs the real `render-subject` command into a temporary PNG and reads it back.
func renderSubject(_ arguments: [String]) throws -> CairoImage {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("duo-render-\(UUID().uuidString).png").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    _ = try RenderSubjectCommand.run(arguments: arguments + ["--out", out])
    return try CairoImage.readPNG(path: out)
}
