import Foundation
import DuoCore

/// `duo-capture render-subject`: renders one subject frame to PNG, for previewing a script and for tests.
///
/// The session it simulates: the countdown (if any) starts at 0 s; the take and the scroll start when it
/// ends; with `--recording` the recording light shows the time since then.
///
/// Thread: call from the main thread of a command-line run (it renders synchronously).
public enum RenderSubjectCommand {
    /// Its `--help`, in the operator's language (one unit: its options' names stay as they are).
    public static var help: String { tr("""
        usage: duo-capture render-subject --script FILE --at SECONDS --out FILE.png [options]
          --script FILE             UTF-8 .txt or .md script (needed for the teleprompter kind)
          --at SECONDS              pipeline time of the frame (the countdown starts at 0)
          --out FILE.png            where to write the frame
          --accessory KIND          teleprompter (default), preview, countdown or off
          --size WxH                subject monitor size (default 1920x1080)
          --display-profile FILE    JSON insets and occlusions (see Assets/displays/)
          --aspect R                the composition's crop: 16:9 (default), 9:16, 1:1, 4:3, or none (the
                                    whole 16:9 picture); the safe frame is always drawn
          --mirror h|v|hv|none      mirror for beam-splitter glass (default: h with --lens behind)
          --lens top|top-left|top-right|bottom|behind
                                    where the camera's lens is (default top, or the display profile's)
          --self-view small|large|off
                                    the camera picture (a test pattern here), a sixth or a third of the width
          --wpm N                   speed in words per minute (default 160)
          --lines-per-minute N      speed for scripts without spaces (default 12)
          --font-size N             text size in pixels (default: 48, less on small monitors)
          --lines N                 text as large as lets N lines (3-40) fill the monitor
          --reading-line F          reading line as a fraction of the height (default: next to the camera)
          --theme default|high-contrast
          --countdown N             countdown of N seconds (0-10) before the take
          --recording               show the recording light
          --shots FILE              a shot list: its first shot's card shows until the take records
          --cue TEXT                a cue to the talent: a preset (wrap, 30s, slower, faster, lens) or
                                    free text of at most 40 characters
          --talent-clock off|all|clock,count-up,target
                                    the talent's clock beside the text (target: the shot's length:)
          --clock-time HH:MM[:SS]   what the talent's wall clock says at --at (default: the time now)
          --subject-language LANG   the view's own words in LANG (zh_CN, en, ...; default: yours)
        """) }

    struct Options {
        var at: Double?
        var out: String?
        /// The subject-view options, read exactly as `duo-capture` reads them.
        var subject = SubjectSetup()
        var width = 1920, height = 1080
        var aspect: AspectRatio? = AspectRatio(16, 9)
        var countdown: Countdown?
        var recording = false
        var shotsPath: String?
        var cue: SubjectCue?
        /// `--clock-time`: seconds since midnight at the frame (nil: now).
        var clockTime: Int?
    }

    /// Parses `arguments` (everything after `render-subject`), renders and writes the PNG.
    /// Returns the one-line summary to print (or the help text for `--help`).
    /// `localeDirectory`: where `--subject-language` finds its catalogue.
    public static func run(arguments: [String], localeDirectory: String = "/usr/share/locale") throws(DuoError) -> String {
        if arguments.contains("--help") || arguments.contains("-h") { return help }
        var o = try parse(arguments)
        try o.subject.resolveLanguage(localeDirectory: localeDirectory, operatorLanguage: Translation.operatorLanguage)
        let (image, summary) = try render(o)
        try image.writePNG(to: o.out!)
        return tr("render-subject: wrote %s (%s)", o.out!, summary)
    }

    static func parse(_ arguments: [String]) throws(DuoError) -> Options {
        var o = Options()
        var reader = OptionReader(arguments, help: tr("see duo-capture render-subject --help"))
        while let arg = reader.next() {
            if try o.subject.apply(arg, from: &reader) { continue }
            switch arg {
            case "--at": o.at = try reader.number(arg, 0...86_400)
            case "--out": o.out = try reader.value(arg)
            case "--size":
                let text = try reader.value(arg)
                let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, (16...7680).contains(parts[0]), (16...4320).contains(parts[1]) else {
                    throw .usage(tr("--size %s: give WIDTHxHEIGHT between 16x16 and 7680x4320, for example 1920x1080", text))
                }
                o.width = parts[0]; o.height = parts[1]
            case "--aspect":
                let text = try reader.value(arg)
                if text == "none" {
                    o.aspect = nil
                } else {
                    guard let a = AspectRatio.parse(text) else {
                        throw .usage(tr("--aspect %s: give one of %s or none", text, AspectRatio.supported.map(\.description).joined(separator: ", ")))
                    }
                    o.aspect = a
                }
            case "--countdown": o.countdown = try Countdown.parse(try reader.value(arg))
            case "--recording": o.recording = true
            case "--shots": o.shotsPath = try reader.value(arg)
            case "--clock-time":
                let text = try reader.value(arg)
                let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
                guard (2...3).contains(parts.count), let h = parts[0], let m = parts[1], (0...23).contains(h), (0...59).contains(m),
                      parts.count == 2 || (parts[2].map { (0...59).contains($0) } ?? false) else {
                    throw .usage(tr("--clock-time %s: give the time of day as HH:MM or HH:MM:SS, such as 14:30", text))
                }
                o.clockTime = h * 3600 + m * 60 + (parts.count == 3 ? parts[2]! : 0)
            case "--cue":
                let text = try reader.value(arg)
                o.cue = try SubjectCue.presetOrText(text)
            default:
                throw .usage(tr("unknown option '%s' for render-subject; see duo-capture render-subject --help", arg))
            }
        }
        guard o.at != nil else { throw .usage(tr("render-subject needs --at SECONDS (the time of the frame)")) }
        guard let out = o.out else { throw .usage(tr("render-subject needs --out FILE.png (where to write the frame)")) }
        guard out.lowercased().hasSuffix(".png") else { throw .usage(tr("--out %s: the output is a PNG; name it FILE.png", out)) }
        if o.subject.accessory == .teleprompter && o.subject.scriptPath == nil {
            throw .usage(tr("render-subject needs --script FILE for the teleprompter (or pick --accessory countdown, preview or off)"))
        }
        return o
    }

