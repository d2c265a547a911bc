import Foundation

/// A take recorded in segments (`--swap-policy segment`), composed into one file: what is joined, into
/// what, at which format and encoder, and the graph that does it (Pipelines/join.gst). The segments stay
/// until the joined file decodes completely; a journal next to them (`….join.json`) says a join was
/// begun, so a join cut short (a kill) is offered again at the next start and `duo-capture join` finishes it.
///
/// Thread: value type, Sendable; pure (the journal's file I/O is plain Foundation).
public struct SegmentJoin: Sendable, Equatable {
    /// The segment files, in recording order (full paths).
    public var segments: [String]
    /// The joined file (full path); written first as `partial`, renamed once it decodes.
    public var output: String
    /// The first segment's format: every segment is scaled into it (with borders) at its rate.
    public var format: VideoFormat
    public var encoder: EncoderChoice
    public var container: ContainerChoice
    /// Whether every segment has sound (then the joined file has it too).
    public var audio: Bool
    public var bitrateKbps: Int
    /// Keep the segments once the join decodes (`--keep-segments`).
    public var keepSegments: Bool
    /// The joined file may replace a file already at `output` (`join --output FILE --force`); otherwise it
    /// is put in place only where nothing is.
    public var replaceOutput = false

    public init(segments: [String], format: VideoFormat, encoder: EncoderChoice, container: ContainerChoice, audio: Bool,
                bitrateKbps: Int? = nil, keepSegments: Bool = false, output: String? = nil) {
        self.segments = segments
        self.output = output ?? Self.outputPath(forFirstSegment: segments.first ?? "take.\(container.rawValue)")
        self.format = format
        self.encoder = encoder
        self.container = container
        self.audio = audio
        self.bitrateKbps = bitrateKbps ?? GraphPlan.defaultBitrate(format)
        self.keepSegments = keepSegments
    }

    /// `duo-…-take01.mkv` → `duo-…-take01-joined.mkv`.
    public static func outputPath(forFirstSegment first: String) -> String {
        let ext = (first as NSString).pathExtension
        return (first as NSString).deletingPathExtension + "-joined" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// Where the joined file is written until it decodes completely.
    public var partial: String {
        let ext = (output as NSString).pathExtension
        return (output as NSString).deletingPathExtension + ".partial" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// The journal: written before the join starts, removed once it is done (or failed for good).
    public var journal: String { Self.journalPath(forOutput: output) }

    /// The journal of a join into `output`.
    public static func journalPath(forOutput output: String) -> String { (output as NSString).deletingPathExtension + ".join.json" }

    /// A journal is a few segment paths: one larger than this is no journal of ours, and is not read.
    public static let journalLimit = 256 * 1024

    /// The journal at `path`, when it is one (nil: missing, too large, or not a journal).
    public static func readJournal(_ path: String) -> Journal? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int, size <= journalLimit,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Journal.self, from: data)
    }

    /// `duo-capture join` with these files, as the start-up notice offers it.
    public var command: String {
        "duo-capture join " + segments.map { $0.contains(" ") || $0.contains("'") ? "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" : $0 }
            .joined(separator: " ")
    }

    /// The join's graph in gst-launch syntax (the same text `gst-launch-1.0 -e` runs).
    public func description(library: PipelineLibrary) throws(DuoError) -> String {
        let fps = Int(format.frameRate.value.rounded())
        let encoderValues = ["bitrate_kbps": "\(bitrateKbps)", "bitrate_bps": "\(bitrateKbps * 1000)", "keyframe_interval": "\(max(1, fps))"]
        var d = try library.render("join", [
            "width": "\(format.width)", "height": "\(format.height)", "rate": format.frameRate.capsValue,
            "encoder": try library.render("encoder-\(encoder.rawValue)", encoderValues),
            "muxer": try library.render("muxer-\(container.rawValue)", [:]),
            "location": AudioSource.launchQuoted(partial),
        ])
        if audio {
            d += "  " + (try library.render("join-audio", ["audio_encoder": try library.render(container.audioEncoderFile, [:])]))
        }
        for (i, segment) in segments.enumerated() {
            let demuxer = segment.lowercased().hasSuffix(".mp4") ? "qtdemux" : "matroskademux"
            d += "  filesrc location=\"\(AudioSource.launchQuoted(segment))\" ! \(demuxer) name=join_demux\(i)"
            // One decoder thread: the join's queues already run decoding beside encoding (see join.gst).
            d += "  join_demux\(i).video_0 ! queue ! h264parse ! avdec_h264 max-threads=1 ! join_video."
            if audio { d += "  join_demux\(i).audio_0 ! queue ! decodebin ! audioconvert ! join_audio." }
        }
        return d
    }

    // MARK: The journal

    /// What the journal holds: enough to offer the join again and to finish it (`duo-capture join`
    /// probes the first segment's format again).
    public struct Journal: Codable, Sendable, Equatable {
        public var segments: [String]
        public var output: String
        public var keepSegments: Bool
        public var command: String
        public init(segments: [String], output: String, keepSegments: Bool, command: String) {
            self.segments = segments
            self.output = output
            self.keepSegments = keepSegments
            self.command = command
        }
    }

    public func writeJournal() throws(DuoError) {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let j = Journal(segments: segments, output: output, keepSegments: keepSegments, command: command)
        do { try e.encode(j).write(to: URL(fileURLWithPath: journal), options: .atomic) } catch {
            throw .runtime(.text("cannot write %s: %s", journal, WriteProblem.said(error)))
        }
    }

    public func removeJournal() { try? FileManager.default.removeItem(atPath: journal) }

    /// Joins begun in `directory` and not finished (their journal is still there, a segment too).
    public static func unfinished(in directory: String) -> [Journal] {
        scan(directory).open
    }

    /// The journals in `directory`: joins begun and not finished, and one line for each file named like a
    /// journal that is refused (over `journalLimit`: read whole at every start, it would hold the start up).
    public static func scan(_ directory: String) -> (open: [Journal], refused: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var open: [Journal] = [], refused: [String] = []
        for name in names.filter({ $0.hasSuffix(".join.json") }).sorted() {
            let path = (directory as NSString).appendingPathComponent(name)
            if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int, size > journalLimit {
                refused.append("\(TerminalText.escaped(path, limit: 200)) is \(size / 1024) KB, no join journal (those are a few lines); it is not read: remove it")
                continue
            }
            guard let join = readJournal(path), join.segments.contains(where: { FileManager.default.fileExists(atPath: $0) }) else { continue }
            open.append(join)
        }
        return (open, refused)
    }
}

extension SegmentJoin.Journal {
    /// `duo-capture join` with the journal's segments, rebuilt from them (never the journal's own `command`
    /// text): each path quoted for the shell and escaped for the terminal (`TerminalText.escaped`).
    public var offer: String {
        "duo-capture join " + segments.map { segment in
            let safe = segment.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+,:@%=".unicodeScalars.contains($0)) }
            let quoted = safe ? segment : "'" + segment.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
            return TerminalText.escaped(quoted, limit: 400)
        }.joined(separator: " ")
    }
}
