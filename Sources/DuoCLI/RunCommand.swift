import DuoCore
import DuoMedia
import DuoRender
import Foundation

/// `duo-capture [run]`: composes a run. Headless, the run director drives the graph with nothing to draw;
/// on a desktop (DesktopRun) the same director drives it behind two windows.
///
/// Thread: main task; the director and the session are actors.
enum RunCommand {
    static func run(_ options: Options, log: @escaping @Sendable (String) -> Void) async throws(DuoError) -> String {
        if !options.headless { try DesktopRun.requireDisplay() }
        let options = try choosingScript(options, log: log)
        if !options.headless { return try await DesktopRun.run(options, log: log) }
        let setup = try SessionSetup.prepare(options)
        for n in setup.notices { log("duo-capture: \(n)") }
        let plan = setup.plan
        let events = try EventLog(path: options.desktop.eventsPath, warn: log)
        defer { events.close() }
        let presenter = try makePresenter(options, plan: plan, log: log)
        // Headless there are no windows to gate the accessory on: the subject branch runs (and is drawn)
        // whenever the accessory is enabled, so CI exercises the same drawing path as the desktop.
        let session = CaptureSession(plan: plan, subjectDrawer: presenter.drawer,
                                     subjectBranchOpen: options.subject.accessory != .off, startTimeout: options.startTimeout)
        let director = RunDirector(settings: .init(options, recordDirectory: setup.recordDirectory, remotePassphrase: setup.remotePassphrase), plan: plan, capture: session,
                                   presenter: presenter, face: HeadlessFace(), clock: session.clock, events: events, log: log)
        let signals = SignalWatch.ending(director)
        defer { signals.cancel() }
        let control = try ControlSocket.open(options.controlPath, director: director, events: events, log: log)
        defer { control?.close() }
        return try report(await director.run(), json: options.json, log: log)
    }

    /// The subject view's presenter. With `--accessory off` the kind stays ready for the user to turn the
    /// accessory on (T, the control socket): enabled is the user's choice, not the kind.
    /// A teleprompter asked for with no `--script` opens the last script used, else the welcome script
    /// (with a notice saying which); a script the user names is remembered as the last one used.
    static func choosingScript(_ options: Options, log: @Sendable (String) -> Void) throws(DuoError) -> Options {
        var o = options
        if o.subject.scriptPath == nil, o.subject.accessory == .teleprompter {
            let choice = ScriptChoice.standard().choose(welcome: try welcomeScript())
            log("duo-capture: \(choice.notice)")
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
        let presenter = try SubjectPresenter(subject, width: size.width, height: size.height, format: format)
        // A script of the user's that loaded is the one to open next time with no --script.
        if let path = subject.scriptPath, path != (try? welcomeScript()),
           let warning = ScriptChoice.standard().remember(path) {
            log("duo-capture: warning: \(warning.message)")
        }
        for problem in presenter.scriptProblems {
            log("duo-capture: warning: script \(subject.scriptPath ?? "") \(problem) (duo-capture check-script lists them)")
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
        events.setTap { line in socket.broadcast(line) }
        log("duo-capture: control socket \(socket.path)")
        return socket
    }
}

/// Turns POSIX signals into callbacks on a dispatch queue, instead of the default abrupt exit.
///
/// Thread: handlers run on a private serial queue.
final class SignalWatch: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "duo-capture.signals")

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        for s in signals {
            signal(s, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: s, queue: queue)
            source.setEventHandler { handler(s) }
            source.resume()
            sources.append(source)
        }
    }

    /// SIGINT, SIGTERM and SIGHUP (the terminal closed, ssh dropped) end the run cleanly: the running take
    /// is finalised first.
    static func ending(_ director: RunDirector) -> SignalWatch {
        let names = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"]
        return SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { director.send(.signal(names[$0] ?? "signal \($0)")) }
    }

    func cancel() {
        for s in sources { s.cancel() }
        sources.removeAll()
    }
}
