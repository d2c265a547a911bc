import DuoCore
import DuoMedia
import Foundation

/// `duo-capture remux FILE.mkv`: an MP4 copy of a Matroska take, without re-encoding, next to it.
///
/// Thread: main task; synchronous (remuxes on GStreamer threads and waits).
enum RemuxCommand {
    static func run(_ arguments: [String]) throws(DuoError) -> String {
        guard arguments.count == 1, let input = arguments.first, !input.hasPrefix("-") else {
            throw .usage(tr("remux needs exactly one file: duo-capture remux FILE.mkv"))
        }
        guard input.lowercased().hasSuffix(".mkv") else {
            throw .usage(tr("remux %s: give a Matroska take (.mkv); MP4 takes need no remux", input))
        }
        let output = Remuxer.outputPath(for: input) { FileManager.default.fileExists(atPath: $0) }
        try Remuxer.remux(input, to: output)
        return output
    }
}
