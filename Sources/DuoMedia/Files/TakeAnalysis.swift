import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// What the session report shows of one take, taken from the file by GStreamer itself: a strip of
/// thumbnails (decoded, scaled and encoded to PNG by the graph), the audio level over the take (the
/// `level` element), and whether it decodes at all.
///
/// Thread: synchronous; runs its graphs to the end on the caller's thread (the report command's).
public struct TakeAnalysis: Sendable {
    public var thumbnails: [Data] = []
    /// The screen track's thumbnails (`--screen`: the file's second video stream), at the same times;
    /// empty without one.
    public var screenThumbnails: [Data] = []
    /// Seconds into the take and the first channel's RMS level, dBFS, every 100 ms.
    public var levels: [(seconds: Double, rmsDB: Double)] = []
    public var frames: Int64 = 0
    public var seconds: Double = 0
    public var width: Int?
    public var height: Int?
    /// Why the take does not decode; nil when it plays.
    public var damage: String?

    /// `scratch` is the folder the thumbnails are made in (a new folder inside it, removed after); by
    /// default one in the temporary folder.
    public static func analyse(_ file: String, thumbnails count: Int = 6, width: Int = 192, scratch: String? = nil) -> TakeAnalysis {
        var result = TakeAnalysis()
        let decoded: DecodedMedia
        do { decoded = try MediaInspector.decode(file) } catch {
            result.damage = error.message
            return result
        }
        result.frames = decoded.video.frames
        result.width = decoded.width
        result.height = decoded.height
        result.seconds = Double((decoded.video.lastPTS ?? 0) - (decoded.video.firstPTS ?? 0)) / 1e9 + (decoded.video.frames > 0 ? 1.0 / 30 : 0)
        guard decoded.video.frames > 0 else {
            result.damage = "no video frames"
            return result
        }
        let parent = scratch.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let folder = parent.appendingPathComponent("duo-report-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let quoted = AudioSource.launchQuoted(file)
        // N thumbnails spread over the take: the frame rate that yields N frames in its length.
        let rate = max(1, Int((Double(count) / max(result.seconds, 0.1) * 1000).rounded()))
        _ = run("filesrc location=\"\(quoted)\" ! decodebin ! videoconvert ! videoscale ! videorate "
                + "! video/x-raw,format=RGB,width=\(width),pixel-aspect-ratio=1/1,framerate=\(rate)/1000 "
                + "! pngenc ! multifilesink location=\"\(AudioSource.launchQuoted(folder))/%03d.png\"") { _ in }
        let pngs = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
        result.thumbnails = pngs.prefix(count).compactMap { FileManager.default.contents(atPath: "\(folder)/\($0)") }
        if decoded.screen != nil {
            // The screen track: the demuxer's second video stream, thumbnailed the same way.
            let demuxer = file.lowercased().hasSuffix(".mp4") ? "qtdemux" : "matroskademux"
            _ = run("filesrc location=\"\(quoted)\" ! \(demuxer) name=demux  demux.video_1 ! queue ! decodebin ! videoconvert ! videoscale ! videorate "
                    + "! video/x-raw,format=RGB,width=\(width),pixel-aspect-ratio=1/1,framerate=\(rate)/1000 "
                    + "! pngenc ! multifilesink location=\"\(AudioSource.launchQuoted(folder))/screen-%03d.png\"") { _ in }
            let screens = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("screen-") }.sorted()
            result.screenThumbnails = screens.prefix(count).compactMap { FileManager.default.contents(atPath: "\(folder)/\($0)") }
        }
        if decoded.audio.frames > 0 {
            var levels: [(Double, Double)] = []
            _ = run("filesrc location=\"\(quoted)\" ! decodebin ! audioconvert ! level name=report_level interval=100000000 post-messages=true ! fakesink sync=false") { message in
                var rms = 0.0, peak = 0.0
                if duo_level_values(message, &rms, &peak) != 0 { levels.append((Double(levels.count) * 0.1 + 0.1, rms)) }
            }
            result.levels = levels
        }
        return result
    }

    /// Runs a graph to its end (or 60 s), handing element messages to `onElement`; its error, if any.
    private static func run(_ description: String, onElement: (UnsafeMutablePointer<GstMessage>) -> Void) -> String? {
        GStreamer.initialize()
        let pipeline: ElementRef
        do { pipeline = try CaptureSession.parse(description) } catch { return error.message }
        defer { pipeline.setState(GST_STATE_NULL) }
        switch withoutActuallyEscaping(onElement, do: { pipeline.runToEnd(timeout: 60, onElement: $0) }) {
        case .finished: return nil
        case .failed(let text): return text
        case .timedOut: return "took longer than 60 s"
        }
    }
}
