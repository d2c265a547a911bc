import DuoCore
import DuoMedia
import Foundation

/// Turns parsed options into a ready-to-build graph plan: resolves the camera, probes its formats, picks
/// the encoder and checks the record folder, so every problem is reported before anything starts.
///
/// Thread: main thread at start-up; synchronous.
struct SessionSetup {
    let plan: GraphPlan
    let recordDirectory: String?
    /// One-line notices for the user (fallbacks taken).
    let notices: [String]
    /// Held while this setup lives: a real camera belongs to one duo-capture at a time.
    let cameraLock: CameraLock?
    let secondCameraLock: CameraLock?

    static func prepare(_ options: Options) throws(DuoError) -> SessionSetup {
        GStreamer.initialize()
        var notices: [String] = []
        let library = try PipelineLibrary.locate(override: options.pipelinesDirectory)
        // A real camera is locked before it is opened, so a second duo-capture hears who owns it rather
        // than V4L2's "device busy".
        var lock: CameraLock?
        if case .v4l2(let device) = options.source, FileManager.default.fileExists(atPath: device) {
            lock = try CameraLock(device: device)
        }
        // --rotate turns a camera upright, once, in its source chain (before any format is chosen).
        func rotated(_ source: CameraSource, _ index: Int) -> CameraSource {
            guard index < options.cameraRotations.count, let degrees = options.cameraRotations[index] else { return source }
            return source.rotated(degrees)
        }
        let camera = rotated(try resolveCamera(options.source, notices: &notices), 0)
        if lock == nil, case .v4l2(let device, _, _) = camera { lock = try CameraLock(device: device) }
        var secondCamera: CameraSource?
        var secondLock: CameraLock?
        if let choice = options.secondSource {
            if case .v4l2(let device) = choice, FileManager.default.fileExists(atPath: device) {
                secondLock = try CameraLock(device: device)
            }
            // "auto" never reaches here: a second camera is always named.
            secondCamera = rotated(try resolveCamera(choice, notices: &notices), 1)
        }
        let encoder = try chooseEncoder(options.encoder)
        let audio = try resolveAudio(options.audio, recording: options.record, notices: &notices)
        var plan = try GraphPlan(library: library, camera: camera, secondCamera: secondCamera,
                                 individual: options.cameraMode == .individual, requested: options.format, minimumRate: options.minimumRate,
                                 aspect: options.aspect, encoder: encoder, container: options.container, audio: audio)
        // Whose face each camera sees: --faces, else a simulated camera's profile, else the subject's.
        let sources = [camera] + (secondCamera.map { [$0] } ?? [])
        plan.faces = sources.enumerated().map { i, source in
            if i < options.cameraFaces.count, let given = options.cameraFaces[i] { return given }
            if case .simulated(let profile) = source, let faces = profile.faces { return faces }
            return .theSubject
        }
        plan.operatorMirrorChoice = options.mirrorPreview
        plan.sinks = options.headless || options.command != .run ? .headless : .desktop
        try plan.validate()
        var dir: String?
        if options.record {
            dir = try prepareRecordDirectory(options.recordDirectory)
        }
        return SessionSetup(plan: plan, recordDirectory: dir, notices: notices, cameraLock: lock, secondCameraLock: secondLock)
    }

    static func resolveCamera(_ choice: Options.SourceChoice, notices: inout [String],
                              discover: () -> [DiscoveredCamera] = CameraDiscovery.list) throws(DuoError) -> CameraSource {
        switch choice {
        case .testSource:
            return .testSource
        case .v4l2(let device):
            guard FileManager.default.fileExists(atPath: device) else {
                throw .usage("camera \(device) does not exist; list cameras with: duo-capture cameras")
            }
            return .v4l2(device: device, modes: try CameraDiscovery.probeV4L2(device))
        case .profile(let nameOrPath):
            return .simulated(try loadProfile(nameOrPath))
        case .auto:
            if let camera = discover().first(where: { $0.devicePath != nil }), let path = camera.devicePath {
                return .v4l2(device: path, modes: try CameraDiscovery.probeV4L2(path))
            }
            let inner = try loadProfile("inner")
            notices.append("no camera found; using the simulated inner camera (--camera inner)")
            return .simulated(inner)
        }
    }

