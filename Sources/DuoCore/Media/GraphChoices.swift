import Foundation

//  What a graph is built from, chosen before it exists: the Pipelines/ library, where frames and sound
//  come from, the encoder and container, and the voice model's files. GraphPlan composes them.

/// The Pipelines/ folder: loads and renders branch descriptions.
///
/// Thread: immutable after init; any thread.
public struct PipelineLibrary: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public static func locate(override: String? = nil) throws(DuoError) -> PipelineLibrary {
        PipelineLibrary(directory: try ResourceLocator.find("Pipelines", marker: "record.gst", override: override))
    }

    public func template(_ name: String) throws(DuoError) -> PipelineTemplate {
        let path = (directory as NSString).appendingPathComponent("\(name).gst")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(.text("pipeline file %s is missing or unreadable; restore it from the duo-capture sources", path))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .input(.text("pipeline file %s is not UTF-8 text; restore it from the duo-capture sources", path))
        }
        return PipelineTemplate(name: path, text: text)
    }

    /// Renders `name.gst`. A file that lacks an element the code looks up by name (GraphElement) is an
    /// input error naming both, never a crash later on.
    public func render(_ name: String, _ values: [String: String]) throws(DuoError) -> String {
        let template = try template(name)
        let rendered = try template.render(values)
        for element in GraphElement.required(inFile: name) where !GraphElement.defines(template.body, element) {
            throw .input(.text("pipeline file %s must name an element %s (duo-capture looks it up by that name); restore it from the duo-capture sources", template.name, element))
        }
        return rendered
    }
}

/// Where frames come from.
///
/// Thread: value type, Sendable; decided at start-up, read by the session actor.
public enum CameraSource: Sendable, Equatable {
    /// `--source videotestsrc`: any format, no profile.
    case testSource
    /// `--camera profile:FILE`: a simulated camera limited to the profile's modes.
    case simulated(CameraProfile)
    /// `--camera v4l2:/dev/videoN`, with modes probed from the device, and `--rotate` (degrees clockwise
    /// to turn its picture upright: a camera mounted sideways or upside down).
    case v4l2(device: String, modes: [CameraProfile.Mode], rotation: Int = 0)
    /// `--camera file:PATH`: a video clip played live as a camera, looped, at its own size and frame rate
    /// (its one mode, probed from the file).
    case file(path: String, mode: CameraProfile.Mode, rotation: Int = 0)
    /// A camera through PipeWire (pipewiresrc `target-object=TARGET`, the node's name) or libcamera
    /// (libcamerasrc `camera-name=TARGET`), with the modes the device monitor listed (`CameraDeviceMapping`).
    /// `name` is the camera's display name.
    case service(stack: CameraStack, target: String, name: String, modes: [CameraProfile.Mode], rotation: Int = 0)

    public var label: String {
        switch self {
        case .service(let stack, let target, let name, _, _):
            name == target ? "\(name) (\(stack.displayName))" : "\(name) (\(stack.displayName) \(target))"
        case .testSource: "videotestsrc"
        case .simulated(let p): "\(p.name) (simulated, \(p.id))"
        case .v4l2(let device, _, _): device
        case .file(let path, _, _): "file:\(path)"
        }
    }

    public var modes: [CameraProfile.Mode]? {
        switch self {
        case .testSource: nil
        case .simulated(let p): p.modes
        case .v4l2(_, let modes, _): modes
        case .file(_, let mode, _): [mode]
        case .service(_, _, _, let modes, _): modes
        }
    }

    public var rotation: Int {
        switch self {
        case .simulated(let p): p.rotation
        case .v4l2(_, _, let rotation): rotation
        case .file(_, _, let rotation): rotation
        case .service(_, _, _, _, let rotation): rotation
        case .testSource: 0
        }
    }

