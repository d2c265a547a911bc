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

/// What a join made: the joined file as decoding it found it, and what pacing each segment to the joined
/// rate did (frames repeated for a slower camera, dropped for a faster one; in all).
///
/// Thread: value type, Sendable.
public struct JoinOutcome: Sendable {
    public let decoded: DecodedMedia
    public let repeatedFrames: Int64
    public let droppedFrames: Int64
    /// The joined take's sidecar, as written next to the joined file (JoinedSidecar).
    public let sidecar: TakeSidecar
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
        try InputFile.requireRegular(path, .text("segment"), hint: .text("give the segment files of one take (.mkv or .mp4), in order"))
        return try MediaDiscovery.withInfo(path, unreadable: { .input(.text("%s %s; give the segment files of one take", path, $0)) }) { info throws(DuoError) in
            let audio = gst_discoverer_info_get_audio_streams(info)
            let hasAudio = g_list_length(audio) > 0
            gst_discoverer_stream_info_list_free(audio)
            let videos = gst_discoverer_info_get_video_streams(info)
            defer { gst_discoverer_stream_info_list_free(videos) }
            guard let first = videos?.pointee.data else { throw .input(.text("%s has no video; give the segment files of one take", path)) }
            let video = OpaquePointer(first)
            let width = Int(gst_discoverer_video_info_get_width(video)), height = Int(gst_discoverer_video_info_get_height(video))
            let num = Int(gst_discoverer_video_info_get_framerate_num(video)), den = Int(gst_discoverer_video_info_get_framerate_denom(video))
            guard width > 0, height > 0, num > 0, den > 0 else { throw .input(.text("%s does not say its picture size and rate", path)) }
            return MediaFacts(duration: Int64(gst_discoverer_info_get_duration(info)),
                              format: VideoFormat(width: width, height: height, frameRate: FrameRate(num, den)), audio: hasAudio)
        }
    }

    /// Joins, reporting progress (0…1) now and then; returns what decoding the joined file found. On any
    /// failure the segments are untouched and the partial file removed. A kill leaves the segments and
    /// the journal (the next start offers the join again).
    /// `known`: the segments' facts when the caller has read them already (each read opens the file).
    /// `take`: the take's number for the joined sidecar (nil: the first segment's sidecar's); `toolVersion`:
    /// for a joined sidecar made when no segment has one.
    public static func run(_ join: SegmentJoin, library: PipelineLibrary, known: [MediaFacts]? = nil, timeoutSeconds: Double = 3600,
                           take: Int? = nil, toolVersion: String = "",
                           progress: (Double) -> Void = { _ in }) throws(DuoError) -> JoinOutcome {
        GStreamer.initialize()
        var segmentFacts: [MediaFacts] = []
        if let known, known.count == join.segments.count { segmentFacts = known } else {
            for segment in join.segments { segmentFacts.append(try facts(segment)) }
        }
        let total = segmentFacts.reduce(Int64(0)) { $0 + max(0, $1.duration) }
        // The segments' own sidecars, read before they go: the joined take's sidecar is made from them.
        let segmentSidecars = join.segments.map { segment -> TakeSidecar? in
            let path = TakeSidecar.path(forTake: segment)
            return FileManager.default.fileExists(atPath: path) ? try? TakeSidecar.read(path) : nil
        }
        let description = try join.description(library: library)
        try JobGraph.requireElements(description, neededFor: tr("joining a take's segments"))
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
        // The concat's output as one timeline, paced as one by join.gst's videorate (duo_probes.h): where a
        // slower camera's segment meets the next, its last frame is repeated up to it, never cut short.
        if let concatSource = pipeline.child(.joinVideo)?.staticPad("src") { duo_flatten_segments(concatSource.pointer) }
        let rate = pipeline.child(.joinRate)
        // What the muxer is given: the written file must hold exactly this.
        let encoded = StreamDigest(pad: encodedPad)
        let expected = max(1, Double(total) / Double(join.format.frameRate.frameDurationNanoseconds))
        var outcome: Said?
        var repeated: Int64 = 0, dropped: Int64 = 0
        do {
            defer { pipeline.setState(GST_STATE_NULL) }
            pipeline.setState(GST_STATE_PLAYING)
            let deadline = GStreamer.monotonicMicros() + Int64(timeoutSeconds * 1e6)
            let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
            progress(0)
            let ended = PipelineBus(pipeline).read(types, until: deadline, poll: 0.25,
                                                   idle: { progress(min(0.99, Double(frames.read().frames) / expected)) }) { message in
                if message.type == GST_MESSAGE_ERROR { outcome = message.problem.map { Said(verbatim: $0.message) } ?? .text("unknown error") }
                return false
            }
            if !ended { outcome = .text("did not finish within %s s", Int(timeoutSeconds)) }
            // What the rate conversion did (join.gst's videorate), read before the graph stops.
            repeated = Int64(clamping: rate?.uint64("duplicate") ?? 0)
            dropped = Int64(clamping: rate?.uint64("drop") ?? 0)
        }
        if let outcome { throw fail(.runtime(.text("joining %s segments into %s failed: %s; the segments are kept", join.segments.count, join.output, outcome))) }
        // The joined file counts only once it is proved to hold every frame the encoder gave, byte for
        // byte, and every one of them decodes (SegmentJoinProof): one sequential pass over the file.
        let check: JoinedFileCheck.Result
        do { check = try JoinedFileCheck.read(join.partial, audio: join.audio, timeoutSeconds: max(60, Double(total) / 1e9 * 4)) } catch {
            throw fail(.runtime(.text("the joined file %s does not decode (%s); the segments are kept", join.partial, error.said)))
        }
        let proof = SegmentJoinProof(pictures: frames.read().frames, encoded: encoded.read(), stored: check.stored,
                                     decoded: check.decoded.video.frames, audio: join.audio, decodedAudio: check.decoded.audio.frames,
                                     duration: check.decoded.duration, frameInterval: join.format.frameRate.frameDurationNanoseconds)
        if let problem = proof.problem { throw fail(.runtime(.text("the joined file %s %s; the segments are kept", join.partial, problem))) }
        let decoded = check.decoded
        let interval = join.format.frameRate.frameDurationNanoseconds
        let segments = zip(join.segments, zip(segmentSidecars, segmentFacts)).map { path, known in
            JoinedSidecar.Segment(name: (path as NSString).lastPathComponent, sidecar: known.0, format: known.1.format,
                                  durationSeconds: Double(max(0, known.1.duration)) / 1e9)
        }
        let sidecar = JoinedSidecar.make(segments, file: (join.output as NSString).lastPathComponent, format: join.format,
                                         frames: decoded.video.frames, durationSeconds: Double(decoded.video.frames) * Double(interval) / 1e9,
                                         audioBuffers: join.audio ? decoded.audio.frames : nil, repeated: repeated, dropped: dropped,
                                         segmentsKept: join.keepSegments, take: take, toolVersion: toolVersion,
                                         gstreamerVersion: GStreamer.version, encoder: join.encoder.element, container: join.container.element)
        if join.replaceOutput {
            do {
                try? FileManager.default.removeItem(atPath: join.output)
                try FileManager.default.moveItem(atPath: join.partial, toPath: join.output)
            } catch {
                throw fail(.runtime(.text("cannot name the joined file %s: %s; the segments are kept", join.output, error.localizedDescription)))
            }
        } else {
            // Put in place only where nothing is (a hard link fails on an existing name): never replaces a file.
            guard link(join.partial, join.output) == 0 else {
                let reason = errno == EEXIST ? Said.text("a file appeared under that name meanwhile (it is kept); join again")
                    : Said(verbatim: String(cString: strerror(errno)))
                throw fail(.runtime(.text("cannot name the joined file %s: %s; the segments are kept", join.output, reason)))
            }
            unlink(join.partial)
        }
        // The take's sidecar before the segments' go: at every moment one of them tells the take.
        do { try sidecar.write(nextTo: join.output) } catch {
            try? FileManager.default.removeItem(atPath: join.output)
            throw fail(.runtime(.text("%s; the segments are kept", error.said)))
        }
        if !join.keepSegments {
            for segment in join.segments {
                try? FileManager.default.removeItem(atPath: segment)
                try? FileManager.default.removeItem(atPath: TakeSidecar.path(forTake: segment))
            }
        }
        join.removeJournal()
        progress(1)
        return JoinOutcome(decoded: decoded, repeatedFrames: repeated, droppedFrames: dropped, sidecar: sidecar)
    }
}