    static func render(_ o: Options) throws(DuoError) -> (CairoImage, String) {
        let (scene, time, summary) = try scene(o)
        return (SubjectRenderer.render(scene, at: time), summary)
    }

    /// The scene the frame is drawn from, its time, and the summary line.
    static func scene(_ o: Options) throws(DuoError) -> (SubjectScene, Int64, String) {
        let parsed = try o.subject.scriptPath.map { path throws(DuoError) in try ScriptParser.load(path: path) }
        let loaded = try o.subject.displayProfilePath.map { path throws(DuoError) in try DisplayProfile.load(path: path) } ?? .plain
        let profile = o.subject.resolvedProfile(loaded)
        let time = Int64((o.at! * 1e9).rounded())
        let countdownSeconds = o.countdown?.seconds ?? 0
        let takeStart = Int64(countdownSeconds) * nanosecondsPerSecond

        var session = PrompterSessionState(
            accessory: o.subject.accessory, script: parsed, readingLine: o.subject.readingLine,
            mirror: o.subject.resolvedMirror(profile: loaded),
            style: PromptStyle(fontSize: o.subject.fontSize, lines: o.subject.lines, theme: o.subject.theme),
            countdown: o.countdown ?? .defaultValue, countdownStartedAt: o.countdown == nil ? nil : 0,
            recordingStartedAt: o.recording ? takeStart : nil, aspect: o.aspect,
            preview: o.subject.accessory == .preview ? .testPattern(width: 320, height: 180) : nil,
            scriptPath: o.subject.scriptPath)
        // The camera stand-in: a 16:9 picture, as a 16:9 camera gives live.
        session.selfView = o.subject.selfView
        session.picture = o.subject.picture ?? PictureShape(width: 1920, height: 1080)
        if let path = o.shotsPath {
            guard let first = try ShotList.load(path: path).shots.first else {
                throw .input(tr("--shots %s has no shots; give a shot list like Assets/example-shots.md", path))
            }
            session.shot = first.subject
        }
        session.cue = o.cue
        session.talentClock = o.subject.talentClock
        let wall: Int64
        if let clock = o.clockTime {
            wall = Int64(clock) * nanosecondsPerSecond
        } else {
            let now = Date()
            wall = Int64(((now.timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT(for: now))) * 1e9).rounded())
        }
        session.localTimeAtZero = wall - time

        let speed = try parsed.map { script throws(DuoError) in
            try ScrollSpeed.requested(wordsPerMinute: o.subject.wordsPerMinute, linesPerMinute: o.subject.linesPerMinute,
                                      separatesWords: script.subject.separatesWords)
        }
        // Lay out once with no scroll, then fit the scroll model to the layout's units and cues (lines
        // for scripts without spaces) and rebuild the scene reusing the layout.
        let first = SubjectScene(viewModel: .whitelisted(from: session), width: o.width, height: o.height,
                                 profile: profile, format: .argb, language: o.subject.language)
        var detail = o.subject.accessory.rawValue
        if let layout = first.strip?.layout, let speed {
            var scroll = layout.scrollModel(speed: speed)
            scroll.start(at: takeStart)
            session.scroll = scroll
            let position = scroll.position(at: time)
            let unit = layout.unitsAreWords ? "word" : "line"
            detail += String(format: ", %@ %.1f of %.0f at %@", unit, position, layout.unitCount, speed.description)
            if scroll.isHeldAtCue(at: time) { detail += ", held at [PAUSE]" }
        }
        let scene = SubjectScene(viewModel: .whitelisted(from: session), width: o.width, height: o.height,
                                 profile: profile, format: .argb, language: o.subject.language, reusing: first)
        return (scene, time, "\(o.width)x\(o.height) at \(clean(o.at!)) s, \(detail)")
    }

    private static func clean(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}
