/// The element names duo-capture looks up in the graph: the one contract between the code and the
/// gst-launch files in `Pipelines/` (a user's `--pipelines` folder must keep them). Each names the file
/// that defines it; the graph's own joints (`t`, `selector`) are written by the code itself.
///
/// Thread: value type, Sendable; pure.
public enum GraphElement: String, Sendable, CaseIterable {
    /// The video tee every branch hangs off (written by the code).
    case tee = "t"
    /// With two cameras, the selector that passes one (written by the code).
    case selector
    /// Camera A's source (`{{name}}` in the camera files; camera B's is `camera_b`: `forCamera(_:)`).
    case cameraSource = "camera"
    /// A camera's rotation, applied once in its chain (`{{name}}_rotate` in normalise.gst).
    case cameraRotate = "camera_rotate"
    /// The normalised camera's capsfilter (`{{name}}_caps` in normalise.gst, `camera_caps` for camera A).
    case cameraCaps = "camera_caps"
    case operatorSink = "operator_sink"
    /// The operator preview's mirror (the selfie convention, DirectionMap).
    case operatorMirror = "operator_mirror"
    /// The subject picture's mirror.
    case subjectMirror = "subject_mirror"
    /// The operator preview's size (desktop): the graph scales each frame once to the window's size.
    case operatorSize = "operator_size"
    case subjectValve = "subject_valve"
    /// Where the subject view is drawn into each frame.
    case subjectSink = "subject_sink"
    /// The subject picture's size: the subject monitor's (desktop) or the small headless view.
    case subjectSize = "subject_size"
    /// The subject picture's scaler: coarse while the view covers the picture (`setSubjectPictureShown`).
    case subjectScale = "subject_scale"
    /// The gtksink of the subject window (desktop).
    case subjectWindow = "subject_window"
    case audioTee = "at"
    case audioSink = "audio_sink"
    /// A named microphone's head (written by the code, GraphChoices): the live silence and the mixer the
    /// microphone's leg joins.
    case audioSilence = "audio_silence"
    case audioMixer = "audio_mixer"
    /// A named microphone's leg (microphone.gst, `{{name}}_source`, `{{name}}_queue`; attach G's:
    /// `forMicrophone(_:)`).
    case microphoneSource = "microphone_source"
    case microphoneQueue = "microphone_queue"
    case recordQueue = "record_queue"
    case recordSink = "record_sink"
    /// The take's muxer (muxer-mkv.gst, muxer-mp4.gst): the take's chapters are set on it.
    case recordMux = "record_mux"
    case recordAudioQueue = "record_audio_queue"
    /// The screen track (`--screen`): its source (screen-x11.gst), the tee a take's screen leg hangs
    /// off (written by the code), and the take's screen leg's first element (record-screen.gst).
    case screenSource = "screen_source"
    case screenTee = "st"
    case recordScreenQueue = "record_screen_queue"
    /// Voice-follow's recogniser (pocketsphinx) and its branch's ends.
    case recogniser
    case voiceQueue = "voice_queue"
    case voiceSink = "voice_sink"
    /// A remote display's branch (remote-subject.gst, `{{name}}_…`; display N's: `forRemote(_:)`): its
    /// first element, its last, and where the subject view is drawn.
    case remoteQueue = "remote_queue"
    case remoteSink = "remote_sink"
    case remoteView = "remote_view"
    /// The framing detectors' branch (framing.gst): its first element, the quick detector, the fine
    /// one (small faces, once a second), its last.
    case framingQueue = "framing_queue"
    case framingDetector = "framing_detector"
    case framingFineDetector = "framing_fine_detector"
    case framingSink = "framing_sink"
    /// The replay buffer's branches (replay.gst, replay-audio.gst): their first elements and appsinks;
    /// and the pipeline a save writes with (replay-write.gst; its sound's source is added by the code).
    case replayQueue = "replay_queue"
    case replaySink = "replay_sink"
    case replayAudioQueue = "replay_audio_queue"
    case replayAudioSink = "replay_audio_sink"
    case replayVideoSource = "replay_video_src"
    case replayAudioSource = "replay_audio_src"
    case replayMux = "replay_mux"
    case replayFile = "replay_file"
    /// `duo-capture display`'s window sink and decoder (display.gst).
    case displaySink = "display_sink"
    case displayDecoder = "display_decoder"
    /// The joined take's fixed caps (join.gst): its frames are the join's progress.
    case joinCaps = "join_caps"
    /// The joined take's encoded stream as it goes to the muxer (join.gst): its digest is what the
    /// written file must hold.
    case joinEncoded = "join_encoded"
    /// The segments' concat (join.gst): its output is made one timeline before the rate is paced.
    case joinVideo = "join_video"
    /// The joined take's videorate (join.gst): its counters are the frames repeated and dropped.
    case joinRate = "join_rate"

