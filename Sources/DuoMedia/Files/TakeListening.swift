import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  Captions after the take: the take's sound through the voice-follow recogniser as fast as it can go
//  (no clock), with the sound's level every 20 ms beside it; then the captions muxed into the Matroska
//  take as a UTF-8 text track, written to a temporary file renamed over the take only when whole.
//
//   filesrc ─▶ demux ─▶ audio_0 ─▶ queue ─▶ decodebin ─▶ convert/resample ─▶ 16 kHz mono ─▶ level ─▶ pocketsphinx ─▶ fakesink
//
//   filesrc ─▶ matroskademux ─┬─▶ video_0 ─▶ queue ─▶ h264parse ───────────▶ matroskamux ─▶ filesink (TAKE.mkv.captions-tmp)
//                             └─▶ audio_0 ─▶ queue ─▶ opusparse/aacparse ─────▲
//   filesrc (TAKE.srt as SubViewer) ─▶ subparse (utf8) ─▶ queue ──────────────┘ subtitle_0

/// Thread: any; synchronous, each call owns its short-lived pipeline.
public enum TakeListening {
    /// What the recogniser heard in the sound of the file at `path` (a take, or any sound file), and the
    /// sound's length in seconds. Throws for a file without sound.
    public static func listen(_ path: String, model: VoiceModelFiles, timeoutSeconds: Double = 3600) throws(DuoError) -> (heard: HeardSpeech, seconds: Double) {
        GStreamer.initialize()
        try InputFile.requireRegular(path, "take", hint: "give a take such as ~/Videos/duo-capture/duo-…-take01.mkv")
        let lower = path.lowercased()
        let quoted = AudioSource.launchQuoted(path)
        let tail = "audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=16000,channels=1 "
            + "! level name=caption_level interval=20000000 post-messages=true "
            + "! pocketsphinx name=caption_recogniser hmm=\"\(AudioSource.launchQuoted(model.acousticModel))\" "
            + "lm=\"\(AudioSource.launchQuoted(model.languageModel))\" dict=\"\(AudioSource.launchQuoted(model.dictionary))\" "
            + "! fakesink sync=false"
        let description: String
        if lower.hasSuffix(".mkv") || lower.hasSuffix(".mp4") {
            guard try MediaInspector.audioStreamCount(path) > 0 else {
                throw .input("\(path) has no sound to caption")
            }
            let demuxer = lower.hasSuffix(".mp4") ? "qtdemux" : "matroskademux"
            description = "filesrc location=\"\(quoted)\" ! \(demuxer) name=demux demux.audio_0 ! queue ! decodebin ! " + tail
        } else {
            description = "filesrc location=\"\(quoted)\" ! decodebin ! " + tail
        }
        let pipeline = try JobGraph.parse(description, neededFor: "captions")
        defer { pipeline.setState(GST_STATE_NULL) }
        _ = duo_quiet_speech_log()
        var collector = HeardSpeech.Collector()
        var levels: [Double] = []
        let frame = 0.02
        let outcome = pipeline.runToEnd(timeout: timeoutSeconds) { message in
            var rms = 0.0, peak = 0.0
            if duo_level_values(message, &rms, &peak) != 0 {
                levels.append(rms)
                return
            }
            var isFinal: gboolean = 0
            var timestamp: guint64 = 0
            if let text = duo_speech_hypothesis(message, &isFinal, &timestamp) {
                let at = timestamp == UInt64.max ? Double(levels.count) * frame : Double(timestamp) / 1e9
                collector.hypothesis(String(cString: text), final: isFinal != 0, at: at)
            }
        }
        switch outcome {
        case .finished: break
        case .timedOut: throw .runtime("captioning \(path) did not finish within \(Int(timeoutSeconds)) s")
        case .failed(let text): throw .input("the sound of \(path) cannot be captioned: \(text)")
        }
        collector.finish()
        return (HeardSpeech(words: collector.words, speech: HeardSpeech.speech(levels: levels, frame: frame)),
                Double(levels.count) * frame)
    }

