import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

/// Turns parsed options into a ready-to-build graph plan: resolves the camera, probes its formats, picks
/// the encoder and checks the record folder, so every problem is reported before anything starts.
///
/// Thread: main thread at start-up; synchronous.
struct SessionSetup {
    let plan: GraphPlan
    let recordDirectory: String?
    /// One-line notices for the user (fallbacks taken).
    var notices: [String]
    /// Held while this setup lives: a real camera belongs to one duo-capture at a time.
    let cameraLock: CameraLock?
    let secondCameraLock: CameraLock?
    /// The SRT passphrase for remote displays (nil: none asked for, or --no-encryption).
    var remotePassphrase: String? = nil

    static func prepare(_ options: Options) throws(DuoError) -> SessionSetup {
        GStreamer.initialize()
        var notices: [String] = []
        // Which camera stacks the device monitor lists (PipeWire's, or libcamera's without a daemon).
        let stacks = CameraStacks.prepare()
        let pipeWireNotice = stacks.pipeWire
        if let refused = stacks.portal { notices.append(refused) }
        let library = try PipelineLibrary.locate(override: options.pipelinesDirectory)
        // --rotate turns a camera upright, once, in its source chain (before any format is chosen).
        func rotated(_ source: CameraSource, _ index: Int) -> CameraSource {
            guard index < options.cameraRotations.count, let degrees = options.cameraRotations[index] else { return source }
            return source.rotated(degrees)
        }
        // A real camera is locked before it is opened (inside resolveCamera), so a second duo-capture
        // hears who owns it rather than V4L2's "device busy".
        // The pixel formats a camera's chain takes: a mode outside them is never opened.
        let intake = CameraIntake.probe(library)
        let first = try resolveCamera(options.source, notices: &notices, intake: intake, pipeWireNotice: pipeWireNotice)
        // No camera, and PipeWire (where a desktop's cameras are) not running: say that too, once.
        if first.standIn, let pipeWireNotice { notices.append(pipeWireNotice) }
        let camera = rotated(first.source, 0)
        var secondCamera: CameraSource?
        var second: ResolvedCamera?
        if let choice = options.secondSource {
            // "auto" never reaches here: a second camera is always named.
            second = try resolveCamera(choice, notices: &notices, intake: intake, pipeWireNotice: pipeWireNotice)
            secondCamera = second.map { rotated($0.source, 1) }
        }
        // The camera last used is remembered by identity, so `--camera auto` finds it at any /dev/videoN.
        if let identity = first.identity { CameraMemory.standard().remember(identity) }
        let encoder = try chooseEncoder(options.encoder)
        let audio = try resolveAudio(options.audio, recording: options.record, notices: &notices)
        // A microphone chosen by name is remembered by identity: --audio auto takes it next time.
        if let node = audio.microphoneNode { CameraMemory.microphone().remember(node) }
        // The no-camera stand-in runs light unless a format was asked for: 1080p60 on a small machine made
        // the frames-flowing watchdog call it lost, and the subject view flap.
        let requested = options.format ?? (first.standIn ? standInFormat : nil)
        // --require: refused here (exit 65, naming the best there is) when nothing meets it.
        let check = try RequirementCheck(options.requirements, cameras: ([camera] + (secondCamera.map { [$0] } ?? [])).map(RequirementCheck.Camera.init),
                                         individual: options.cameraMode == .individual, minimumRate: options.minimumRate)
        var plan = try GraphPlan(library: library, camera: camera, secondCamera: secondCamera,
                                 individual: options.cameraMode == .individual, requested: requested, minimumRate: options.minimumRate,
                                 aspect: options.aspect, encoder: encoder, container: options.container, audio: audio,
                                 requirements: options.requirements)
        plan.unmetWishes = check.unmetWishes
        // Whose face each camera sees: --faces, else a simulated camera's profile, else the subject's.
        let sources = [camera] + (secondCamera.map { [$0] } ?? [])
        plan.faces = sources.enumerated().map { i, source in
            if i < options.cameraFaces.count, let given = options.cameraFaces[i] { return given }
            if case .simulated(let profile) = source, let faces = profile.faces { return faces }
            return .theSubject
        }
        plan.deviceIdentities = [first.identity, second?.identity]
        if options.followVoice { plan.voice = try VoiceModelSetup.prepare(options, audio: audio, notices: &notices) }
        plan.operatorMirrorChoice = options.mirrorPreview
        plan.sinks = options.headless || options.command != .run ? .headless : .desktop
        plan.framing = framingMode(options, camera: camera)
        try plan.validate()
        var dir: String?
        if options.record {
            dir = try prepareRecordDirectory(options.recordDirectory)
        }
        // A join a kill cut short (its journal is still there): one line offering to finish it.
        notices += JoinCommand.unfinishedNotices(in: dir ?? options.recordDirectory ?? defaultRecordDirectory())
        // A shot-list session's journal (a session stopped or killed): one line offering --resume, nothing done.
        if !options.resume { notices += resumeOffer(in: dir ?? options.recordDirectory ?? defaultRecordDirectory()) }
        var setup = SessionSetup(plan: plan, recordDirectory: dir, notices: notices, cameraLock: first.lock, secondCameraLock: second?.lock)
        if !options.remoteDisplays.isEmpty {
            try GStreamer.require(["srtsink", "rtph264pay", "x264enc"], for: .text("remote subject displays (--subject-remote)"))
            setup.remotePassphrase = try SRTPassphrase.resolve(file: options.passphraseFile, noEncryption: options.noEncryption,
                                                               environment: ProcessInfo.processInfo.environment,
                                                               allowReadable: options.allowReadablePassphrase)
            if setup.remotePassphrase == nil {
                setup.notices.append(tr("remote displays: --no-encryption: the subject view crosses the network unencrypted (for a closed network only)"))
            }
        }
        return setup
    }

