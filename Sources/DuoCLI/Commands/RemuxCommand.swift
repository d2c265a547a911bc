import DuoCore
import DuoMedia
import Foundation

/// `duo-capture remux FILE.mkv`: an MP4 copy of a Matroska take, without re-encoding, next to it, with
/// the take's chapters (read from the .mkv itself) added afterwards, as mp4mux cannot (MP4ChapterWriter).
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
        // The chapters are extra: a failure leaves the MP4 as it is, and says so.
        if let chapters = Remuxer.chapters(of: input) {
            if let problem = MP4ChapterWriter.write(chapters, into: output) { warn(problem) }
        } else {
            warn(tr("%s has no chapters: those of %s could not be read (check it with duo-capture inspect); the MP4 plays as it is",
                    (output as NSString).lastPathComponent, input))
        }
        return output
    }

    private static func warn(_ line: String) {
        FileHandle.standardError.write(Data(tr("duo-capture: warning: %s", line).appending("\n").utf8))
    }
}
