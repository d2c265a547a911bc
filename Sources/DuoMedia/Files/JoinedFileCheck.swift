import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  The segment join's proof that the joined file plays: the encoded stream's digest taken as the join's
//  graph hands it to the muxer, and one pass over the written file that demuxes it, digests what it holds
//  and decodes every frame. The file counts only if it holds exactly the frames the encoder gave (same
//  count, same bytes, same codec data) and every one of them decodes.
//
//  Why a pass after the join rather than a decoder teed off the encoder in the join's own graph: on two
//  cores the teed decoder cost 2.8-3.1 s of CPU for a 60 s 1080p30 join against 1.8-1.9 s for this pass
//  (it competes with x264's slice threads), and ended no sooner. Why a digest as well as the decode:
//  avdec_h264 conceals damaged data (it logs "error while decoding MB" and still outputs the frame), so
//  decoding alone cannot tell a damaged file from a good one.

/// A buffer probe that digests an encoded stream on a pad, in C on the streaming thread (see duo_digest.h).
/// The probe is removed when the token is released.
///
/// Thread: written by the streaming thread with atomics; `read()` is safe from any thread.
final class StreamDigest: Sendable {
    private let pad: PadRef
    private let storage: MTSafePointer<DuoStreamDigest>
    private let probeID: gulong

    init(pad: PadRef) {
        self.pad = pad
        storage = MTSafePointer(duo_stream_digest_new()!)
        probeID = duo_attach_stream_digest(pad.pointer, storage.raw)
    }

    func read() -> EncodedStreamFacts {
        var s = DuoStreamDigest()
        duo_stream_digest_snapshot(storage.raw, &s)
        return EncodedStreamFacts(frames: Int64(s.frames), bytes: Int64(s.bytes), digest: UInt64(s.digest),
                                  codecData: UInt64(s.codec_data), keyframes: Int64(s.keyframes))
    }

    deinit {
        gst_pad_remove_probe(pad.pointer, probeID)
        duo_stream_digest_unref(storage.raw)
    }
}

/// Reads a joined file back once: demux (digesting the video as stored), parse, decode every frame into a
/// fakesink, and decode the sound when there is one. The decoder threads by slices only: frame threads
/// cost a third more CPU for the same frames (1080p30 x264, two cores), while slices (x264's zerolatency
/// writes several a frame) decode side by side at no extra cost.
///
/// Thread: any; synchronous, owns its own short-lived pipeline.
enum JoinedFileCheck {
    struct Result {
        var stored: EncodedStreamFacts
        var decoded: DecodedMedia
    }

    static func read(_ path: String, audio: Bool, timeoutSeconds: Double) throws(DuoError) -> Result {
        // The sound gets a branch only when the join wrote one. output-corrupt=false: a frame the decoder
        // flags as corrupt is not counted as decoded.
        let description = JobGraph.takeReading(path, video: """
            demux.video_0 ! queue name=check_stored ! h264parse name=check_parse ! avdec_h264 thread-type=slice output-corrupt=false \
            ! video/x-raw ! fakesink name=check_video sync=false
            """, audio: audio, audioSink: "check_audio")
        let pipeline = try JobGraph.parse(description, neededFor: tr("checking a joined take"))
        guard let storedPad = pipeline.child(named: "check_stored")?.staticPad("sink"),
              let parsePad = pipeline.child(named: "check_parse")?.staticPad("src"),
              let videoPad = pipeline.child(named: "check_video")?.staticPad("sink"),
              let audioPad = pipeline.child(named: "check_audio")?.staticPad("sink") else {
            preconditionFailure("the joined file's check graph lacks its named elements")
        }
        let stored = StreamDigest(pad: storedPad)
        let encoded = FrameCounter(pad: parsePad)
        let video = FrameCounter(pad: videoPad)
        let sound = FrameCounter(pad: audioPad)
        defer { pipeline.setState(GST_STATE_NULL) }
        try JobGraph.run(pipeline, timeoutSeconds: timeoutSeconds,
                         timedOut: { .runtime(.text("reading it back did not finish within %s s", Int(timeoutSeconds))) },
                         failed: { .runtime($0) })
        // The length the container states, asked of the demuxer itself (a bin's answer is unknown as soon
        // as one of its sinks, such as the stand-in, does not know).
        var duration: gint64 = -1
        let known = gst_pad_peer_query_duration(storedPad.pointer, GST_FORMAT_TIME, &duration) != 0 && duration >= 0
        let (width, height) = MediaInspector.pictureSize(at: videoPad)
        let decoded = DecodedMedia(video: video.read(), encodedVideo: encoded.read(), audio: sound.read(),
                                   duration: known ? Int64(duration) : nil,
                                   width: width > 0 ? Int(width) : nil, height: height > 0 ? Int(height) : nil)
        return Result(stored: stored.read(), decoded: decoded)
    }
}