    /// The pipeline files (names without `.gst`) that must define this element, as it is spelled there.
    public var definedIn: [(file: String, spelled: String)] {
        switch self {
        case .tee, .selector, .audioSilence, .audioMixer, .replayAudioSource: []
        case .replayQueue, .replaySink: [("replay", rawValue)]
        case .replayAudioQueue, .replayAudioSink: [("replay-audio", rawValue)]
        case .replayVideoSource, .replayMux, .replayFile: [("replay-write", rawValue)]
        case .microphoneSource, .microphoneQueue: [("microphone", "{{name}}" + rawValue.dropFirst("microphone".count))]
        case .cameraSource: ["camera-test", "camera-v4l2-raw", "camera-v4l2-jpeg", "camera-file",
                              "camera-pipewire-raw", "camera-pipewire-jpeg", "camera-libcamera"].map { ($0, "{{name}}") }
        case .cameraRotate: [("normalise", "{{name}}_rotate")]
        case .cameraCaps: [("normalise", "{{name}}_caps")]
        case .operatorSink: [("operator-headless", rawValue), ("operator-desktop", rawValue)]
        case .subjectValve, .subjectSink: [("subject-headless", rawValue), ("subject-desktop", rawValue)]
        case .subjectWindow: [("subject-desktop", rawValue)]
        case .operatorSize: [("operator-desktop", rawValue)]
        case .operatorMirror: [("operator-mirror", rawValue), ("operator-desktop", rawValue)]
        case .subjectMirror: [("subject-headless", rawValue), ("subject-desktop", rawValue)]
        case .subjectSize, .subjectScale: [("subject-headless", rawValue), ("subject-desktop", rawValue)]
        case .audioTee, .audioSink: [("audio", rawValue)]
        case .recordQueue, .recordSink: [("record", rawValue)]
        case .recordAudioQueue: [("record-audio", rawValue)]
        case .screenSource: [("screen-x11", rawValue), ("screen-pipewire", rawValue)]
        case .screenTee: []
        case .recordScreenQueue: [("record-screen", rawValue)]
        case .recordMux: [("muxer-mkv", rawValue), ("muxer-mp4", rawValue)]
        case .recogniser, .voiceQueue, .voiceSink: [("voice-follow", rawValue)]
        case .remoteQueue, .remoteSink, .remoteView: [("remote-subject", "{{name}}" + rawValue.dropFirst("remote".count))]
        case .displaySink, .displayDecoder: [("display", rawValue)]
        case .framingQueue, .framingDetector, .framingFineDetector, .framingSink: [("framing", rawValue)]
        case .joinCaps, .joinEncoded, .joinVideo, .joinRate: [("join", rawValue)]
        }
    }

    /// Camera `index`'s element of this kind: camera A's is the raw value, camera B's has `camera_b` for
    /// `camera` (`camera_b`, `camera_b_rotate`, `camera_b_caps`).
    public func forCamera(_ index: Int) -> String {
        index == 0 ? rawValue : "camera_b" + rawValue.dropFirst("camera".count)
    }

    /// Remote display `index`'s branch name (`{{name}}` in remote-subject.gst), and its element of this kind.
    public static func remote(_ index: Int) -> String { "remote\(index)" }
    public func forRemote(_ index: Int) -> String { Self.remote(index) + rawValue.dropFirst("remote".count) }

    /// A named microphone's leg, attach `generation` (its bin's name, `{{name}}` in microphone.gst), and
    /// its element of this kind.
    public static func microphone(_ generation: Int) -> String { "microphone\(generation)" }
    public func forMicrophone(_ generation: Int) -> String { Self.microphone(generation) + rawValue.dropFirst("microphone".count) }

    /// The names (as spelled in the file) that the pipeline file `file` must define.
    public static func required(inFile file: String) -> [String] {
        allCases.flatMap { $0.definedIn.filter { $0.file == file }.map(\.spelled) }
    }

    /// Whether a gst-launch description gives some element the name `name` (`name=NAME`, unquoted).
    public static func defines(_ description: String, _ name: String) -> Bool {
        var rest = Substring(description)
        while let range = rest.range(of: "name=" + name) {
            let before = rest[..<range.lowerBound].last
            let after = rest[range.upperBound...].first
            if (before == nil || before!.isWhitespace) && (after == nil || after!.isWhitespace) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