    /// The same camera turned `degrees` clockwise (0, 90, 180, 270) to be upright (`--rotate`).
    public func rotated(_ degrees: Int) -> CameraSource {
        switch self {
        case .testSource: self
        case .simulated(let p):
            .simulated(CameraProfile(id: p.id, name: p.name, rotation: degrees, testPattern: p.testPattern, modes: p.modes,
                                     depth: p.depth, faces: p.faces))
        case .v4l2(let device, let modes, _): .v4l2(device: device, modes: modes, rotation: degrees)
        case .file(let path, let mode, _): .file(path: path, mode: mode, rotation: degrees)
        case .service(let stack, let target, let name, let modes, _):
            .service(stack: stack, target: target, name: name, modes: modes, rotation: degrees)
        }
    }
}

/// The H.264 encoders duo-capture knows, best first.
///
/// Thread: value type, Sendable.
public enum EncoderChoice: String, Sendable, CaseIterable {
    case vaapih264, x264, openh264

    public var element: String {
        switch self {
        case .vaapih264: "vaapih264enc"
        case .x264: "x264enc"
        case .openh264: "openh264enc"
        }
    }
}

/// Thread: value type, Sendable.
public enum ContainerChoice: String, Sendable, CaseIterable {
    case mkv, mp4
    public var element: String { self == .mkv ? "matroskamux" : "mp4mux" }
    /// The audio codec each container gets: Opus in Matroska, AAC in MP4 (what players expect there).
    public var audioEncoderFile: String { self == .mkv ? "audio-encoder-opus" : "audio-encoder-aac" }
    public var audioEncoderElements: [String] { self == .mkv ? ["opusenc"] : ["avenc_aac", "aacparse"] }
}

/// Where a take's sound comes from (`--audio`). With `.none` the graph is exactly the video-only graph.
///
/// Thread: value type, Sendable.
public enum AudioSource: Sendable, Equatable {
    case none
    /// `audiotestsrc`, live: a quiet tone, for CI and benchmarks.
    case test
    /// `autoaudiosrc`: the desktop's default input.
    case device
    /// A GStreamer source description given by the user, such as `pulsesrc device=…`.
    case custom(String)
    /// `--audio file:PATH`: a recording played as a live microphone, paced in real time from the graph's
    /// start (rehearsals, and tests of voice-follow with a known reading).
    case file(String)
    /// `--audio NAME|id:NODE` (or the remembered one): a PipeWire source by its stable `node.name`. The
    /// graph mixes it over a live silence, so a microphone lost mid-take leaves silence in the take (never
    /// an ended sound track) and is taken back when it returns (`microphone.gst`, attached by the session).
    case microphone(node: String, label: String)

    /// The source part of the audio chain, in gst-launch syntax; nil for `.none`.
    public var sourceDescription: String? {
        switch self {
        case .none: nil
        // 10 ms buffers: a take's audio then starts within 10 ms of its video.
        case .test: "audiotestsrc name=audio_source is-live=true wave=sine freq=440 volume=0.3 samplesperbuffer=480"
        case .device: "autoaudiosrc name=audio_source"
        case .custom(let d): d
        case .file(let path):
            "filesrc location=\"\(Self.launchQuoted(path))\" ! decodebin ! audioconvert ! audioresample ! identity name=audio_source sync=true"
        // The microphone itself is a leg the session attaches to the mixer (and takes out when it is lost).
        case .microphone: Self.silenceAndMixer
        }
    }

    /// Text inside a double-quoted gst-launch value.
    public static func launchQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    public var label: String {
        switch self {
        case .none: "none"
        case .test: "audiotestsrc"
        case .device: "autoaudiosrc"
        case .custom(let d): d
        case .file(let path): "file \(path)"
        case .microphone(let node, let label): "microphone \(label) (id:\(node))"
        }
    }
}

/// The speech recogniser's three files for voice-follow: the acoustic model folder (from the
/// `pocketsphinx-en-us` package) and the language model and dictionary written from the script.
///
/// Thread: value type, Sendable.
public struct VoiceModelFiles: Sendable, Equatable {
    public var acousticModel: String
    public var languageModel: String
    public var dictionary: String
    public init(acousticModel: String, languageModel: String, dictionary: String) {
        self.acousticModel = acousticModel
        self.languageModel = languageModel
        self.dictionary = dictionary
    }
}