    /// The line offering `--resume` when the folder holds a session journal (or saying why it cannot).
    static func resumeOffer(in folder: String) -> [String] {
        let path = SessionJournal.path(inFolder: folder)
        do throws(DuoError) { return try SessionJournal.read(path).map { [$0.offer(path: path)] } ?? [] } catch { return [error.message] }
    }

    /// `--framing`, or by default: hints for the teleprompter when the face detector and its cascade are
    /// installed and the camera can see a face (a real camera or a clip; a test pattern or a simulated
    /// camera never shows one). Asked for without the detector, the run says so once and goes on.
    static func framingMode(_ options: Options, camera: CameraSource) -> FramingMode {
        if let given = options.framing { return given }
        switch camera {
        case .testSource, .simulated: return .off
        case .v4l2, .file, .service: break
        }
        guard options.subject.accessory == .teleprompter, GStreamer.hasElement("facedetect"),
              FileManager.default.isReadableFile(atPath: GraphPlan.faceCascade) else { return .off }
        return .single
    }

    /// The format of the simulated camera that stands in when `--camera auto` finds none.
    static let standInFormat = VideoFormat(width: 1280, height: 720, frameRate: FrameRate(30))

    /// A camera chosen, with what it is known by when it comes and goes and the lock that makes it ours.
    struct ResolvedCamera {
        var source: CameraSource
        /// The simulated camera standing in for a missing one (`--camera auto` found none).
        var standIn = false
        /// The device monitor's identity (`id:` in `duo-capture cameras`); nil for simulated cameras and
        /// a device given by path that the monitor does not list.
        var identity: String?
        var lock: CameraLock?
    }