    /// `--audio auto` takes the desktop's default input when there is one, and records without audio
    /// when there is none (saying so when a take is to be recorded); a user's description must parse.
    static func resolveAudio(_ choice: Options.AudioChoice, recording: Bool, notices: inout [String]) throws(DuoError) -> AudioSource {
        switch choice {
        case .none: return .none
        case .test: return .test
        case .auto:
            guard GStreamer.hasElement("autoaudiosrc"), GStreamer.hasAudioInput() else {
                if recording {
                    notices.append("no audio input found; recording without sound (--audio test for a test tone, --audio none to silence this)")
                }
                return .none
            }
            return .device
        case .description(let d):
            if let problem = GStreamer.parseProblem(d) {
                throw .usage("--audio \"\(d)\" is not a GStreamer source description: \(problem); try --audio \"pulsesrc\" or --audio test")
            }
            return .custom(d)
        }
    }

    static func loadProfile(_ nameOrPath: String) throws(DuoError) -> CameraProfile {
        var path = nameOrPath
        if nameOrPath == "inner" || nameOrPath == "outer" {
            let assets = try ResourceLocator.find("Assets", marker: "cameras/inner.json")
            path = "\(assets)/cameras/\(nameOrPath).json"
        }
        try InputFile.requireRegular(path, "camera profile", hint: "give a JSON file like Assets/cameras/inner.json")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input("camera profile \(path) cannot be read; check its permissions")
        }
        return try CameraProfile.parse(data, source: path)
    }

    /// The forced encoder if installed, else the best installed one. VA-API only counts with a render node.
    static func chooseEncoder(_ forced: EncoderChoice?) throws(DuoError) -> EncoderChoice {
        if let forced {
            guard GStreamer.hasElement(forced.element) else {
                throw ElementPackages.missingElementError(forced.element, neededFor: "--encoder \(forced.rawValue)")
            }
            return forced
        }
        let hasVADevice = FileManager.default.fileExists(atPath: "/dev/dri/renderD128")
        for choice in EncoderChoice.allCases where GStreamer.hasElement(choice.element) {
            if choice == .vaapih264 && !hasVADevice { continue }
            return choice
        }
        throw .dependency("no H.264 encoder is installed; install one with: sudo apt-get install gstreamer1.0-plugins-ugly (x264) or gstreamer1.0-plugins-bad (openh264)")
    }

    /// Creates the folder if needed and proves it is writable, before the first take.
    static func prepareRecordDirectory(_ requested: String?) throws(DuoError) -> String {
        let dir = requested ?? defaultRecordDirectory()
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: dir, isDirectory: &isDir) {
            guard isDir.boolValue else { throw .usage("--record-dir \(dir) is a file, not a folder; give a folder") }
        } else {
            do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw .usage("cannot create the record folder \(dir); give a writable --record-dir")
            }
        }
        let probe = (dir as NSString).appendingPathComponent(".duo-capture-write-test-\(getpid())")
        guard fm.createFile(atPath: probe, contents: Data("ok".utf8)) else {
            throw .usage("the record folder \(dir) is not writable; give a writable --record-dir")
        }
        try? fm.removeItem(atPath: probe)
        return dir
    }

    /// `$XDG_VIDEOS_DIR` (also read from ~/.config/user-dirs.dirs), else ~/Videos; plus /duo-capture.
    static func defaultRecordDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        let home = env["HOME"] ?? NSHomeDirectory()
        var videos = env["XDG_VIDEOS_DIR"]
        if videos == nil, let text = try? String(contentsOfFile: "\(env["XDG_CONFIG_HOME"] ?? "\(home)/.config")/user-dirs.dirs", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_VIDEOS_DIR=") {
                videos = line.dropFirst("XDG_VIDEOS_DIR=".count)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    .replacingOccurrences(of: "$HOME", with: home)
            }
        }
        return ((videos ?? "\(home)/Videos") as NSString).appendingPathComponent("duo-capture")
    }
}
