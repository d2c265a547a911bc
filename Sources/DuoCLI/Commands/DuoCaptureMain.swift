import DuoCore
import DuoMedia
import DuoPlatform
import DuoRender
import Foundation

/// The executable's entry point: parse, dispatch, and turn every error into one line and an exit code.
///
/// Thread: the main task (async main); commands run there or hand work to actors.
public enum DuoCaptureMain {
    public static let version = "0.1.0"

    /// When `run` was entered (CLOCK_MONOTONIC µs): the start of "process start to first preview frame".
    static var launchMicros: Int64 { launched.value }
    private static let launched = Locked<Int64>(0)

    public static func run(_ arguments: [String]) async -> Int32 {
        launched.set(GStreamer.monotonicMicros())
        // A reader that went away (`duo-capture … | head -n1`) must not end a run: writes to a closed
        // stdout or stderr fail quietly instead of raising SIGPIPE, and the take goes on.
        signal(SIGPIPE, SIG_IGN)
        // The soft open-file limit up to the hard one: GStreamer's polls, the take's files and the remotes'
        // sockets share it, and the desktop's common 1,024 is not much (issue 35).
        DescriptorLimit.raiseToHard()
        // The operator's language from LANGUAGE/LC_ALL/LC_MESSAGES/LANG, before any text is written.
        Gettext.setUp()
        let log: @Sendable (String) -> Void = { line in
            Diagnostics.info(line)
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
        // Help and version always work, whatever the settings file holds (or whatever is at its path).
        if arguments.contains(where: { ["--help", "-h", "--version"].contains($0) }), !arguments.contains("--print-config"),
           let bare = try? Options.parse(arguments), bare.command == .help || bare.command == .version {
            print(bare.command == .help ? Help.text : "duo-capture \(version) (\(GStreamer.version))")
            return 0
        }
        do {
            // The settings file's values are defaults for the long options; the command line wins.
            let settingsPath = SettingsFile.standardPath()
            let settings = try SettingsFile.load(settingsPath)
            let applied = try SettingsDefaults.apply(arguments.filter { $0 != "--print-config" }, file: settings)
            if arguments.contains("--print-config") {
                print(SettingsDefaults.describe(applied, file: settings, path: settingsPath, commandLine: arguments))
                return 0
            }
            let options = try SettingsDefaults.options(applied)
            if options.verbose { Diagnostics.verbose() }
            if [.run, .display].contains(options.command), !options.quiet, let line = SettingsDefaults.startLine(applied, file: settings) {
                log(line)
            }
            switch options.command {
            case .help:
                print(Help.text)
            case .version:
                print("duo-capture \(version) (\(GStreamer.version))")
            case .pipeline:
                print(try await PipelineCommand.run(options))
            case .renderSubject:
                print(try RenderSubjectCommand.run(arguments: options.passthrough, localeDirectory: Gettext.localeDirectory()))
            case .inspect:
                print(try InspectCommand.run(options.passthrough))
            case .remux:
                print(try RemuxCommand.run(options.passthrough))
            case .join:
                print(try JoinCommand.run(options.passthrough))
            case .captions:
                print(try CaptionsCommand.run(options.passthrough))
            case .checkScript:
                print(try CheckScriptCommand.run(options.passthrough))
            case .cameras:
                print(CamerasCommand.run())
            case .microphones:
                print(try MicrophonesCommand.run())
            case .formats:
                let report = try FormatsCommand.run(options.passthrough)
                print(report.text)
                return report.choice == nil ? 1 : 0
            case .monitors:
                print(try await DesktopRun.monitors())
            case .report:
                print(try ReportCommand.run(options.passthrough))
            case .export:
                print(try ExportCommand.run(options.passthrough))
            case .display:
                _ = try await DisplayRun.run(options, log: log)
            case .run:
                let quiet = options.quiet
                print(try await RunCommand.run(options) { line in if !quiet { log(line) } })
            }
            return 0
        } catch {
            log(tr("duo-capture: error: %s", error.message))
            return error.kind.exitCode
        }
    }
}

/// `duo-capture pipeline`: the whole graph, with one take attached, in gst-launch-1.0 syntax.
///
/// Thread: main task; synchronous.
enum PipelineCommand {
    static func run(_ options: Options) async throws(DuoError) -> String {
        var o = options
        o.record = false  // printing the graph must not create folders
        // On Wayland the screen is a portal session (perhaps a dialog) and a descriptor only this process
        // holds: no graph to print for gst-launch-1.0.
        if o.screen, ScreenTrack.wayland(environment: ProcessInfo.processInfo.environment) {
            throw .usage(.text("pipeline --screen: on Wayland the screen comes from the ScreenCast portal, which only a running duo-capture can ask; leave out --screen to print the graph"))
        }
        let screen = try await ScreenSetup.resolve(o)
        let setup = try SessionSetup.prepare(o)
        var plan = setup.plan
        plan.screen = screen
        let dir = options.recordDirectory ?? SessionSetup.defaultRecordDirectory()
        let location = TakeNaming(directory: dir, fileExtension: plan.container.rawValue)
            .path(take: 1, at: Date()) { FileManager.default.fileExists(atPath: $0) }
        // Each gst-launch word is one shell word, single-quoted where it holds anything but plain
        // characters: safe to paste into a shell or pipe to sh, whatever the record folder's name holds.
        // (gst-launch-1.0 takes the description as words; a word's own double quotes stay for its parser.)
        let words = Self.launchWords(try plan.launchDescription(recordingTo: location))
        return "gst-launch-1.0 -e " + words.map(Self.shellWord).joined(separator: " ")
    }