    static func resolveCamera(_ choice: Options.SourceChoice, notices: inout [String],
                              discover: () -> [DiscoveredCamera] = CameraDiscovery.list,
                              remembered: String? = CameraMemory.standard().last(),
                              intake: CameraIntake = .any,
                              pipeWireNotice: String? = nil) throws(DuoError) -> ResolvedCamera {
        switch choice {
        case .testSource:
            return ResolvedCamera(source: .testSource)
        case .v4l2(let device):
            guard FileManager.default.fileExists(atPath: device) else {
                throw .usage(.text("camera %s does not exist; list cameras with: duo-capture cameras", device))
            }
            let lock = try CameraLock(device: device)
            let real = URL(fileURLWithPath: device).resolvingSymlinksInPath().path
            let identity = discover().first { $0.devicePath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == real }?.identity
            return ResolvedCamera(source: .v4l2(device: device, modes: try v4l2Modes(device, intake: intake)), identity: identity, lock: lock)
        case .profile(let nameOrPath):
            return ResolvedCamera(source: .simulated(try loadProfile(nameOrPath)))
        case .file(let path):
            return ResolvedCamera(source: .file(path: path, mode: try ClipCamera.probe(path)))
        case .device(let identity):
            let cameras = discover()
            guard let camera = cameras.first(where: { $0.identity == identity }) ?? uniqueByName(identity, in: cameras) else {
                let known = cameras.map { "id:\($0.identity)" }.joined(separator: ", ")
                // A PipeWire camera asked for while no daemon answers: that is the reason, in the same line.
                let why = identity.hasPrefix("pipewire:") ? pipeWireNotice.map { "; \($0)" } ?? "" : ""
                throw .usage(.text("camera id:%s is not connected (%s); plug it in or list cameras with: duo-capture cameras%s", identity, known.isEmpty ? Said.text("no cameras found") : Said.text("connected: %s", known), why))
            }
            return try open(camera, intake: intake)
        case .auto:
            // The remembered camera, else PipeWire's, else V4L2's, else libcamera's (DefaultCameraOrder),
            // of those with a mode the chain takes.
            let cameras = discover().filter { ($0.devicePath != nil || $0.target != nil) && $0.isUsable(by: intake) }
            if let i = DefaultCameraOrder.choose(cameras.map { .init(identity: $0.identity, stack: $0.stack) }, remembered: remembered) {
                return try open(cameras[i], intake: intake)
            }
            let inner = try loadProfile("inner")
            notices.append(tr("no camera found; using the simulated inner camera at %s (--camera inner --format WxH@FPS for another)", standInFormat))
            return ResolvedCamera(source: .simulated(inner), standIn: true)
        }
    }

    private static func uniqueByName(_ name: String, in cameras: [DiscoveredCamera]) -> DiscoveredCamera? {
        let named = cameras.filter { $0.name == name }
        return named.count == 1 ? named[0] : nil
    }

    /// A camera the device monitor listed, locked and opened the way its provider says: V4L2 through
    /// v4l2src, the test provider through the test source that plays it.
    private static func open(_ camera: DiscoveredCamera, intake: CameraIntake) throws(DuoError) -> ResolvedCamera {
        if camera.stack == .pipewire || camera.stack == .libcamera, let target = camera.target {
            return try openService(camera, target: target, intake: intake)
        }
        guard let path = camera.devicePath else {
            throw .usage(.text("camera \"%s\" is offered by %s without a V4L2 device; give --camera v4l2:/dev/videoN", camera.name, camera.api.map(Said.init(verbatim:)) ?? Said.text("another provider")))
        }
        let lock = try CameraLock(device: path, label: "id:\(camera.identity)")
        if camera.api == "duotest" {
            return ResolvedCamera(source: .simulated(camera.simulatedProfile), identity: camera.identity, lock: lock)
        }
        return ResolvedCamera(source: .v4l2(device: path, modes: try v4l2Modes(path, intake: intake)), identity: camera.identity, lock: lock)
    }

    /// A V4L2 device's modes the chain takes. The device's own caps are the whole truth (v4l2src opens
    /// exactly the mode asked for), so a camera with none is refused here, in one line (exit 69).
    private static func v4l2Modes(_ device: String, intake: CameraIntake) throws(DuoError) -> [CameraProfile.Mode] {
        let modes = try CameraDiscovery.probeV4L2(device)
        let usable = intake.usable(modes)
        guard !usable.isEmpty else {
            throw .dependency(.text("camera %s cannot be used: %s; pick another camera (duo-capture cameras marks the ones it cannot use)", device, intake.refusalSaid(modes)))
        }
        return usable
    }

    /// A PipeWire or libcamera camera: its element must be installed, it is locked by identity (no device
    /// node of its own), and its modes are the ones the device monitor listed.
    private static func openService(_ camera: DiscoveredCamera, target: String, intake: CameraIntake) throws(DuoError) -> ResolvedCamera {
        let element = camera.stack.sourceElement
        guard GStreamer.hasElement(element) else {
            throw ElementPackages.missingElementError(element, neededFor: "\(camera.stack.displayName) cameras")
        }
        var usable = camera.modes.filter { $0.pixelFormat != "jpeg" || camera.stack == .pipewire }
        // The modes the chain takes. A service camera named with none is still tried: its device caps
        // are the service's account, and PipeWire has the last word; start-up then ends within
        // --start-timeout naming the node and its format (CameraStartWait).
        if !intake.usable(usable).isEmpty { usable = intake.usable(usable) }
        guard !usable.isEmpty else {
            throw .runtime(.text("camera \"%s\" (%s) offers no raw or MJPEG video formats duo-capture can use; pick another --camera", camera.name, camera.stack.displayName))
        }
        let lock = try CameraLock(identity: camera.identity, label: "id:\(camera.identity)")
        return ResolvedCamera(source: .service(stack: camera.stack, target: target, name: camera.name, modes: usable),
                              identity: camera.identity, lock: lock)
    }

