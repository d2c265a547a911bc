import DuoCore
import DuoDesktop
import DuoMedia
import DuoPlatform
import DuoRender
import Foundation

/// `duo-capture [run]`: composes a run. Headless, the run director drives the graph with nothing to draw;
/// on a desktop (DesktopRun) the same director drives it behind two windows.
///
/// Thread: main task; the director and the session are actors.
enum RunCommand {
    static func run(_ options: Options, log: @escaping @Sendable (String) -> Void) async throws(DuoError) -> String {
        if !options.headless {
            try DesktopRun.requireDisplay()
        } else if let restored = NotificationBanners.restoreLeftover(stateDirectory: (XDGPaths.stateHome() as NSString).appendingPathComponent("duo-capture")) {
            // Banners a killed desktop run left off are given back by any later run, headless ones too
            // (a desktop run does it as its windows open).
            log(restored)
        }
        let options = try choosingScript(options, log: log)
        let kind: any RunKind = options.headless ? HeadlessRun() : DesktopRun.Kind(options: options, log: log)
        return try await compose(options, kind, log: log)
    }

    /// One run, composed once for both faces: the session set up, the events file, the subject view's
    /// presenter, the capture session, the director, signals and the control socket; `kind` says what
    /// differs (the picture sizes, where the subject view is drawn, the face, and what drives the run).
    static func compose(_ options: Options, _ kind: any RunKind, log: @escaping @Sendable (String) -> Void) async throws(DuoError) -> String {
        // Every input file first: a bad one is the only line said, before the camera is looked for.
        try InputCheck.run(options)
        let screen = try await ScreenSetup.resolve(options)
        let setup = try SessionSetup.prepare(options)
        for n in setup.notices { log(tr("duo-capture: %s", n)) }
        var plan = setup.plan
        plan.screen = screen
        if let screen { log(tr("duo-capture: %s", screen.startLine)) }
        let events = try EventLog(path: options.desktop.eventsPath, warn: log)
        defer { events.close() }
        let subject = await kind.adapt(&plan)
        let presenter = try makePresenter(options, plan: plan, size: subject.size, format: subject.format, log: log)
        let session = kind.session(plan: plan, presenter: presenter, options: options)
        let face = kind.face(plan: plan, presenter: presenter, session: session)
        let director = RunDirector(settings: .init(options, recordDirectory: setup.recordDirectory, remotePassphrase: setup.remotePassphrase),
                                   plan: plan, capture: session, presenter: presenter, face: face, clock: session.clock,
                                   events: events, log: log)
        let signals = SignalWatch.ending(director)
        defer { signals.cancel() }
        let control = try ControlSocket.open(options.controlPath, director: director, events: events, log: log)
        defer { control?.close() }
        let remote = try WebRemote.open(options.remote, director: director, events: events, presenter: presenter, clock: session.clock,
                                        noteCodes: options.noteCodeBook)
        defer { remote?.close() }
        // obs-websocket and HyperDeck: controllers people own, through the web remote's command path.
        let takes = setup.recordDirectory ?? options.recordDirectory ?? SessionSetup.defaultRecordDirectory()
        let obs = try ObsRemote.open(options.remote, director: director, events: events, clock: session.clock,
                                     cameras: plan.secondCamera == nil ? 1 : 2, recordDirectory: takes)
        defer { obs?.close() }
        let hyperDeck = try HyperDeckRemote.open(options.remote, director: director, events: events, clock: session.clock, plan: plan,
                                                 recordDirectory: takes)
        defer { hyperDeck?.close() }
        face.setRemoteAddress(remote?.linkAddress)
        return try report(await kind.drive(director, session: session, face: face, events: events), json: options.json, log: log)
    }

    /// The subject view's presenter. With `--accessory off` the kind stays ready for the user to turn the
    /// accessory on (T, the control socket): enabled is the user's choice, not the kind.
    /// A teleprompter asked for with no `--script` opens the last script used, else the welcome script
    /// (with a notice saying which); a script the user names is remembered as the last one used.
    static func choosingScript(_ options: Options, log: @Sendable (String) -> Void) throws(DuoError) -> Options {
        var o = options
        if o.subject.scriptPath == nil, o.subject.accessory == .teleprompter {
            let choice = ScriptChoice.standard().choose(welcome: try welcomeScript())
            log(tr("duo-capture: %s", choice.notice))
            o.subject.scriptPath = choice.path
        }
        return o
    }

    static func welcomeScript() throws(DuoError) -> String {
        "\(try ResourceLocator.find("Assets", marker: "scripts/welcome.md"))/scripts/welcome.md"
    }

