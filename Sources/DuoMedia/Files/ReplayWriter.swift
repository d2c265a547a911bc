import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  Writes a replay buffer's packets into a Matroska file (Pipelines/replay-write.gst): a pipeline of its
//  own, apart from the live graph, on a thread of its own. The packets (from a keyframe) are pushed
//  with their times moved so the file starts at 0, both streams by the same amount, and the chapters go
//  to the muxer before the first frame. A write that fails (a full disk) removes the partial file.
//
//   replay_video_src (appsrc) ─▶ replay_mux (matroskamux) ─▶ replay_file (filesink)
//   replay_audio_src (appsrc) ─┘

/// Thread: stateless; `write` blocks its caller (the session runs it on a dispatch queue).
enum ReplayWriter {
    /// Writes `snapshot` into `path` with `chapters` (seconds from the first frame); returns the clip
    /// written, or a one-line error (the partial file removed).
    static func write(_ snapshot: ReplaySnapshot, plan: GraphPlan, to path: String,
                      chapters: (Int64, Int64) -> [TakeChapter]) throws(DuoError) -> ReplayClip {
        guard let first = snapshot.video.first, let last = snapshot.video.last else {
            throw .runtime(.text("the replay buffer holds no frame yet; save again in a moment"))
        }
        let base = first.pts, end = last.end
        let withAudio = snapshot.audioCaps != nil && !snapshot.audio.isEmpty
        let pipeline = try CaptureSession.parse(try plan.replayWriteDescription(location: path, withAudio: withAudio))
        defer { pipeline.setState(GST_STATE_NULL) }
        guard let videoSource = pipeline.child(.replayVideoSource), let mux = pipeline.child(.replayMux) else {
            throw .input(.text("pipeline file %s must keep the elements named %s and %s", "replay-write.gst",
                               GraphElement.replayVideoSource.rawValue, GraphElement.replayMux.rawValue))
        }
        let audioSource = withAudio ? pipeline.child(.replayAudioSource) : nil
        func appsrc(_ e: ElementRef) -> UnsafeMutablePointer<GstAppSrc> { UnsafeMutableRawPointer(e.pointer).assumingMemoryBound(to: GstAppSrc.self) }
        gst_app_src_set_caps(appsrc(videoSource), snapshot.videoCaps.raw)
        if let audioSource, let caps = snapshot.audioCaps { gst_app_src_set_caps(appsrc(audioSource), caps.raw) }
        setChapters(chapters(base, end), on: mux, length: end - base)

        func failed(_ why: DuoError) -> DuoError {
            pipeline.setState(GST_STATE_NULL)
            try? FileManager.default.removeItem(atPath: path)
            return why
        }
        guard pipeline.setState(GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            throw failed(.runtime(.text("cannot write the replay into %s; check that the folder is writable", path)))
        }
        var bytes = 0
        // Interleaved by time, as the muxer wants them (it would wait for the other stream otherwise).
        var v = 0, a = 0
        let audio = withAudio ? snapshot.audio : []
        while v < snapshot.video.count || a < audio.count {
            let useVideo = a >= audio.count || (v < snapshot.video.count && snapshot.video[v].pts <= audio[a].pts)
            let packet = useVideo ? snapshot.video[v] : audio[a]
            if useVideo { v += 1 } else { a += 1 }
            guard let source = useVideo ? videoSource : audioSource, let copy = gst_buffer_copy(packet.payload.pointer) else { continue }
            let pts = GstClockTime(max(packet.pts - base, 0))
            copy.pointee.pts = pts
            copy.pointee.dts = useVideo ? pts : GstClockTime.max
            bytes += packet.size
            // The source queues without bound (max-bytes=0): the buffers are references to the ring's.
            guard gst_app_src_push_buffer(appsrc(source), copy) == GST_FLOW_OK else { break }
        }
        gst_app_src_end_of_stream(appsrc(videoSource))
        if let audioSource { gst_app_src_end_of_stream(appsrc(audioSource)) }
        var failure: (message: String, domainCode: String)?
        var finished = false
        PipelineBus(pipeline).read(GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue),
                                   until: GStreamer.monotonicMicros() + 30_000_000) { message in
            if message.type == GST_MESSAGE_ERROR, let problem = message.problem {
                failure = (problem.message, problem.domainCode)
            } else {
                finished = true
            }
            return false
        }
        if let failure {
            let folder = (path as NSString).deletingLastPathComponent
            throw failed(failure.domainCode == TakeRecorder.noSpaceLeft
                ? .runtime(.text("the replay was not saved: the disk holding %s is full; free space or give another --record-dir (the preview, any take and the buffer go on)", folder))
                : .runtime(.text("the replay was not saved: %s; the preview, any take and the buffer go on", failure.message)))
        }
        guard finished else {
            throw failed(.runtime(.text("the replay was not saved: writing %s did not finish within 30 s; the preview and any take go on", path)))
        }
        return ReplayClip(path: path, startRunningTime: base, endRunningTime: end, videoFrames: snapshot.video.count,
                          audioPackets: audio.count, bytes: bytes)
    }

    /// Hands the chapters to the muxer as a table of contents (written into the file's head).
    private static func setChapters(_ chapters: [TakeChapter], on mux: ElementRef, length: Int64) {
        guard !chapters.isEmpty else { return }
        let starts = chapters.map { gint64(($0.atSeconds * 1e9).rounded()) }
        var titles = chapters.map { strdup($0.title) }
        defer { titles.forEach { free($0) } }
        titles.withUnsafeMutableBufferPointer { t in
            starts.withUnsafeBufferPointer { s in
                t.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: t.count) { titlePointers in
                    _ = duo_set_chapters(mux.pointer, guint(s.count), s.baseAddress, titlePointers, max(gint64(length), (starts.max() ?? 0) + 1))
                }
            }
        }
    }
}