    /// Rewrites the Matroska take at `take` with `srt` (a SubRip file) as a subtitle track: into a
    /// temporary file beside it, renamed over the take only when whole. On any failure the take is
    /// untouched and the temporary file gone.
    public static func muxSubtitles(into take: String, srt: String, timeoutSeconds: Double = 600) throws(DuoError) {
        GStreamer.initialize()
        let temporary = take + ".captions-tmp"
        try? FileManager.default.removeItem(atPath: temporary)
        // Unbounded queues: a live take's sound can sit a second or two behind its pictures in the
        // file, and bounded queues then wait for each other forever.
        let queue = "queue max-size-time=0 max-size-buffers=0 max-size-bytes=0"
        let cues = temporary + ".sub"
        defer { try? FileManager.default.removeItem(atPath: cues) }
        guard let branch = try subtitleBranch(srt: srt, through: cues, queue: queue) else { return }
        var description = "filesrc location=\"\(AudioSource.launchQuoted(take))\" ! matroskademux name=demux "
            + "demux.video_0 ! \(queue) ! h264parse ! matroskamux name=mux ! filesink location=\"\(AudioSource.launchQuoted(temporary))\" "
            + branch
        switch try audioCodec(take) {
        case nil: break
        case "audio/x-opus"?: description += "demux.audio_0 ! \(queue) ! opusparse ! mux. "
        case "audio/mpeg"?: description += "demux.audio_0 ! \(queue) ! aacparse ! mux. "
        case let other?: throw .input("\(take): its sound (\(other)) cannot be copied with captions; the take is left as it was")
        }
        let pipeline = try JobGraph.parse(description, neededFor: "muxing captions into the take")
        func fail(_ error: DuoError) -> DuoError {
            pipeline.setState(GST_STATE_NULL)
            try? FileManager.default.removeItem(atPath: temporary)
            return error
        }
        try JobGraph.run(pipeline, timeoutSeconds: timeoutSeconds,
                         timedOut: { fail(.runtime("muxing captions into \(take) did not finish within \(Int(timeoutSeconds)) s; the take is left as it was")) },
                         failed: { fail(.input("captions cannot be muxed into \(take): \($0); the take is left as it was")) })
        pipeline.setState(GST_STATE_NULL)
        guard rename(temporary, take) == 0 else {
            let why = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw .runtime("the captioned take could not replace \(take): \(why); the take is left as it was")
        }
    }

    /// The launch text of a subtitle branch into `mux.subtitle_0` with the cues of the SubRip file `srt`,
    /// written to `cues` as SubViewer text (`CaptionFiles.subViewer`: what subparse passes on as plain
    /// UTF-8, exactly as written); nil when the file holds no cue.
    static func subtitleBranch(srt: String, through cues: String, queue: String = "queue") throws(DuoError) -> String? {
        guard let text = try? String(contentsOfFile: srt, encoding: .utf8) else {
            throw .input(tr("cannot read the captions %s; run duo-capture captions again", srt))
        }
        let captions = CaptionFiles.parseSubRip(text)
        guard !captions.isEmpty else { return nil }
        do {
            try Data(CaptionFiles.subViewer(captions).utf8).write(to: URL(fileURLWithPath: cues))
        } catch {
            throw .runtime(tr("cannot write %s for the subtitle track: %s", cues, error.localizedDescription))
        }
        return "filesrc location=\"\(AudioSource.launchQuoted(cues))\" ! subparse ! \(queue) ! mux.subtitle_0 "
    }

    /// The caps name of the file's first sound stream ("audio/x-opus", "audio/mpeg"), nil without sound.
    static func audioCodec(_ path: String) throws(DuoError) -> String? {
        try MediaDiscovery.withInfo(path, unreadable: { .input("\(path) \($0)") }) { info -> String? in
            let streams = gst_discoverer_info_get_audio_streams(info)
            defer { gst_discoverer_stream_info_list_free(streams) }
            guard let first = streams?.pointee.data else { return nil }
            let stream = OpaquePointer(first)
            guard let caps = gst_discoverer_stream_info_get_caps(stream) else { return nil }
            defer { gst_caps_unref(caps) }
            guard let structure = gst_caps_get_structure(caps, 0), let name = gst_structure_get_name(structure) else { return nil }
            return String(cString: name)
        }
    }
}
