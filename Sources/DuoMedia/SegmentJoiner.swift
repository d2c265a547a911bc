import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  A take's segments composed into one file (Pipelines/join.gst), and the facts about a segment the join
//  needs (its size and rate, length, sound) read from its headers.

/// What a recorded file's headers say (GstDiscoverer: no decoding).
///
/// Thread: value type, Sendable.
public struct MediaFacts: Sendable, Equatable {
    public let duration: Int64
    public let format: VideoFormat
    public let audio: Bool
}

/// Runs a `SegmentJoin`: decode every segment, scale into the first one's format, encode once, and prove
/// the result holds every encoded frame and decodes completely (`SegmentJoinProof`) before it takes its
/// name and (unless kept) the segments are removed.
///
/// Thread: any, synchronous: it blocks for the join's length, so a run calls it on a thread of its own.
public enum SegmentJoiner {
    /// The facts of a take file, or an input error saying what is wrong with it.
    public static func facts(_ path: String) throws(DuoError) -> MediaFacts {
        GStreamer.initialize()
        try InputFile.requireRegular(path, "segment", hint: "give the segment files of one take (.mkv or .mp4), in order")
        return try MediaDiscovery.withInfo(path, unreadable: { .input("\(path) \($0); give the segment files of one take") }) { info throws(DuoError) in
            let audio = gst_discoverer_info_get_audio_streams(info)
            let hasAudio = g_list_length(audio) > 0
            gst_discoverer_stream_info_list_free(audio)
            let videos = gst_discoverer_info_get_video_streams(info)
            defer { gst_discoverer_stream_info_list_free(videos) }
            guard let first = videos?.pointee.data else { throw .input("\(path) has no video; give the segment files of one take") }
            let video = OpaquePointer(first)
            let width = Int(gst_discoverer_video_info_get_width(video)), height = Int(gst_discoverer_video_info_get_height(video))
            let num = Int(gst_discoverer_video_info_get_framerate_num(video)), den = Int(gst_discoverer_video_info_get_framerate_denom(video))
            guard width > 0, height > 0, num > 0, den > 0 else { throw .input("\(path) does not say its picture size and rate") }
            return MediaFacts(duration: Int64(gst_discoverer_info_get_duration(info)),
                              format: VideoFormat(width: width, height: height, frameRate: FrameRate(num, den)), audio: hasAudio)
        }
    }

    /// Joins, reporting progress (0…1) now and then; returns what decoding the joined file found. On any
    /// failure the segments are untouched and the partial file removed. A kill leaves the segments and
    /// the journal (the next start offers the join again).
    /// `known`: the segments' facts when the caller has read them already (each read opens the file).
    public static func run(_ join: SegmentJoin, library: PipelineLibrary, known: [MediaFacts]? = nil, timeoutSeconds: Double = 3600,
                           progress: (Double) -> Void = { _ in }) throws(DuoError) -> DecodedMedia {
        GStreamer.initialize()
        var total: Int64 = 0
        if let known, known.count == join.segments.count {
            total = known.reduce(0) { $0 + max(0, $1.duration) }
        } else {
            for segment in join.segments { total += max(0, try facts(segment).duration) }
        }
        let description = try join.description(library: library)
        for element in GStreamer.elementNames(in: description) where !GStreamer.hasElement(element) {
            throw ElementPackages.missingElementError(element, neededFor: "joining a take's segments")
        }
        try join.writeJournal()
        try? FileManager.default.removeItem(atPath: join.partial)
        func fail(_ error: DuoError) -> DuoError {
            try? FileManager.default.removeItem(atPath: join.partial)
            join.removeJournal()
            return error
        }
        let pipeline: ElementRef
        do { pipeline = try CaptureSession.parse(description) } catch { throw fail(error) }
        guard let pad = pipeline.child(.joinCaps)?.staticPad("src"), let encodedPad = pipeline.child(.joinEncoded)?.staticPad("src") else {
            preconditionFailure("join.gst lacks join_caps or join_encoded (GraphElement checks them when rendering)")
        }
        let frames = FrameCounter(pad: pad)
        // What the muxer is given: the written file must hold exactly this.
        let encoded = StreamDigest(pad: encodedPad)
        let expected = max(1, Double(total) / Double(join.format.frameRate.frameDurationNanoseconds))
        var outcome: String?
        do {
            defer { pipeline.setState(GST_STATE_NULL) }
            pipeline.setState(GST_STATE_PLAYING)
            let bus = gst_element_get_bus(pipeline.pointer)!
            defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
            let deadline = GStreamer.monotonicMicros() + Int64(timeoutSeconds * 1e6)
            let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
            progress(0)
            while true {
                guard GStreamer.monotonicMicros() < deadline else { outcome = "did not finish within \(Int(timeoutSeconds)) s"; break }
                if let message = gst_bus_timed_pop_filtered(bus, GstClockTime(250_000_000), types) {
                    defer { gst_message_unref(message) }
                    if duo_message_type(message) == GST_MESSAGE_ERROR {
                        var error: UnsafeMutablePointer<GError>? = nil
                        gst_message_parse_error(message, &error, nil)
                        outcome = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                        if let error { g_error_free(error) }
                    }
                    break
                }
                progress(min(0.99, Double(frames.read().frames) / expected))
            }
        }
        if let outcome { throw fail(.runtime("joining \(join.segments.count) segments into \(join.output) failed: \(outcome); the segments are kept")) }
        // The joined file counts only once it is proved to hold every frame the encoder gave, byte for
        // byte, and every one of them decodes (SegmentJoinProof): one sequential pass over the file.
        let check: JoinedFileCheck.Result
        do { check = try JoinedFileCheck.read(join.partial, audio: join.audio, timeoutSeconds: max(60, Double(total) / 1e9 * 4)) } catch {
            throw fail(.runtime("the joined file \(join.partial) does not decode (\(error.message)); the segments are kept"))
        }
        let proof = SegmentJoinProof(pictures: frames.read().frames, encoded: encoded.read(), stored: check.stored,
                                     decoded: check.decoded.video.frames, audio: join.audio, decodedAudio: check.decoded.audio.frames,
                                     duration: check.decoded.duration, frameInterval: join.format.frameRate.frameDurationNanoseconds)
        if let problem = proof.problem { throw fail(.runtime("the joined file \(join.partial) \(problem); the segments are kept")) }
        let decoded = check.decoded
        do {
            try? FileManager.default.removeItem(atPath: join.output)
            try FileManager.default.moveItem(atPath: join.partial, toPath: join.output)
        } catch {
            throw fail(.runtime("cannot name the joined file \(join.output): \(error.localizedDescription); the segments are kept"))
        }
        if !join.keepSegments {
            for segment in join.segments {
                try? FileManager.default.removeItem(atPath: segment)
                try? FileManager.default.removeItem(atPath: TakeSidecar.path(forTake: segment))
            }
        }
        join.removeJournal()
        progress(1)
        return decoded
    }
}
