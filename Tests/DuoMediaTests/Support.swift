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
func smallPlan(_ format: String = "320x240@30", aspect: AspectRatio? = nil, container: ContainerChoice = .mkv) throws -> GraphPlan {
    try GraphPlan(library: library(), camera: .testSource, requested: VideoFormat.parse(format)!, aspect: aspect,
                  encoder: .x264, container: container)
}

/// A fresh folder for one test's files, removed afterwards.
func temporaryDirectory(_ test: XCTestCase) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("duo-capture-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir.path
}
