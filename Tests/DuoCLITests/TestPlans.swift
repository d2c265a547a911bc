import DuoCore
import Foundation

/// The graph plans the director and subject-frame tests start from: the repository's Pipelines/, and a
/// simulated camera of one format (SMPTE bars) or the plain test source.
///
/// Thread: stateless.
enum TestPlans {
    /// The repository's root (this file is Tests/DuoCLITests/TestPlans.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var library: PipelineLibrary { PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path) }

    /// One simulated camera (`cam0`, SMPTE bars) that offers only `format` (`320x240@30`).
    static func simulated(_ format: String, audio: AudioSource = .none) throws -> GraphPlan {
        let profile = CameraProfile(id: "cam0", name: "cam0", testPattern: "smpte",
                                    modes: [.init(pixelFormat: "I420", format: VideoFormat.parse(format)!)])
        return try GraphPlan(library: library, camera: .simulated(profile), requested: nil, aspect: nil,
                             encoder: .x264, container: .mkv, audio: audio)
    }

    /// The plain test source asked for `format`.
    static func testSource(_ format: String) throws -> GraphPlan {
        try GraphPlan(library: library, camera: .testSource, requested: VideoFormat.parse(format), aspect: nil,
                      encoder: .x264, container: .mkv)
    }
}
