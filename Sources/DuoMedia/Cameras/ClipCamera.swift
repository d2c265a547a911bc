import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  `--camera file:PATH`: a video clip played live as a camera. The clip plays in a pipeline of its own
//  (Pipelines/camera-file-player.gst), paced by its sink at the clip's own frame rate and looped by
//  seeking back to the start when a pass ends; the capture graph's source (camera-file.gst) is a live
//  inter-video source clocked by the capture graph, so a take, a swap or a stall never touches the file.
//  The capture session starts the players before its graph plays and stops them with it
//  (CaptureSession+Cameras.swift).

/// Probes clips and plays them as cameras.
///
/// Thread: `probe` on any thread (synchronous); a `ClipCamera` is owned by the capture session's actor,
/// its bus is read on a thread of its own (started by `start`, joined by `stop`).
public final class ClipCamera: Sendable {
    /// A clip's one mode: its picture size and frame rate, probed from the file's headers.
    ///
    /// The file must be a regular, readable file with a video stream that is not a still image; a clip
    /// whose frame rate is not recorded (variable rate) plays at 30 fps.
    public static func probe(_ path: String) throws(DuoError) -> CameraProfile.Mode {
        GStreamer.initialize()
        let hint = Said.text("give a video clip such as --camera file:rehearsal.mp4 (any container and codec GStreamer plays)")
        try InputFile.requireRegular(path, .text("camera clip"), hint: hint)
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .input(.text("camera clip %s is not readable; check its permissions, or %s", path, hint))
        }
        return try MediaDiscovery.withInfo(path, unreadable: { .input(.text("camera clip %s %s; %s", path, $0, hint)) }) { info throws(DuoError) in
            let streams = gst_discoverer_info_get_video_streams(info)
            defer { gst_discoverer_stream_info_list_free(streams) }
            guard let first = streams?.pointee.data else {
                throw .input(.text("camera clip %s has no video stream; %s", path, hint))
            }
            let video = OpaquePointer(first)
            guard gst_discoverer_video_info_is_image(video) == 0 else {
                throw .input(.text("camera clip %s is a still image, not a video; %s", path, hint))
            }
            let width = Int(gst_discoverer_video_info_get_width(video)), height = Int(gst_discoverer_video_info_get_height(video))
            let num = Int(gst_discoverer_video_info_get_framerate_num(video)), den = Int(gst_discoverer_video_info_get_framerate_denom(video))
            guard width >= 2, height >= 2 else { throw .input(.text("camera clip %s has no picture size; %s", path, hint)) }
            let rate = num > 0 && den > 0 ? FrameRate(num, den) : FrameRate(30)
            // Even sizes, as every branch's 4:2:0 needs: an odd clip is scaled by a pixel.
            return CameraProfile.Mode(pixelFormat: "I420", format: VideoFormat(width: width & ~1, height: height & ~1, frameRate: rate))
        }
    }

    private let pipeline: ElementRef
    private let path: String
    /// The player's bus reader while it plays (started by `start`), and whether it was told to stop.
    private let reader = Locked<(thread: BusThread?, stopped: Bool)>((nil, false))
    /// Told once when the player fails after it started (the camera then shows black, as a camera that
    /// gave up would): the session turns it into a warning.
    private let onFailure: @Sendable (String) -> Void

    /// Builds the player for `description` (GraphPlan.clipPlayerDescription); nothing plays yet.
    init(description: String, path: String, onFailure: @escaping @Sendable (String) -> Void) throws(DuoError) {
        pipeline = try JobGraph.parse(description, neededFor: tr("playing a clip as a camera (--camera file:PATH)"))
        self.path = path
        self.onFailure = onFailure
    }

    /// Prerolls the clip (its first frame decoded), arms the loop and plays it. A clip that cannot be
    /// decoded is an input error naming it.
    func start(timeout seconds: Double = 10) throws(DuoError) {
        pipeline.setState(GST_STATE_PAUSED)
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(pipeline.pointer, &current, &pending, GstClockTime(seconds * 1e9))
        guard result != GST_STATE_CHANGE_FAILURE, result != GST_STATE_CHANGE_ASYNC else {
            let why = Self.firstError(pipeline).map(Said.init(verbatim:))
                ?? (result == GST_STATE_CHANGE_ASYNC ? Said.text("no frame within %s s", Int(seconds)) : Said.text("it does not decode"))
            pipeline.setState(GST_STATE_NULL)
            throw .input(.text("camera clip %s cannot be played as a camera: %s; give a video clip GStreamer plays (check it with gst-play-1.0)", path, why))
        }
        // A segment seek: each pass ends with SEGMENT_DONE rather than EOS, and the next pass is queued
        // without a flush, so the loop has no gap.
        _ = Self.seek(pipeline, flush: true)
        pipeline.setState(GST_STATE_PLAYING)
        // The player's bus: a pass that ended starts the next one; an error stops the player (said once).
        let pipeline = pipeline, path = path, onFailure = onFailure
        let kinds = GstMessageType(rawValue: GST_MESSAGE_SEGMENT_DONE.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        let thread = BusThread(PipelineBus(pipeline), name: "duo-capture clip", kinds: kinds) { message in
            switch message.type {
            case GST_MESSAGE_SEGMENT_DONE:
                // The next pass, queued behind this one.
                if !Self.seek(pipeline, flush: false) { _ = Self.seek(pipeline, flush: true) }
                return true
            case GST_MESSAGE_EOS:
                // A demuxer that cannot loop by segments ends the stream: start again from the top.
                _ = Self.seek(pipeline, flush: true)
                return true
            default:
                pipeline.setState(GST_STATE_NULL)
                onFailure("camera clip \(path) stopped playing: \(message.problem?.message ?? "unknown error")")
                return false
            }
        }
        reader.update { $0.thread = thread }
    }

    @discardableResult
    private static func seek(_ pipeline: ElementRef, flush: Bool) -> Bool {
        var flags = GST_SEEK_FLAG_SEGMENT.rawValue
        if flush { flags |= GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue }
        return gst_element_seek(pipeline.pointer, 1.0, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags),
                                GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_NONE, -1) != 0
    }

    /// Starts a player for each of `plan`'s cameras that is a clip, before the capture graph plays (each
    /// prerolls its first frame, so a clip that cannot be played is an error naming it, before anything
    /// runs; the players already started are stopped then). `warn` hears a player that fails later.
    static func startAll(for plan: GraphPlan, warn: @escaping @Sendable (String) -> Void) throws(DuoError) -> [ClipCamera] {
        let cameras = [plan.camera] + (plan.secondCamera.map { [$0] } ?? [])
        var started: [ClipCamera] = []
        for index in cameras.indices {
            guard let description = try plan.clipPlayerDescription(camera: index),
                  case .file(let path, _, _) = cameras[index] else { continue }
            do throws(DuoError) {
                let clip = try ClipCamera(description: description, path: path, onFailure: warn)
                try clip.start()
                started.append(clip)
            } catch {
                for clip in started { clip.stop() }
                throw error
            }
        }
        return started
    }

    /// Stops the player and its thread. Idempotent.
    func stop() {
        let (first, thread) = reader.update { r -> (Bool, BusThread?) in
            defer { r.stopped = true; r.thread = nil }
            return (!r.stopped, r.thread)
        }
        guard first else { return }
        thread?.cancel()
        pipeline.setState(GST_STATE_NULL)
    }

    deinit { stop() }

    /// The first error waiting on a pipeline's bus, if any.
    private static func firstError(_ pipeline: ElementRef) -> String? {
        PipelineBus(pipeline).pop(GST_MESSAGE_ERROR, within: 0)?.problem?.message
    }
}