    /// `--audio auto` takes the desktop's default input when there is one, and records without audio
    /// when there is none (saying so when a take is to be recorded); a user's description must parse.
    static func resolveAudio(_ choice: Options.AudioChoice, recording: Bool, notices: inout [String]) throws(DuoError) -> AudioSource {
        switch choice {
        case .none: return .none
        case .test: return .test
        case .auto:
            // The microphone last used (--audio NAME), when it is there now.
            if let last = MicrophoneChoice.remembered(CameraMemory.microphone().last()) { return last }
            guard GStreamer.hasElement("autoaudiosrc"), GStreamer.hasAudioInput() else {
                if recording {
                    notices.append(tr("no audio input found; recording without sound (--audio test for a test tone, --audio none to silence this)"))
                }
                return .none
            }
            return .device
        case .file(let path):
            try InputFile.requireRegular(path, .text("sound file"), hint: .text("give a recording such as reading.wav (any format GStreamer decodes)"))
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .input(.text("sound file %s cannot be read; check its permissions", path))
            }
            return .file(URL(fileURLWithPath: path).standardizedFileURL.path)
        case .description(let d) where MicrophoneChoice.namesMicrophone(d):
            return try MicrophoneChoice.resolve(d)
        case .description(let d):
            if let problem = GStreamer.parseProblem(d) {
                throw .usage(.text("--audio \"%s\" is not a GStreamer source description: %s; try --audio \"pulsesrc\" or --audio test", d, problem))
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
        try InputFile.requireRegular(path, .text("camera profile"), hint: .text("give a JSON file like Assets/cameras/inner.json"))
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(.text("camera profile %s cannot be read; check its permissions", path))
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
        throw .dependency(.text("no H.264 encoder is installed; install one with: sudo apt-get install gstreamer1.0-plugins-ugly (x264) or gstreamer1.0-plugins-bad (openh264)"))
    }

    /// Creates the folder if needed and proves it is writable, before the first take.
    static func prepareRecordDirectory(_ requested: String?) throws(DuoError) -> String {
        let dir = requested ?? defaultRecordDirectory()
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: dir, isDirectory: &isDir) {
            guard isDir.boolValue else { throw .usage(.text("--record-dir %s is a file, not a folder; give a folder", dir)) }
        } else {
            do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw .usage(.text("cannot create the record folder %s; give a writable --record-dir", dir))
            }
        }
        let probe = (dir as NSString).appendingPathComponent(".duo-capture-write-test-\(getpid())")
        guard fm.createFile(atPath: probe, contents: Data("ok".utf8)) else {
            throw .usage(.text("the record folder %s is not writable; give a writable --record-dir", dir))
        }
        try? fm.removeItem(atPath: probe)
        return dir
    }

    /// `$XDG_VIDEOS_DIR` (also read from ~/.config/user-dirs.dirs), else ~/Videos; plus /duo-capture.
    /// Only an absolute folder counts: an empty or relative value (which would record into the current
    /// folder) is passed over, as the XDG spec says.
    static func defaultRecordDirectory(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = XDGPaths.home(env)
        var videos = env["XDG_VIDEOS_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if videos == nil, let text = try? String(contentsOfFile: "\(XDGPaths.configHome(env))/user-dirs.dirs", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_VIDEOS_DIR=") {
                let value = line.dropFirst("XDG_VIDEOS_DIR=".count)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    .replacingOccurrences(of: "$HOME", with: home)
                if value.hasPrefix("/") { videos = value }
            }
        }
        return ((videos ?? "\(home)/Videos") as NSString).appendingPathComponent("duo-capture")
    }
}

/// Voice-follow's recogniser files for the script: the English acoustic model (pocketsphinx-en-us), and a
/// language model and dictionary written from the script's own words, cached by the script's content so a
/// script already seen starts at once. A script voice-follow cannot read (no spaces between words, or
/// words mostly outside the English dictionary: another language) is said in one line, and the run
/// follows time. A cached model is checked before use and built again when it is not whole (VoiceModelCache).
///
/// Thread: main thread at start-up; synchronous (reads cmudict, ~3.7 MB, once per new script).
enum VoiceModelSetup {
    static let modelDirectory = "/usr/share/pocketsphinx/model/en-us"

