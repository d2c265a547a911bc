import DuoCore
import DuoMedia
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `duo-capture join FILES… [--keep-segments] [--output FILE]`: a take's segments joined into one file at
/// the first segment's format, as a run does after a segmented take (`--swap-policy segment`), with a
/// progress line; also finishes a join a kill cut short (the start-up notice offers this command).
///
/// Thread: main task; synchronous (joins on GStreamer threads and waits).
enum JoinCommand {
    static func run(_ arguments: [String], pipelinesDirectory: String? = nil) throws(DuoError) -> String {
        var files: [String] = [], keep = false, output: String?
        var reader = OptionReader(arguments)
        while let arg = reader.next() {
            switch arg {
            case "--keep-segments": keep = true
            case "--output", "-o": output = try reader.value(arg)
            case _ where arg.hasPrefix("-"): throw .usage("join: unknown option \(arg); usage: duo-capture join SEGMENT SEGMENT… [--keep-segments] [--output FILE]")
            default: files.append(arg)
            }
        }
        guard files.count >= 2 else {
            throw .usage("join needs the segment files of one take, in order (at least two): duo-capture join take01.mkv take02.mkv …")
        }
        let container: ContainerChoice = files[0].lowercased().hasSuffix(".mp4") ? .mp4 : .mkv
        let facts = try files.map { file throws(DuoError) in try SegmentJoiner.facts(file) }
        let join = SegmentJoin(segments: files, format: facts[0].format, encoder: try SessionSetup.chooseEncoder(nil), container: container,
                               audio: facts.allSatisfy(\.audio), keepSegments: keep, output: output)
        let library = try PipelineLibrary.locate(override: pipelinesDirectory)
        let terminal = isatty(STDERR_FILENO) != 0
        var shown = -1
        // The joined take keeps one sidecar, the take's, made from the segments' own (which go with them).
        let outcome = try SegmentJoiner.run(join, library: library, known: facts, toolVersion: DuoCaptureMain.version) { fraction in
            let percent = Int(fraction * 100)
            guard percent != shown else { return }
            shown = percent
            // A progress bar on a terminal; otherwise a line each tenth, so a log stays short.
            if terminal {
                let bar = String(repeating: "#", count: percent / 5) + String(repeating: ".", count: 20 - percent / 5)
                FileHandle.standardError.write(Data("\rjoining [\(bar)] \(percent)%".utf8))
            } else if percent % 10 == 0 || percent == 100 {
                FileHandle.standardError.write(Data("joining: \(percent)%\n".utf8))
            }
        }
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        let seconds = Double(outcome.decoded.video.frames) * Double(join.format.frameRate.frameDurationNanoseconds) / 1e9
        let conversion = outcome.repeatedFrames + outcome.droppedFrames == 0 ? ""
            : " (\(outcome.repeatedFrames) frames repeated, \(outcome.droppedFrames) dropped to that rate)"
        return "\(join.output): \(outcome.decoded.video.frames) frames, \(String(format: "%.2f", seconds)) s at \(join.format)" + conversion
            + (keep ? "; segments kept" : "; segments removed") + "; sidecar \(TakeSidecar.path(forTake: join.output))"
    }

    /// The start-up line offering to finish joins a kill cut short in `directory` (nil: none).
    static func unfinishedNotice(in directory: String) -> String? {
        let open = SegmentJoin.unfinished(in: directory)
        guard let first = open.first else { return nil }
        let more = open.count > 1 ? " (and \(open.count - 1) more in \(directory))" : ""
        return "a take's segments were not joined (the join was cut short); finish it with: \(first.command)\(more)"
    }
}