    /// The subject view for a run: drawn into the subject branch's frames at `plan.subjectSize` (headless),
    /// or by the subject window at the subject monitor's `size` (`.argb`, the desktop).
    static func makePresenter(_ options: Options, plan: GraphPlan, size: (width: Int, height: Int)? = nil,
                              format: PromptStrip.Format = .i420, log: @Sendable (String) -> Void) throws(DuoError) -> SubjectPresenter {
        var subject = options.subject
        if subject.accessory == .off { subject.accessory = subject.scriptPath == nil ? .countdown : .teleprompter }
        let size = size ?? plan.subjectSize
        if subject.picture == nil { subject.picture = PictureShape(width: plan.format.width, height: plan.format.height) }
        let presenter = try SubjectPresenter(subject, width: size.width, height: size.height, format: format)
        // A script of the user's that loaded is the one to open next time with no --script.
        if let path = subject.scriptPath, path != (try? welcomeScript()),
           let warning = ScriptChoice.standard().remember(path) {
            log(tr("duo-capture: warning: %s", warning.message))
        }
        for problem in presenter.scriptProblems {
            log(tr("duo-capture: warning: script %s %s (duo-capture check-script lists them)", subject.scriptPath ?? "", problem))
        }
        return presenter
    }

    /// The run's summary on stdout, or the error that decides the exit code. A run that failed logs its
    /// summary to stderr; a run whose take failed (full disk) still prints it to stdout, as usual.
    static func report(_ outcome: RunOutcome, json: Bool, log: @Sendable (String) -> Void) throws(DuoError) -> String {
        let text = outcome.summary.map { json ? $0.json : $0.text } ?? ""
        guard let error = outcome.error else { return text }
        if case .failed = outcome.reason { if !text.isEmpty { log(text) } } else { print(text) }
        throw error
    }
}

extension ControlSocket {
    /// `--control PATH` for a run: lines become the director's commands, every event goes to every client.
    static func open(_ path: String?, director: RunDirector, events: EventLog,
                     log: @Sendable (String) -> Void) throws(DuoError) -> ControlSocket? {
        guard let path else { return nil }
        let socket = try ControlSocket(path: path) { director.send(.command($0, source: .control)) }
        events.setTap { event in socket.broadcast(event) }
        log(tr("duo-capture: control socket %s", socket.path))
        return socket
    }
}

/// What differs between a headless and a desktop run; `RunCommand.compose` does the rest, once.
///
/// Thread: called from the main task, in `compose`'s order.
protocol RunKind: Sendable {
    /// Fits the plan to where its pictures are shown; returns the subject view's size and pixel format
    /// (nil size: the plan's own subject picture).
    func adapt(_ plan: inout GraphPlan) async -> (size: (width: Int, height: Int)?, format: PromptStrip.Format)
    func session(plan: GraphPlan, presenter: SubjectPresenter, options: Options) -> CaptureSession
    func face(plan: GraphPlan, presenter: SubjectPresenter, session: CaptureSession) -> any RunFace
    /// Runs until the director ends the run.
    func drive(_ director: RunDirector, session: CaptureSession, face: any RunFace, events: EventLog) async throws(DuoError) -> RunOutcome
}

/// The headless run: no windows. The subject branch runs whenever the accessory is enabled (its frames
/// are counted: `subjectView` in the report and status), but no one sees its pictures (a fakesink), so
/// the subject view is not drawn into them: no per-frame drawing and no text tiles rendered for nobody
/// (issue 36). Its drawing into frames is tested with drawers of their own (DuoMediaTests) and runs
/// where someone sees it: each remote display's branch (`--subject-remote`).
///
/// Thread: value type, Sendable.
struct HeadlessRun: RunKind {
    func adapt(_ plan: inout GraphPlan) async -> (size: (width: Int, height: Int)?, format: PromptStrip.Format) { (nil, .i420) }
    func session(plan: GraphPlan, presenter: SubjectPresenter, options: Options) -> CaptureSession {
        CaptureSession(plan: plan, subjectDrawer: nil, subjectBranchOpen: options.subject.accessory != .off,
                       startTimeout: options.startTimeout)
    }
    func face(plan: GraphPlan, presenter: SubjectPresenter, session: CaptureSession) -> any RunFace { HeadlessFace() }
    func drive(_ director: RunDirector, session: CaptureSession, face: any RunFace, events: EventLog) async throws(DuoError) -> RunOutcome {
        await director.run()
    }
}

/// The run's signal watch (DuoPlatform's `SignalWatch`: GLib's unix signal sources).
extension SignalWatch {
    /// SIGINT, SIGTERM and SIGHUP (the terminal closed, ssh dropped) end the run cleanly: the running take
    /// is finalised first.
    static func ending(_ director: RunDirector) -> SignalWatch {
        let names = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"]
        return SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { director.send(.signal(names[$0] ?? "signal \($0)")) }
    }

}