    static func prepare(_ options: Options, audio: AudioSource, notices: inout [String]) throws(DuoError) -> VoiceModelFiles? {
        guard let scriptPath = options.subject.scriptPath else {
            throw .usage(.text("--follow voice needs --script FILE: the teleprompter follows the speaker through it"))
        }
        guard audio != .none else {
            // `--audio auto` (the default) that found no microphone says so, rather than asking for itself.
            if case .auto = options.audio {
                throw .usage(.text("--follow voice needs a microphone and none was found: plug one in (duo-capture microphones lists them), give --audio file:PATH to follow a recording, or use --follow time"))
            }
            throw .usage(.text("--follow voice needs sound: --audio auto (the default microphone), --audio file:PATH or a GStreamer source"))
        }
        try GStreamer.require(["pocketsphinx"], for: .text("voice-follow (--follow voice)"))
        guard FileManager.default.fileExists(atPath: "\(modelDirectory)/en-us/mdef"),
              FileManager.default.fileExists(atPath: "\(modelDirectory)/cmudict-en-us.dict") else {
            throw .dependency(.text("voice-follow needs the English speech model; install pocketsphinx-en-us (apt-get install pocketsphinx-en-us)"))
        }
        return try files(for: try ScriptParser.load(path: scriptPath).subject, notices: &notices)
    }

    /// The model files for `subject` (written, or found in the cache); nil for a script voice-follow
    /// cannot read, said in `notices`. Also called off the director when the script changes.
    static func files(for subject: SubjectScript, notices: inout [String]) throws(DuoError) -> VoiceModelFiles? {
        let acoustic = "\(modelDirectory)/en-us", cmudict = "\(modelDirectory)/cmudict-en-us.dict"
        guard subject.separatesWords else {
            notices.append(tr("voice-follow: the script has no spaces between words; only English can be followed (pocketsphinx-en-us), so the teleprompter follows time"))
            return nil
        }
        let script = VoiceScript(script: subject)
        let cache = cacheDirectory()
        let hash = ScriptLanguageModel.contentHash(script)
        let files = VoiceModelFiles(acousticModel: acoustic, languageModel: "\(cache)/\(hash).lm", dictionary: "\(cache)/\(hash).dict")
        // Only a model this program wrote, whole and unchanged, is handed to the recogniser (VoiceModelCache).
        switch VoiceModelCache.check(files) {
        case .valid: return files
        case .absent: break
        case .damaged(let why):
            notices.append(tr("voice-follow: the cached voice model for this script is unusable (%s); it is built again", why))
        }
        guard let pronunciations = try? String(contentsOfFile: cmudict, encoding: .utf8) else {
            throw .dependency(.text("voice-follow cannot read %s; reinstall pocketsphinx-en-us", cmudict))
        }
        let model = ScriptLanguageModel(script: script, pronunciations: pronunciations)
        let unknown = model.guessedWords.count + model.skippedWords.count
        let words = model.vocabulary.count + model.skippedWords.count
        guard words > 0, Double(unknown) / Double(words) <= 0.5 else {
            notices.append(tr("voice-follow: %1$s of the script's %2$s words are not in the English dictionary (another language?); only English can be followed (pocketsphinx-en-us), so the teleprompter follows time", unknown, words))
            return nil
        }
        if unknown > 0 {
            let guessed = model.guessedWords.count, skipped = model.skippedWords.count
            notices.append(model.skippedWords.isEmpty
                ? trn("voice-follow: %d script word not in the dictionary gets a pronunciation from its spelling",
                      "voice-follow: %d script words not in the dictionary get a pronunciation from their spelling", guessed, guessed)
                : trn("voice-follow: %1$d script word not in the dictionary gets a pronunciation from its spelling, %2$d cannot be spoken and are stepped over (%3$s)",
                      "voice-follow: %1$d script words not in the dictionary get a pronunciation from their spelling, %2$d cannot be spoken and are stepped over (%3$s)",
                      guessed, guessed, skipped, model.skippedWords.prefix(5).joined(separator: ", ")))
        }
        try VoiceModelCache.store(files, arpa: model.arpa, dictionary: model.dictionary)
        return files
    }

    /// `$XDG_CACHE_HOME/duo-capture/voice` (default `~/.cache/duo-capture/voice`).
    static func cacheDirectory() -> String {
        "\(XDGPaths.cacheHome())/duo-capture/voice"
    }
}
