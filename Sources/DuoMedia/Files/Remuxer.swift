import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  Matroska → MP4 without re-encoding: the H.264 and audio packets are copied as they are.
//
//   filesrc ─▶ matroskademux ─┬─▶ video_0 ─▶ queue ─▶ h264parse ─▶ mp4mux ─▶ filesink
//                             └─▶ audio_0 ─▶ queue ───────────────▲ (when the take has audio)
//   filesrc (TAKE.srt as SubViewer) ─▶ subparse ─▶ queue ────────────┘ subtitle_0: mov_text (when captioned)
//
//  mp4mux takes no table of contents: the take's chapters are read on their own (`chapters(of:)`),
//
//   filesrc ─▶ matroskademux ─▶ video_0 ─▶ fakesink   paused: the sink posts the TOC before it prerolls
//
//  for the caller to write into the finished MP4 (MP4Chapters).

/// Turns a Matroska take into an MP4 next to it (`duo-capture remux`).
///
/// Thread: any; synchronous, owns its own short-lived pipeline.
public enum Remuxer {
    /// Writes `output` from `input` and waits until the MP4 is finalised. `output` must not exist.
    public static func remux(_ input: String, to output: String, timeoutSeconds: Double = 600) throws(DuoError) {
        GStreamer.initialize()
        try InputFile.requireRegular(input, .text("take"), hint: .text("give a Matroska take such as ~/Videos/duo-capture/duo-…-take01.mkv"))
        precondition(!FileManager.default.fileExists(atPath: output), "remux never overwrites")
        let hasAudio = try MediaInspector.audioStreamCount(input) > 0
        func quoted(_ path: String) -> String {
            "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var description = """
            filesrc location=\(quoted(input)) ! matroskademux name=demux \
            demux.video_0 ! queue ! h264parse ! mp4mux name=mux faststart=true ! filesink location=\(quoted(output))
            """
        if hasAudio { description += "  demux.audio_0 ! queue ! mux." }
        // The take's captions (TAKE.srt beside it, as `captions` writes them) as a mov_text track.
        let srt = (input as NSString).deletingPathExtension + ".srt", cues = output + ".sub"
        defer { try? FileManager.default.removeItem(atPath: cues) }
        if FileManager.default.fileExists(atPath: srt), let branch = try TakeListening.subtitleBranch(srt: srt, through: cues) {
            description += "  " + branch
        }
        let pipeline = try JobGraph.parse(description, neededFor: "remuxing to MP4")
        defer { pipeline.setState(GST_STATE_NULL) }
        // A take half written is no take: stopped, and gone.
        func fail(_ error: DuoError) -> DuoError {
            pipeline.setState(GST_STATE_NULL)
            try? FileManager.default.removeItem(atPath: output)
            return error
        }
        try JobGraph.run(pipeline, timeoutSeconds: timeoutSeconds,
                         timedOut: { fail(.runtime(.text("remuxing %s did not finish within %s s", input, Int(timeoutSeconds)))) },
                         failed: { fail(.input(.text("%s cannot be remuxed to MP4: %s; it must be an H.264 Matroska file such as a duo-capture take", input, $0))) })
    }

    /// The chapters of the Matroska file at `input` (what the file holds, also when edited elsewhere),
    /// in file order; empty when it has none; nil when the file could not be read that far.
    public static func chapters(of input: String, timeoutSeconds: Double = 20) -> [TakeChapter]? {
        GStreamer.initialize()
        let description = "filesrc location=\"\(AudioSource.launchQuoted(input))\" ! matroskademux name=demux demux.video_0 ! fakesink"
        guard let pipeline = try? JobGraph.parse(description, neededFor: "reading a take's chapters") else { return nil }
        defer { pipeline.setState(GST_STATE_NULL) }
        pipeline.setState(GST_STATE_PAUSED)
        var found: [TakeChapter]? = nil
        let kinds = GST_MESSAGE_TOC.rawValue | GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue
        PipelineBus(pipeline).read(GstMessageType(rawValue: kinds), until: GStreamer.monotonicMicros() + Int64(timeoutSeconds * 1e6)) { message in
            switch message.type {
            case GST_MESSAGE_TOC:
                let capacity = 4096
                var starts = [gint64](repeating: 0, count: capacity)
                var titles = [UnsafeMutablePointer<gchar>?](repeating: nil, count: capacity)
                let count = Int(duo_toc_message_chapters(message.pointer, &starts, &titles, guint(capacity)))
                defer { titles.prefix(count).forEach { g_free($0) } }
                found = (0..<count).map { TakeChapter(atSeconds: Double(starts[$0]) / 1e9, title: titles[$0].map { String(cString: $0) } ?? "") }
                return false
            case GST_MESSAGE_ASYNC_DONE:
                found = []   // prerolled without a table of contents: no chapters
                return false
            default:
                return false   // an error: unread
            }
        }
        return found
    }

    /// `take.mkv` → `take.mp4`, or `take-2.mp4`, `take-3.mp4`… when that exists: never overwrites.
    public static func outputPath(for input: String, exists: (String) -> Bool) -> String {
        let base = (input as NSString).deletingPathExtension
        var candidate = "\(base).mp4"
        var n = 2
        while exists(candidate) {
            candidate = "\(base)-\(n).mp4"
            n += 1
        }
        return candidate
    }
}
