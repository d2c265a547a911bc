import DuoCore
import DuoMedia
import Foundation
import XCTest

func repositoryRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

func library() -> PipelineLibrary {
    PipelineLibrary(directory: repositoryRoot().appendingPathComponent("Pipelines").path)
}

/// A small test-source plan: size does not matter for these tests, frames do.
func smallPlan(_ format: String = "320x240@30", aspect: AspectRatio? = nil, container: ContainerChoice = .mkv,
               audio: AudioSource = .none, bitrateKbps: Int? = nil) throws -> GraphPlan {
    try GraphPlan(library: library(), camera: .testSource, requested: VideoFormat.parse(format)!, aspect: aspect,
                  encoder: .x264, container: container, bitrateKbps: bitrateKbps, audio: audio)
}

/// VmRSS of this process, kB (Linux /proc).
func residentKilobytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// A fresh folder for one test's files, removed afterwards.
func temporaryDirectory(_ test: XCTestCase) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-capture-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir.path
}
