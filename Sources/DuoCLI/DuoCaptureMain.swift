import DuoCore
import DuoMedia
import DuoRender
import Foundation

/// The executable's entry point: parse, dispatch, and turn every error into one line and an exit code.
public enum DuoCaptureMain {
    public static let version = "0.1.0"

    public static func run(_ arguments: [String]) async -> Int32 {
        let log: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        do {
            let options = try Options.parse(arguments)
            switch options.command {
            case .help:
                print(Help.text)
            case .version:
                print("duo-capture \(version) (\(GStreamer.version))")
            case .pipeline:
                print(try PipelineCommand.run(options))
            case .renderSubject:
                print(try RenderSubjectCommand.run(arguments: options.passthrough))
            case .cameras:
                print(CamerasCommand.run())
            case .monitors:
                print(try await DesktopRun.monitors())
            case .run:
                let quiet = options.quiet
                print(try await RunCommand.run(options) { line in if !quiet { log(line) } })
            }
            return 0
        } catch {
            log("duo-capture: error: \(error.message)")
            return error.kind.exitCode
        }
    }
}

/// `duo-capture pipeline`: the whole graph, with one take attached, in gst-launch-1.0 syntax.
enum PipelineCommand {
    static func run(_ options: Options) throws(DuoError) -> String {
        var o = options
        o.record = false  // printing the graph must not create folders
        let setup = try SessionSetup.prepare(o)
        let dir = options.recordDirectory ?? SessionSetup.defaultRecordDirectory()
        let location = TakeNaming(directory: dir, fileExtension: setup.plan.container.rawValue)
            .path(take: 1, at: Date()) { FileManager.default.fileExists(atPath: $0) }
        return "gst-launch-1.0 -e " + (try setup.plan.launchDescription(recordingTo: location))
    }
}

/// `duo-capture cameras`: what GStreamer's device monitor sees.
enum CamerasCommand {
    static func run() -> String {
        let cameras = CameraDiscovery.list()
        if cameras.isEmpty { return "no cameras found; use --camera inner|outer for a simulated one" }
        return cameras.map { c in
            let best = FormatSelection.best(of: c.modes.map(\.format), upTo: nil).map(\.description) ?? "no usable formats"
            return "\(c.devicePath ?? "-")\t\(c.name)\tbest \(best), \(c.modes.count) modes"
        }.joined(separator: "\n")
    }
}
