import DuoCore
import DuoMedia
import DuoPlatform
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `duo-capture join FILES… [--keep-segments] [--output FILE [--force]]`: a take's segments joined into one
/// file at the first segment's format, as a run does after a segmented take (`--swap-policy segment`), with
/// a progress line; also finishes a join a kill cut short (the start-up notice offers this command). The
/// output is claimed before the join (`JoinOutputClaim`): the default name moves on (`-joined-2.mkv`)
/// when taken, and `--output` onto an existing file is refused unless `--force`.
///
/// Thread: main task; synchronous (joins on GStreamer threads and waits).
enum JoinCommand {
    static func run(_ arguments: [String], pipelinesDirectory: String? = nil) throws(DuoError) -> String {
        var files: [String] = [], keep = false, output: String?, force = false
        var reader = OptionReader(arguments)
        while let arg = reader.next() {
            switch arg {
            case "--keep-segments": keep = true
            case "--force": force = true
            case "--output", "-o": output = try reader.value(arg)
            case _ where arg.hasPrefix("-"): throw .usage(tr("join: unknown option %s; usage: duo-capture join SEGMENT SEGMENT… [--keep-segments] [--output FILE [--force]]", arg))
            default: files.append(arg)
            }
        }
        guard files.count >= 2 else {
            throw .usage(tr("join needs the segment files of one take, in order (at least two): duo-capture join take01.mkv take02.mkv …"))
        }
        let container: ContainerChoice = files[0].lowercased().hasSuffix(".mp4") ? .mp4 : .mkv
        let facts = try files.map { file throws(DuoError) in try SegmentJoiner.facts(file) }
        let encoder = try SessionSetup.chooseEncoder(nil)
        if force, output == nil { throw .usage(tr("join: --force is for --output FILE (the default name never replaces a file)")) }
        let claimed: String
        if let output {
            claimed = try JoinOutputClaim.claim(given: output, segments: files, replace: force)
        } else {
            claimed = try JoinOutputClaim.claim(segments: files)
        }
        var join = SegmentJoin(segments: files, format: facts[0].format, encoder: encoder, container: container,
                               audio: facts.allSatisfy(\.audio), keepSegments: keep, output: claimed)
        join.replaceOutput = force
        let library = try PipelineLibrary.locate(override: pipelinesDirectory)
        let terminal = isatty(STDERR_FILENO) != 0
        var shown = -1
        // The joined take keeps one sidecar, the take's, made from the segments' own (which go with them).
        let outcome: JoinOutcome
        do throws(DuoError) {
            outcome = try runJoin(join, library: library, facts: facts, terminal: terminal, shown: &shown)
        } catch {
            // The claim (the journal) goes with a join that failed for good; the segments are kept.
            join.removeJournal()
            throw error
        }
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        let seconds = Double(outcome.decoded.video.frames) * Double(join.format.frameRate.frameDurationNanoseconds) / 1e9
        let conversion = outcome.repeatedFrames + outcome.droppedFrames == 0 ? ""
            : tr(" (%s frames repeated, %s dropped to that rate)", outcome.repeatedFrames, outcome.droppedFrames)
        return tr("%s: %s frames, %s s at %s", join.output, outcome.decoded.video.frames, String(format: "%.2f", seconds), join.format) + conversion
            + (keep ? tr("; segments kept") : tr("; segments removed")) + tr("; sidecar %s", TakeSidecar.path(forTake: join.output))
    }

    private static func runJoin(_ join: SegmentJoin, library: PipelineLibrary, facts: [MediaFacts], terminal: Bool,
                             shown: inout Int) throws(DuoError) -> JoinOutcome {
        try SegmentJoiner.run(join, library: library, known: facts, toolVersion: DuoCaptureMain.version) { fraction in
            let percent = Int(fraction * 100)
            guard percent != shown else { return }
            shown = percent
            // A progress bar on a terminal; otherwise a line each tenth, so a log stays short.
            if terminal {
                let bar = String(repeating: "#", count: percent / 5) + String(repeating: ".", count: 20 - percent / 5)
                FileHandle.standardError.write(Data(("\r" + tr("joining [%s] %s%%", bar, percent)).utf8))
            } else if percent % 10 == 0 || percent == 100 {
                FileHandle.standardError.write(Data(tr("joining: %s%%", percent).appending("\n").utf8))
            }
        }
    }

    /// The start-up lines offering to finish joins a kill cut short in `directory`, and refusing a file
    /// named like a journal that is none (empty: nothing to say).
    static func unfinishedNotices(in directory: String) -> [String] {
        let (open, refused) = SegmentJoin.scan(directory)
        var lines = refused.map { tr("join journal %s", $0) }
        if let first = open.first {
            let more = open.count > 1 ? tr(" (and %s more in %s)", open.count - 1, TerminalText.escaped(directory, limit: 200)) : ""
            lines.append(tr("a take's segments were not joined (the join was cut short); finish it with: %s%s", first.offer, more))
        }
        return lines
    }
}
