import DuoCore
import DuoPlatform
import Foundation

/// Everything the command line can say, parsed and validated, before anything starts.
///
/// Thread: value type; parsed on the main thread at start-up.
public struct Options: Sendable {
    public enum Command: String, Sendable { case run, pipeline, cameras, formats, monitors, renderSubject = "render-subject", inspect, remux, checkScript = "check-script", display, report, join, microphones, export, captions, help, version }
    public enum SourceChoice: Sendable, Equatable {
        case auto
        case testSource
        case v4l2(String)
        case profile(String)
        /// `--camera id:IDENTITY`: a camera the device monitor lists, by identity (or its unique name).
        case device(String)
        /// `--camera file:PATH`: a video clip played live as a camera, looped at its own frame rate.
        case file(String)
    }

    public var command: Command = .run
    public var source: SourceChoice = .auto
    /// Camera B, for a two-camera session (`--camera` given twice).
    public var secondSource: SourceChoice?
    /// `--camera-mode`: with two cameras, virtual (one common format, seamless swaps) is the default.
    public var cameraMode: CameraMode = .virtual
    public enum CameraMode: String, Sendable { case virtual, individual }
    /// `--swap-policy`: what a swap does to a take in individual mode when the formats differ.
    public var swapPolicy: SwapPolicy = .lock
    /// `--camera-loss wait|exit`: what a lost camera with no other to take over does to the run.
    public var cameraLoss: CameraLossPolicy = .wait
    public var format: VideoFormat?
    /// `--require WxH@FPS|depth` (repeatable): hard requirements; nothing meeting them refuses the start.
    public var requirements: [CameraRequirement] = []
    /// `--keep-segments`: a segmented take's segments stay once they are joined into one file.
    public var keepSegments = false
    /// `--faces operator|subject` after a `--camera`: whose face that camera sees (A, B).
    public var cameraFaces: [FacingViewer?] = []
    /// `--rotate 0|90|180|270` after a `--camera`: degrees clockwise to turn that camera upright (A, B).
    public var cameraRotations: [Int?] = []
    /// `--mirror-preview`: the operator flips their own preview.
    public var mirrorPreview = false
    /// `--min-fps`: formats below this rate are chosen only when no format reaches it.
    public var minimumRate = FormatSelection.defaultMinimumRate
    public var headless = false
    public var duration: Double?
    /// `--start-timeout`: how long start-up may wait for the camera's first frame, seconds.
    public var startTimeout: Double = 10
    public var record = false
    public var recordDirectory: String?
    public var container: ContainerChoice = .mkv
    public var encoder: EncoderChoice?
    public var aspect: AspectRatio?
    /// `--audio`: auto (the default input, none if there is none), none, test, or a source description.
    public enum AudioChoice: Sendable, Equatable { case auto, none, test, description(String), file(String) }
    public var audio: AudioChoice = .auto
    /// `--verbose`: duo-capture's debug category (`GST_DEBUG=duo-capture:5`): decisions and events.
    public var verbose = false
    /// `--follow voice`: the teleprompter follows the speaker's voice (time otherwise).
    public var followVoice = false
    /// `--subject-remote srt://HOST:PORT` (repeatable): displays on other machines showing the subject view.
    public var remoteDisplays: [SRTAddress] = []
    /// `--passphrase-file FILE`, `--no-encryption`, `--srt-latency MS` (remote displays and `display`).
    public var passphraseFile: String?
    public var noEncryption = false
    /// `--allow-readable-passphrase`: take a passphrase file others can read (refused otherwise).
    public var allowReadablePassphrase = false
    public var srtLatency = 120
    /// `display`: `--listen srt://:PORT` (or `--connect srt://HOST:PORT`); its monitor is
    /// `--subject-monitor`, `--windowed` keeps it in a window.
    public var displayAddress: SRTAddress?
    /// `--countdown`: seconds before a `--record` take starts.
    public var countdown = Countdown.defaultValue
    public var pipelinesDirectory: String?
    /// `--framing off|single|interview`; nil: hints for the teleprompter when the detector is installed.
    public var framing: FramingMode?
    /// `--screen [MONITOR]`: record a monitor as each take's second video track (ScreenTrack). `screen`:
    /// asked for; `screenMonitor`: the index or connector given (nil: the default monitor).
    public var screen = false
    public var screenMonitor: String?
    /// `--screen-rate FPS`: the screen track's frames per second.
    public var screenRate = ScreenTrack.defaultRate
    public var json = false
    public var quiet = false
    /// Desktop mode (see DesktopOptions.swift): monitor indices and the events file.
    public var desktop = DesktopOptions()
    /// `--control PATH`: the JSON-lines control socket.
    public var controlPath: String?
    /// `--timeline FILE`: control commands replayed at set times after the graph starts.
    public var timeline: Timeline?
    /// `--shots FILE`: the session as numbered shots (or test steps), read at start and watched.
    public var shots: ShotList?
    public var shotsPath: String?
    /// `--allow-any-script`: a shot's `script:` may name a file outside the shot list's folder, of any kind.
    public var allowAnyScript = false
    /// `--note-codes BUG,Q,GOOD,PII`: the codes a note may carry (issue 39); nil when not given.
    public var noteCodes: NoteCodeBook?
    /// `noteCodes` came from the settings file (DuoCaptureMain says so): a shot list's `note-codes:` wins.
    public var noteCodesFromSettings = false
    /// The codes a note may carry in this run: command line > shot list > settings file > default.
    public var noteCodeBook: NoteCodeBook {
        NoteCodeBook.resolve(commandLine: noteCodesFromSettings ? nil : noteCodes, shotList: shots?.noteCodes,
                             settingsFile: noteCodesFromSettings ? noteCodes : nil).book
    }
    /// `--replay SECONDS` (1 to 300): the replay buffer keeps the last SECONDS of encoded video and sound.
    public var replaySeconds: Int?
    /// `--resume`: the shot-list session whose journal is in the record folder goes on where it stopped.
    public var resume = false
    public var resumeJournal: SessionJournal?
    public var resumeFolder: String?
    /// The web remote and OSC (see WebRemoteOptions.swift).
    public var remote = WebRemoteOptions()
    /// The subject view: accessory kind, script, display profile, prompter settings.
    public var subject = SubjectSetup()
    /// Arguments handed on unparsed to a sub-command with its own options.
    public var passthrough: [String] = []

