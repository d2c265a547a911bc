import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// What decoding a recorded file back found.
///
/// Thread: value type, Sendable.
public struct DecodedMedia: Sendable {
    /// Decoded video frames and their timestamps.
    public let video: FrameCount
    /// Encoded video as it left the demuxer (keyframe flag of the first frame).
    public let encodedVideo: FrameCount
    public let audio: FrameCount
    /// Container duration, ns (nil if the file does not say).
    public let duration: Int64?
    public let width: Int?
    public let height: Int?
    /// The screen track (`--screen`: the second video stream), decoded too: its frames and size; nil
    /// without one.
    public var screen: FrameCount?
    public var screenSize: (width: Int, height: Int)?
}

/// Decodes a take completely (demux, parse, decode) as a player would, to prove it plays. Used by
/// `duo-capture` checks and by the tests.
///
/// Thread: any; synchronous, owns its own short-lived pipeline.
public enum MediaInspector {
    /// The width and height a pad's current caps state (0 where they do not).
    static func pictureSize(at pad: PadRef) -> (gint, gint) {
        var width: gint = 0, height: gint = 0
        if let caps = gst_pad_get_current_caps(pad.pointer) {
            if let s = gst_caps_get_structure(caps, 0) {
                gst_structure_get_int(s, "width", &width)
                gst_structure_get_int(s, "height", &height)
            }
            gst_caps_unref(caps)
        }
        return (width, height)
    }

    public static func decode(_ path: String, timeoutSeconds: Double = 60) throws(DuoError) -> DecodedMedia {
        GStreamer.initialize()
        try InputFile.requireRegular(path, .text("take"), hint: .text("give a .mkv or .mp4 take recorded by duo-capture"))
        // An MP4 cut short (its moov index lost) is said as such, not as a file without streams.
        if let cut = MP4Layout.problem(path) { throw .input(.text("%s %s", path, cut)) }
        // Only streams the file has get a branch (a stand-in sink keeps the name present otherwise).
        let streams = try streams(path)
        let hasAudio = streams.audio > 0
        let hasScreen = streams.video.count > 1
        let screenBranch = hasScreen ? "  demux.video_1 ! queue ! h264parse ! avdec_h264 ! video/x-raw ! fakesink name=screen_sink sync=false  " : ""
        let description = JobGraph.takeReading(path, video: """
            demux.video_0 ! queue ! h264parse name=parse ! avdec_h264 ! video/x-raw ! fakesink name=video_sink sync=false
            """ + screenBranch, audio: hasAudio, audioSink: "audio_sink")
        let pipeline = try JobGraph.parse(description, neededFor: "decoding takes")
        guard let videoPad = pipeline.child(named: "video_sink")?.staticPad("sink"),
              let parsePad = pipeline.child(named: "parse")?.staticPad("src"),
              let audioPad = pipeline.child(named: "audio_sink")?.staticPad("sink") else {
            preconditionFailure("inspector graph lacks its named elements")
        }
        let video = FrameCounter(pad: videoPad, sampleLuma: true)
        let encoded = FrameCounter(pad: parsePad)
        let audio = FrameCounter(pad: audioPad)
        let screenPad = pipeline.child(named: "screen_sink")?.staticPad("sink")
        let screen = screenPad.map { FrameCounter(pad: $0) }
        defer { pipeline.setState(GST_STATE_NULL) }
        try JobGraph.run(pipeline, timeoutSeconds: timeoutSeconds,
                         timedOut: { .runtime(.text("decoding %s did not finish within %s s", path, Int(timeoutSeconds))) },
                         failed: { .runtime(.text("%s does not decode: %s", path, $0)) })
        var duration: gint64 = -1
        let known = gst_element_query_duration(pipeline.pointer, GST_FORMAT_TIME, &duration) != 0 && duration >= 0
        let (width, height) = Self.pictureSize(at: videoPad)
        var decoded = DecodedMedia(video: video.read(), encodedVideo: encoded.read(), audio: audio.read(),
                                   duration: known ? Int64(duration) : nil,
                                   width: width > 0 ? Int(width) : nil, height: height > 0 ? Int(height) : nil)
        if let screenPad, let screen {
            decoded.screen = screen.read()
            let (w, h) = Self.pictureSize(at: screenPad)
            decoded.screenSize = (Int(w), Int(h))
        }
        return decoded
    }

    /// The file's streams, from GstDiscoverer (reads headers only, once): how many audio streams, and
    /// each video stream's picture size in the file's order (the camera's, then with `--screen` the
    /// screen track's).
    public static func streams(_ path: String) throws(DuoError) -> (audio: Int, video: [(width: Int, height: Int)]) {
        try MediaDiscovery.withInfo(path, unreadable: { .runtime(.text("%s %s", path, $0)) }) { info in
            let audio = gst_discoverer_info_get_audio_streams(info)
            defer { gst_discoverer_stream_info_list_free(audio) }
            let video = gst_discoverer_info_get_video_streams(info)
            defer { gst_discoverer_stream_info_list_free(video) }
            var sizes: [(width: Int, height: Int)] = []
            var node = video
            while let n = node {
                let stream = OpaquePointer(n.pointee.data)
                sizes.append((Int(gst_discoverer_video_info_get_width(stream)), Int(gst_discoverer_video_info_get_height(stream))))
                node = n.pointee.next
            }
            return (Int(g_list_length(audio)), sizes)
        }
    }

    /// Number of audio streams, from GstDiscoverer (reads headers only).
    static func audioStreamCount(_ path: String) throws(DuoError) -> Int { try streams(path).audio }
}