    /// A gst-launch description split at the spaces outside double quotes.
    static func launchWords(_ description: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, escaped = false
        for c in description {
            if escaped { word.append(c); escaped = false; continue }
            if c == "\\" { word.append(c); escaped = true; continue }
            if c == "\"" { quoted.toggle() }
            if c == " " && !quoted {
                if !word.isEmpty { words.append(word); word = "" }
                continue
            }
            word.append(c)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// `text` as one shell word: as it is when it holds only plain characters, else single-quoted with
    /// each `'` written as `'\''`.
    static func shellWord(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_./:=,+-!@%".contains($0)) }
        if plain && !text.isEmpty { return text }
        return shellQuoted(text)
    }

    /// `text` as one single-quoted shell word.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// `duo-capture cameras`: what GStreamer's device monitor sees, one camera per line: its device, name,
/// identity (what `--camera id:` takes and what is remembered), best format and mode count; the camera
/// `--camera auto` opens is marked.
///
/// Thread: main task; synchronous.
enum CamerasCommand {
    static func run() -> String {
        let stacks = CameraStacks.prepare()
        for notice in [stacks.portal, stacks.pipeWire].compactMap({ $0 }) { FileHandle.standardError.write(Data(tr("duo-capture: %s", notice).appending("\n").utf8)) }
        let cameras = CameraDiscovery.list()
        if cameras.isEmpty { return tr("no cameras found; use --camera inner|outer for a simulated one") }
        // The pixel formats a camera's chain takes: modes outside them are not counted, and a camera with
        // none is marked and never opened by auto.
        let intake = (try? PipelineLibrary.locate()).map(CameraIntake.probe) ?? .any
        let usable = cameras.filter { ($0.devicePath != nil || $0.target != nil) && $0.isUsable(by: intake) }
        let last = CameraMemory.standard().last()
        let auto = DefaultCameraOrder.choose(usable.map { .init(identity: $0.identity, stack: $0.stack) }, remembered: last).map { usable[$0] }
        return cameras.map { c in
            let shown = [c.devicePath ?? "-", c.name, "id:\(c.identity)"].map { TerminalText.escaped($0) }
            let modes = intake.usable(c.modes)
            guard c.isUsable(by: intake) else {
                return tr("%s\tunusable: %s (%s modes)", shown.joined(separator: "\t"), intake.refusal(c.modes), c.modes.count)
            }
            let best = FormatSelection.best(of: modes.map(\.format), upTo: nil).map(\.description) ?? tr("no usable formats")
            let mark = c == auto ? (c.identity == last ? tr("\t(auto, last used)") : tr("\t(auto)")) : ""
            // A depth stream (a 16-bit grey mode, V4L2's Z16) is said where a camera has one.
            let depth = c.modes.contains { ["GRAY16_LE", "Z16"].contains($0.pixelFormat) } ? tr(", depth") : ""
            let refused = intake.refusedFormats(c.modes)
            let skipped = refused.isEmpty ? "" : tr(" (%s more in %s, which duo-capture cannot convert)", c.modes.count - modes.count, refused.joined(separator: ", "))
            return tr("%s\tbest %s, %s modes", shown.joined(separator: "\t"), best, modes.count) + skipped + depth + mark
        }.joined(separator: "\n")
    }
}

/// `duo-capture inspect FILE [--json]`: decodes a take completely, as a player would, and reports what it
/// holds. Proves a file plays (after a crash, say) without any other tool.
///
/// Thread: main task; synchronous (decodes on GStreamer threads and waits).
enum InspectCommand {
    struct Report: Encodable {
        struct File: Encodable {
        let file: String
        let videoFrames: Int64
        let width: Int?
        let height: Int?
        let firstFrameIsKeyframe: Bool?
        let videoSeconds: Double
        let audioBuffers: Int64
        let containerSeconds: Double?
        /// The screen track (`--screen`, the second video stream): its decoded frames and size.
        let screenFrames: Int64?
        let screenWidth: Int?
        let screenHeight: Int?
        }
        let file: File
        /// Largest and smallest step between decoded frames' timestamps (`maxGapMs`, `minGapMs`), encoded
        /// flat with the file's keys; no `dropped`, as a file alone has no nominal rate.
        let timing: FrameTiming
        func encode(to encoder: Encoder) throws {
            try file.encode(to: encoder)
            try timing.encode(to: encoder)
        }
    }

    static func run(_ arguments: [String]) throws(DuoError) -> String {
        let json = arguments.contains("--json")
        let files = arguments.filter { $0 != "--json" }
        guard files.count == 1, let path = files.first, !path.hasPrefix("-") else {
            throw .usage(tr("inspect needs exactly one file: duo-capture inspect FILE.mkv [--json]"))
        }
        let d = try MediaInspector.decode(path)
        let seconds = FrameTiming.spanSeconds(d.video)
        let r = Report(file: .init(file: path, videoFrames: d.video.frames, width: d.width, height: d.height,
                                   firstFrameIsKeyframe: d.encodedVideo.firstIsKeyframe, videoSeconds: seconds,
                                   audioBuffers: d.audio.frames, containerSeconds: d.duration.map { Double($0) / 1e9 },
                                   screenFrames: d.screen?.frames, screenWidth: d.screenSize?.width, screenHeight: d.screenSize?.height),
                       timing: d.video.timing(interval: nil))
        if json {
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: (try? e.encode(r)) ?? Data(), as: UTF8.self)
        }
        let size = d.width.map { "\($0)x\(d.height ?? 0)" } ?? tr("no video")
        return tr("%s: %s frames %s, %s s", path, d.video.frames, size, String(format: "%.2f", seconds))
            + (d.audio.frames > 0 ? tr(", %s audio buffers", d.audio.frames) : tr(", no audio"))
            + (d.screen.map { tr(", screen track %1$s frames %2$sx%3$s", $0.frames, d.screenSize?.width ?? 0, d.screenSize?.height ?? 0) } ?? "")
            + (d.encodedVideo.firstIsKeyframe == false ? tr(", first frame is not a keyframe") : "")
    }
}

/// `duo-capture check-script FILE`: reads a script as a run would, and lists what it holds for the
/// operator and what it kept from the subject because it could be a malformed private note.
///
/// Thread: main task; synchronous.
enum CheckScriptCommand {
    static func run(_ arguments: [String]) throws(DuoError) -> String {
        guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
            throw .usage(tr("check-script needs exactly one file: duo-capture check-script FILE.md"))
        }
        let script = try ScriptParser.load(path: path)
        let words = script.subject.blocks.reduce(0) { count, block in
            switch block {
            case .paragraph(let runs), .heading(_, let runs):
                count + runs.reduce(0) { $0 + $1.text.split(whereSeparator: { $0.isWhitespace }).count }
            case .pause: count
            }
        }
        let headings = script.subject.blocks.filter { if case .heading = $0 { true } else { false } }.count
        let summary = tr("%s: %s words for the subject, %s headings, %s private notes", path, words, headings, script.operatorNotes.count)
        guard !script.problems.isEmpty else { return tr("%s: %s words for the subject, %s headings, %s private notes; no problems", path, words, headings, script.operatorNotes.count) }
        // The problems are the point of the command: each on its own line (stdout), then a failing exit.
        print(([summary] + script.problems.map { "\(path):\($0.line): \($0.message)" }).joined(separator: "\n"))
        throw .input(trn("%s has %d problem kept from the subject; fix it and check again", "%s has %d problems kept from the subject; fix them and check again", script.problems.count, path, script.problems.count))
    }
}