    public init() {}

    /// Options whose value may be left out (`--screen [MONITOR]`): a switch in the settings file
    /// (`screen = true`), or given its value there (`screen = 1`).
    static let valueMayBeLeftOut: Set<String> = ["--screen"]

    static let commands: Set<String> = ["run", "pipeline", "cameras", "formats", "render-subject", "inspect", "monitors", "remux", "check-script", "display", "report", "join", "microphones", "export", "captions"]

    /// `--format WxH@FPS`, checked.
    static func formatOption(_ v: String) throws(DuoError) -> VideoFormat {
        guard let f = VideoFormat.parse(v) else {
            throw .usage(tr("--format %s: expected WIDTHxHEIGHT@FPS such as 1280x720@30 (16 to 8192 pixels, 1 to 1000 fps)", v))
        }
        guard f.width % 2 == 0, f.height % 2 == 0 else {
            throw .usage(tr("--format %s: width and height must be even for 4:2:0 video", v))
        }
        return f
    }

    /// Parses `arguments` (without the program name). Throws a usage error naming the bad option.
    public static func parse(_ arguments: [String]) throws(DuoError) -> Options {
        var o = Options()
        var args = arguments[...]
        if let first = args.first, commands.contains(first) {
            o.command = Command(rawValue: first)!
            args = args.dropFirst()
            // render-subject has its own options (DuoRender parses them).
            if [.renderSubject, .inspect, .remux, .checkScript, .formats, .report, .join, .export, .captions].contains(o.command) {
                o.passthrough = Array(args)
                return o
            }
        }
        var reader = OptionReader(Array(args))
        func value(_ name: String) throws(DuoError) -> String { try reader.value(name) }
        var sourcesGiven = 0
        func setSource(_ s: SourceChoice, _ option: String) throws(DuoError) {
            // The first camera is A; a second one (B) makes a two-camera session, like the Duo's inner
            // and outer front cameras.
            switch sourcesGiven {
            case 0: o.source = s
            case 1: o.secondSource = s
            default: throw .usage(tr("%s: at most two cameras (A and B); give --camera twice at most", option))
            }
            sourcesGiven += 1
        }
        var accessoryGiven = false
        while let name = reader.next() {
            let arg = name
            if try o.subject.apply(name, from: &reader) {
                if name == "--accessory" { accessoryGiven = true }
                continue
            }
            switch name {
            case "-h", "--help": o.command = .help
            case "--version": o.command = .version
            case "--headless": o.headless = true
            case "--record": o.record = true
            case "--json": o.json = true
            case "--allow-any-script": o.allowAnyScript = true
            case "--resume": o.resume = true
            case "--quiet", "-q": o.quiet = true
            case "--verbose", "-v": o.verbose = true
            case "--source":
                let v = try value(name)
                guard v == "videotestsrc" else {
                    throw .usage(tr("--source accepts only videotestsrc; for a camera use --camera v4l2:/dev/videoN or --camera profile:FILE"))
                }
                try setSource(.testSource, name)
            case "--camera":
                let v = try value(name)
                if v.hasPrefix("v4l2:"), v.count > 5 {
                    try setSource(.v4l2(String(v.dropFirst(5))), name)
                } else if v.hasPrefix("profile:"), v.count > 8 {
                    try setSource(.profile(String(v.dropFirst(8))), name)
                } else if v.hasPrefix("file:") {
                    let path = String(v.dropFirst(5))
                    guard !path.isEmpty else { throw .usage(tr("--camera file:PATH needs a video clip, such as --camera file:rehearsal.mp4")) }
                    try setSource(.file(path), name)
                } else if v.hasPrefix("id:"), v.count > 3 {
                    try setSource(.device(String(v.dropFirst(3))), name)
                } else if (v.hasPrefix("pipewire:") && v.count > 9) || (v.hasPrefix("libcamera:") && v.count > 10) {
                    // A PipeWire node or libcamera camera: its identity is the same words (id:pipewire:NODE).
                    try setSource(.device(v), name)
                } else if v == "inner" || v == "outer" {
                    try setSource(.profile(v), name)
                } else {
                    throw .usage(tr("--camera %s: expected v4l2:/dev/videoN, id:IDENTITY (see duo-capture cameras), pipewire:NODE, libcamera:ID, profile:FILE, file:CLIP, inner or outer", v))
                }
            case "--format": o.format = try formatOption(try value(name))
            case "--keep-segments": o.keepSegments = true
            case "--require": o.requirements.append(try CameraRequirement.parse(try value(name)))
            case "--min-fps": o.minimumRate = try reader.number(name, 1...240)
            case "--faces":
                let viewer = try FacingViewer.parse(try value(name), option: name)
                guard sourcesGiven > 0 else { throw .usage(tr("--faces comes after the --camera it describes (--camera v4l2:/dev/video0 --faces subject)")) }
                while o.cameraFaces.count < sourcesGiven { o.cameraFaces.append(nil) }
                o.cameraFaces[sourcesGiven - 1] = viewer
            case "--mirror-preview": o.mirrorPreview = true
            case "--rotate":
                let v = try value(name)
                guard let degrees = Int(v), [0, 90, 180, 270].contains(degrees) else {
                    throw .usage(tr("--rotate %s: give 0, 90, 180 or 270 (degrees clockwise that turn the camera's picture upright)", v))
                }
                guard sourcesGiven > 0, o.source != .testSource else {
                    throw .usage(tr("--rotate comes after the --camera it turns (--camera v4l2:/dev/video0 --rotate 90)"))
                }
                while o.cameraRotations.count < sourcesGiven { o.cameraRotations.append(nil) }
                o.cameraRotations[sourcesGiven - 1] = degrees
            case "--duration":
                let v = try value(name)
                guard let d = OptionReader.decimal(v), d > 0, d <= 86_400 else {
                    throw .usage(tr("--duration %s: expected seconds, more than 0 and at most 86400", v))
                }
                o.duration = d
            case "--start-timeout":
                o.startTimeout = try reader.number(name, 0.5...600)
            case "--record-dir":
                o.recordDirectory = try value(name)
            case "--container":
                let v = try value(name)
                guard let c = ContainerChoice(rawValue: v) else { throw .usage(tr("--container %s: expected mkv or mp4", v)) }
                o.container = c
            case "--encoder":
                let v = try value(name)
                if v != "auto" {
                    guard let e = EncoderChoice(rawValue: v) else {
                        throw .usage(tr("--encoder %s: expected auto, %s", v, EncoderChoice.allCases.map(\.rawValue).joined(separator: ", ")))
                    }
                    o.encoder = e
                }
            case "--aspect":
                let v = try value(name)
                guard let a = AspectRatio.parse(v) else {
                    throw .usage(tr("--aspect %s: expected one of %s", v, AspectRatio.supported.map(\.description).joined(separator: ", ")))
                }
                o.aspect = a
            case "--subject-remote":
                let address = try SRTAddress.parse(try value(name), option: name)
                guard !o.remoteDisplays.contains(address) else { throw .usage(tr("--subject-remote %s is given twice", address)) }
                o.remoteDisplays.append(address)
            case "--passphrase-file": o.passphraseFile = try value(name)
            case "--no-encryption": o.noEncryption = true
            case "--allow-readable-passphrase": o.allowReadablePassphrase = true
            case "--srt-latency": o.srtLatency = Int(try reader.number(name, 20...8000))
            case "--listen", "--connect":
                let address = try SRTAddress.parse(try value(name), option: name)
                let listens = name == "--listen"
                guard address.isListener == listens else {
                    throw .usage(listens ? tr("--listen takes srt://:PORT (no host): the display waits there for duo-capture")
                                         : tr("--connect takes srt://HOST:PORT: the duo-capture that sends, listening there"))
                }
                o.displayAddress = address
            case "--follow":
                let v = try value(name)
                guard v == "voice" || v == "time" else {
                    throw .usage(tr("--follow %s: expected voice (the teleprompter follows the speaker) or time (the default)", v))
                }
                o.followVoice = v == "voice"
            case "--audio":
                let v = try value(name)
                switch v {
                case "auto": o.audio = .auto
                case "none": o.audio = .none
                case "test": o.audio = .test
                case _ where v.hasPrefix("file:"):
                    let path = String(v.dropFirst(5))
                    guard !path.isEmpty else { throw .usage(tr("--audio file:PATH needs a sound file, such as --audio file:reading.wav")) }
                    o.audio = .file(path)
                default:
                    guard !v.trimmingCharacters(in: .whitespaces).isEmpty else {
                        throw .usage(tr("--audio needs auto, none, test, a microphone's NAME or id:NODE (duo-capture microphones), or a GStreamer source such as \"pulsesrc device=NAME\""))
                    }
                    o.audio = .description(v)
                }
            case "--countdown":
                let v = try value(name)
                do { o.countdown = try Countdown.parse(v) } catch {
                    throw .usage(tr("--countdown %s: give whole seconds from 0 to 10 (default 3)", v))
                }
            case "--camera-mode":
                let v = try value(name)
                guard let mode = CameraMode(rawValue: v) else { throw .usage(tr("--camera-mode %s: expected virtual or individual", v)) }
                o.cameraMode = mode
            case "--swap-policy":
                o.swapPolicy = try SwapPolicy.parse(try value(name))
            case "--camera-loss":
                o.cameraLoss = try CameraLossPolicy.parse(try value(name))
            case "--control":
                o.controlPath = try value(name)
            case "--timeline":
                o.timeline = try Timeline.load(path: try value(name))
            case "--shots":
                let path = try value(name)
                o.shots = try ShotList.load(path: path)
                o.shotsPath = path
            case "--note-codes": o.noteCodes = try NoteCodeBook.parse(try value(name))
            case "--replay": o.replaySeconds = try ReplayLength.parse(try value(name))
            case "--framing": o.framing = try FramingMode.parse(try value(name))
            case "--screen":
                o.screen = true
                o.screenMonitor = reader.optionalValue().flatMap { $0.isEmpty ? nil : $0 }
            case "--screen-rate":
                let rate = try reader.number(name, Double(ScreenTrack.rates.lowerBound)...Double(ScreenTrack.rates.upperBound))
                guard rate == rate.rounded() else {
                    throw .usage(tr("--screen-rate %s: give whole frames per second, from %s to %s", "\(rate)", ScreenTrack.rates.lowerBound, ScreenTrack.rates.upperBound))
                }
                o.screenRate = Int(rate)
            case "--pipelines":
                o.pipelinesDirectory = try value(name)
            case _ where WebRemoteOptions.names.contains(name):
                try o.remote.parse(name, try value(name))
            case _ where DesktopOptions.names.contains(name):
                try o.desktop.parse(name, DesktopOptions.flags.contains(name) ? "" : try value(name))
            default:
                if arg.hasPrefix("-") {
                    if let near = Suggestion.nearest(to: arg, among: Help.optionNames) {
                        throw .usage(tr("unknown option %s; did you mean %s? run duo-capture --help for the list", arg, near))
                    }
                    throw .usage(tr("unknown option %s; run duo-capture --help for the list", arg))
                }
                // The first word, not a command but near one, was most likely a command mistyped.
                if arg == arguments.first, let near = Suggestion.nearest(to: arg, among: commands.sorted()) {
                    throw .usage(tr("unknown command %s; did you mean %s? run duo-capture --help for the commands", arg, near))
                }
                throw .usage(tr("unexpected argument %s; run duo-capture --help for the commands", arg))
            }
        }
        if o.resume { try o.readResumeJournal() }
        // Every shot's script at start, not when the shot is reached (a shot list from someone else could
        // name any file for the subject's screen and the phone).
        if let list = o.shots, let path = o.shotsPath { try ShotScripts.check(list, listPath: path, allowAny: o.allowAnyScript) }
        if o.secondSource != nil, o.source == o.secondSource, o.source != .testSource {
            throw .usage(tr("cameras A and B are the same; give two different --camera values"))
        }
        o.remote.allowReadableTokenFile = o.allowReadablePassphrase
        o.subject.aspect = o.aspect ?? o.subject.aspect
        o.subject.speedMemory = SpeedMemory.standard()
        o.subject.countdown = o.countdown
        try o.subject.resolveLanguage(localeDirectory: Gettext.localeDirectory(), operatorLanguage: Translation.operatorLanguage)
        // Default kind: the teleprompter when there is a script, else the countdown and recording light.
        if !accessoryGiven { o.subject.accessory = o.subject.scriptPath == nil ? .countdown : .teleprompter }
        return o
    }
}

extension Options {
    /// `--resume`: the session journal in the record folder, read before any device is opened. Without
    /// `--shots` the journal's shot list is walked; with it, it must be the same file.
    mutating func readResumeJournal() throws(DuoError) {
        let folder = recordDirectory ?? SessionSetup.defaultRecordDirectory()
        let path = SessionJournal.path(inFolder: folder)
        guard let journal = try SessionJournal.read(path) else {
            throw .usage(tr("--resume: no shot-list session to go on with in %s (no %s); give the session's --record-dir, or start without --resume", folder, SessionJournal.fileName))
        }
        func absolute(_ p: String) -> String { URL(fileURLWithPath: p).standardizedFileURL.path }
        if let given = shotsPath {
            guard absolute(given) == absolute(journal.shotList) else {
                throw .usage(tr("--resume: the session in %s walked %s, not %s; give --shots %s or leave --shots out", folder, journal.shotList, given, journal.shotList))
            }
        } else {
            shots = try ShotList.load(path: journal.shotList)
            shotsPath = journal.shotList
        }
        resumeJournal = journal
        resumeFolder = folder
    }
}
