import CGStreamer
import DuoCore

//  The graphs built for one job beside the capture session's (a take decoded or checked, segments
//  joined, a take remuxed, a clip played as a camera): each element is checked as installed before the
//  text is parsed, so a missing one is a one-line error naming its Debian package, not a parse failure.
//
//   filesrc ─▶ qtdemux/matroskademux (demux) ─┬─▶ video_0 ─▶ the job's video branch
//                                             └─▶ audio_0 ─▶ queue ─▶ decodebin ─▶ fakesink   (takeReading)

/// Thread: any; each graph is owned by the job that made it.
enum JobGraph {
    /// Throws for the first element of `description` that is not installed, naming its package and the
    /// job it was needed for.
    static func requireElements(_ description: String, neededFor purpose: String) throws(DuoError) {
        for element in GStreamer.elementNames(in: description) where !GStreamer.hasElement(element) {
            throw ElementPackages.missingElementError(element, neededFor: purpose)
        }
    }

    /// `description` parsed once its elements are known to be installed.
    static func parse(_ description: String, neededFor purpose: String) throws(DuoError) -> ElementRef {
        try requireElements(description, neededFor: purpose)
        return try CaptureSession.parse(description)
    }

    /// A graph that reads the take at `path` once: the file into its demuxer (named `demux`), `video`
    /// (starting at `demux.video_0`), and the sound decoded into a fakesink named `audioSink`, or, when
    /// the file has none (`audio` false), a stand-in sink of that name: a sink whose stream never appears
    /// would hold preroll forever.
    static func takeReading(_ path: String, video: String, audio: Bool, audioSink: String) -> String {
        let demuxer = path.lowercased().hasSuffix(".mp4") ? "qtdemux" : "matroskademux"
        let audioBranch = audio
            ? "demux.audio_0 ! queue ! decodebin ! fakesink name=\(audioSink) sync=false"
            : "fakesrc num-buffers=0 ! fakesink name=\(audioSink) sync=false"
        return "filesrc location=\"\(AudioSource.launchQuoted(path))\" ! \(demuxer) name=demux \(video) \(audioBranch)"
    }

    /// Plays `pipeline` to its end within `timeoutSeconds`; throws what `timedOut` or `failed` (given
    /// GStreamer's error) make of the end it came to instead. The pipeline is left for the caller to stop.
    static func run(_ pipeline: ElementRef, timeoutSeconds: Double, timedOut: () -> DuoError,
                    failed: (String) -> DuoError) throws(DuoError) {
        switch pipeline.runToEnd(timeout: timeoutSeconds) {
        case .finished: break
        case .timedOut: throw timedOut()
        case .failed(let text): throw failed(text)
        }
    }
}
