import DuoCore
import DuoMedia
import DuoRender
import Foundation

//  One run, one director: the headless and desktop runs are the same program with a different face.
//
//   keys (DesktopUI key bindings) ─┐
//   control socket, web remote ────┤  ControlCommand          ┌─▶ CapturePort (CaptureSession: graph, takes)
//   timeline entries ──────────────┼──────────┐               ├─▶ SubjectPresenter (subject view state)
//   signals, timers, ticks ────────┘          ▼               ├─▶ RunFace (headless: nothing; desktop: windows)
//                                   RunInbox ─▶ RunDirector ──┼─▶ EventLog (--events, control clients)
//   face facts (accessory shown, fullscreen) ─┘  (actor)      └─▶ TakeFilesPort, sidecars, summary, exit code
//   session facts (take failed, fatal error) ─┘     │
//                                                    │ each hook, in list order (RunPart, on the director's actor)
//                                                    ▼
//   RunParts: subject view · operator window · cameras · posture · microphone · remote displays · script ·
//             voice · shots · framing · joins · warnings        (Sources/DuoCLI/Parts/, each owns its state)
//
//  Every decision is made once, on the director's actor, in pipeline running time. The director keeps
//  the input loop, the take core (TakeSchedule's countdowns and takes, RunDirector+Takes), the start, the
//  end and the exit; every feature is a part that owns its state and its settings, and hears of the
//  run through RunPart's hooks (started, tick, a command, a session fact, an input, a take's start and
//  end, the HUD's figures, finish). The policy lives in DuoCore's state machines; the parts feed them facts
//  and carry their decisions out through the ports (CapturePort and DuoCore's RunPorts, RunFace).
//  A new feature is a new part (a file in Parts/) and its line in RunParts.all.

/// The run's policy, shared by the headless and desktop runs.
///
/// Thread: an actor. `send` may be called from any thread (GTK, the network loop (control socket, web remote, OSC), signals,
/// timers); inputs are carried out one at a time in arrival order, except that an end (quit, a signal)
/// goes ahead of everything queued, and nothing queued runs after it. Its parts run on it.
actor RunDirector {
    /// The options the director decides with: the take core's here, each part's in `parts`.
    ///
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        var countdown = Countdown.defaultValue
        var record = false
        var duration: Double?
        /// Prepared (checked, created) at start-up when `--record` was given, else on the first take.
        var recordDirectory: String?
        var recordDirectoryOption: String?
        var timeline: Timeline?
        /// `--start-timeout`: how long start-up waits for the camera's first frame (the `starting` event).
        var startTimeout = 10.0
        var parts = RunParts.Settings()

        init() {}
        init(_ options: Options, recordDirectory: String?, remotePassphrase: String? = nil) {
            countdown = options.countdown
            record = options.record
            duration = options.duration
            self.recordDirectory = recordDirectory
            recordDirectoryOption = options.recordDirectory
            timeline = options.timeline
            startTimeout = options.startTimeout
            parts = RunParts.Settings(options, remotePassphrase: remotePassphrase)
        }
    }

    /// How long before the countdown's end the take's branch is attached, so the encoder is ready; the
    /// start gate still drops every frame captured before the end.
    static let attachLead: Int64 = 150_000_000
    static let tickInterval: Int64 = 200_000_000

    let settings: Settings
    /// What the run talks through, fixed for the run.
    let context: RunContext
    nonisolated let inbox = RunInbox()
    /// The run's features, each owning its state.
    let parts: RunParts
    /// Countdowns, the take recording, numbering, segments and the run's end: decided there.
    var takes: TakeSchedule
    /// Every take that ended, in order (the summary's).
    var ended: [TakeResult] = []
    var recordDirectory: String?
    private(set) var isStarted = false
    private var startedDate = Date()
    var startedAt: Int64 = 0
    private var endReason: EndReason?
    /// The source of the command being carried out (its refusals say it), else nil.
    var commandSource: CommandSource?
    /// When the last `status` event was sent (one a second at least).
    var lastStatusAt: Int64?
    private var timers: [Task<Void, Never>] = []
    /// Commands that came while the graph was starting, carried out once it plays.
    private var early: [RunInput] = []

    init(settings: Settings, plan: GraphPlan, capture: any CapturePort, presenter: SubjectPresenter, face: any RunFace,
         clock: any RunClock, events: EventLog, files: any TakeFilesPort = DiskTakeFiles(), voice: any VoicePort = PocketsphinxVoice(),
         handshake: any RemoteDisplayHandshakePort = NetworkHandshake(),
         watchDevices: @escaping @Sendable (@escaping @Sendable () -> Void) -> (any DevicePort)? = { CameraWatch(wake: $0) },
         watchMicrophone: @escaping @Sendable (String, @escaping @Sendable () -> Void) -> (any MicrophoneWatchPort)? = {
             MicrophoneWatch(identity: $0, wake: $1)
         },
         log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        context = RunContext(plan: plan, capture: capture, presenter: presenter, face: face, clock: clock, events: events, files: files,
                             sidecars: SidecarWriter(plan: plan, countdown: settings.countdown, log: log), log: log)
        recordDirectory = settings.recordDirectory
        takes = TakeSchedule(countdown: settings.countdown, attachLead: Self.attachLead, duration: settings.duration)
        // --resume: take numbers go on after the resumed session's (before --record's take can begin).
        if let resumed = settings.parts.shots.resume { takes.continueNumbering(after: resumed.lastTake) }
        parts = RunParts(settings.parts, plan: plan, face: face,
                         ports: .init(voice: voice, handshake: handshake, watchDevices: watchDevices, watchMicrophone: watchMicrophone))
        face.connect { [inbox] input in inbox.send(input) }
    }

    /// Hands the director an input, from any thread; never blocks.
    nonisolated func send(_ input: RunInput) { inbox.send(input) }
    /// Hands the director remote commands (one, or an OSC bundle's), all or none: false when too many are
    /// queued already (`RunInbox.remoteLimit`).
    nonisolated func sendRemote(_ commands: [ControlCommand], source: CommandSource) -> Bool {
        inbox.sendRemote(commands.map { .command($0, source: source) })
    }
    nonisolated var inputs: AsyncStream<RunInput> { inbox.inputs }

    // MARK: The run

    /// Starts the graph, carries out inputs until the run ends, then finishes it. Signals, quit and the
    /// control socket are honoured from the first instant, also while the graph is still starting.
    func run() async -> RunOutcome {
        let capture = self.capture, inbox = self.inbox
        // The subject's picture starts mirrored with the view (--lens behind, --mirror), and scaled only as
        // finely as the subject sees it (the scaler takes its method when the graph negotiates).
        await capture.setSubjectViewMirror(await presenter.mirror)
        let selfView = await presenter.selfView != .off
        await capture.setSubjectPictureUse(.of(kind: await presenter.accessory, selfView: selfView, viewDrawnIntoFrames: !face.drawsSubjectView))
        // Said before the graph is asked to play: a script (or a test) knows the run is waiting for the
        // camera from here, up to `timeout` seconds.
        events.emit(.starting(camera: plan.camera.label, format: plan.format.description,
                              mode: "\(plan.cameraMode.format) \(plan.cameraMode.pixelFormat)", timeout: settings.startTimeout))
        let starting = Task {
            do throws(DuoError) {
                try await capture.startCapture()
                inbox.send(.started)
            } catch {
                inbox.send(.startFailed(error))
            }
        }
        let sessionEvents = Task { for await event in capture.events { inbox.send(.session(event)) } }
        for await input in inputs where inbox.take(input) {
            // Local commands (keys, the control socket) go ahead of remote ones queued before them.
            if case .command(_, let source) = input, source.isRemote {
                while endReason == nil, let local = inbox.nextAhead() { await process(local) }
            }
            await process(input)   // an end that arrived is taken first there
            if endReason != nil { break }
        }
        let outcome = await finish()
        starting.cancel()
        sessionEvents.cancel()
        return outcome
    }

    /// One step of the run: carries out `input`. Tests call this directly with a fake capture and a
    /// manual clock.
    func process(_ input: RunInput) async {
        // An end that has arrived goes ahead of everything, also of commands held while the graph started.
        if let end = inbox.urgentEnd.value { self.end(end) }
        guard endReason == nil else { return }
        switch input {
        case .command(let command, _) where !isStarted && command != .quit:
            // Commands that come while the graph is still starting are carried out once it plays.
            early.append(input)
        case .command(let command, let source):
            events.emit(.command(cmd: command.name, source: source.rawValue))
            commandSource = source
            await handle(command)
            commandSource = nil
        case .signal(let name): end(.signal(name))
        case .started: await started()
        case .startFailed(let error): end(.failed(error))
        case .session(let event): await handle(event)
        case .tick: await tick()
        default:
            for part in parts.all { await part.handle(input, self) }
        }
    }

    func end(_ reason: EndReason) {
        if endReason == nil { endReason = reason }
    }

    func started() async {
        guard !isStarted else { return }
        isStarted = true
        startedDate = Date()
        startedAt = clock.now()
        log(plan.evenSizeNote.map { note in
            tr("duo-capture: capturing %1$s at %2$s%3$s (camera mode %4$s %5$s; %6$s)", plan.camera.label, plan.format, plan.requirementNote,
               plan.cameraMode.format, plan.cameraMode.pixelFormat, note)
        } ?? tr("duo-capture: capturing %1$s at %2$s%3$s (camera mode %4$s %5$s)", plan.camera.label, plan.format, plan.requirementNote,
                plan.cameraMode.format, plan.cameraMode.pixelFormat))
        events.emit(.started(camera: plan.camera.label, format: plan.format.description))
        if !plan.requirements.isEmpty { events.emit(.requirements(required: plan.requirements.map(\.description), unmet: plan.unmetWishes)) }
        takes.runStarted(at: startedAt, recording: settings.record)
        if settings.record {
            // --record: the take starts when the countdown ends; --duration then counts from its start.
            await record(endingRun: true)
        } else if let end = takes.runEnd {
            wake(at: end)
        }
        for part in parts.all { await part.started(self) }
        if let timeline = settings.timeline { replay(timeline) }
        let waiting = early
        early.removeAll()
        for input in waiting {
            await process(input)
            if endReason != nil { return }
        }
        let clock = self.clock, inbox = self.inbox
        timers.append(Task {
            while !Task.isCancelled {
                await clock.sleep(until: clock.now() + Self.tickInterval)
                inbox.send(.tick)
            }
        })
        await tick()
    }

    /// The timeline's commands at their times after the start, exactly as if a control client sent them.
    func replay(_ timeline: Timeline) {
        let clock = self.clock, start = startedAt, events = self.events, inbox = self.inbox
        timers.append(Task {
            for entry in timeline.entries {
                await clock.sleep(until: start + Int64(entry.at * 1e9))
                if Task.isCancelled { return }
                events.emit(.timeline(at: entry.at))
                inbox.send(.command(entry.command, source: .timeline))
            }
        })
    }

    /// A tick at `time` (on the run's clock), for a deadline that must not wait for the next regular tick.
    func wake(at time: Int64) {
        let clock = self.clock, inbox = self.inbox
        timers.append(Task {
            await clock.sleep(until: time)
            if !Task.isCancelled { inbox.send(.tick) }
        })
    }

    // MARK: Time

    /// Checks every deadline against the clock: the countdown's take, the run's end, then each part's
    /// (watchdogs, watched files, hints); then the figures and, once a second, a status event.
    func tick() async {
        guard isStarted else { return }
        let now = clock.now()
        // Attached a little early; the take still starts exactly at the countdown's end.
        await carry(takes.due(at: now))
        if takes.runIsOver(at: now) { return end(.duration) }
        // One reading of the counters serves the watchdogs and the figures of this tick.
        let counts = await capture.counts
        for part in parts.all {
            await part.tick(self, at: now, counts: counts)
            if endReason != nil { return }
        }
        if now - (lastStatusAt ?? startedAt - nanosecondsPerSecond) >= nanosecondsPerSecond { await status(trigger: "periodic") }
        await showFigures(counts)
    }

    // MARK: The end

    /// Ends the run: a countdown is cancelled, a running take finalised (its sidecar and summary line
    /// written), the graph stopped, each part finished (the joins waited for), the windows closed; then
    /// the one exit decision.
    func finish() async -> RunOutcome {
        end(inbox.urgentEnd.value ?? .duration)
        let reason = endReason ?? .duration
        for t in timers { t.cancel() }
        timers.removeAll()
        if takes.pending != nil { await cancelCountdown() }
        if takes.current != nil { await stopTake() }
        let counts = await capture.counts
        await capture.stopCapture()
        for part in parts.all { await part.finish(self) }
        // A run that never got its graph playing has no summary: its error says it all.
        let summary = isStarted
            ? RunSummary(plan: plan, counts: counts, takes: ended, joined: parts.joins.joined, started: startedDate, endReason: reason.text)
            : nil
        // The exit code says what happened to the takes: a run that failed, or a take that recorded frames
        // and then failed (full disk), is an error; a take stopped before its first frame is only empty.
        var error: DuoError?
        if case .failed(let e) = reason { error = e }
        else if let failed = ended.first(where: { $0.failure != nil && !$0.empty }) { error = failed.failure }
        if !isStarted, error == nil { log(tr("duo-capture: stopped before the capture graph started (%s)", reason.text)) }
        events.emit(.stopped(reason: reason.text, exitCode: Int(error?.kind.exitCode ?? 0)))
        face.close()
        inbox.finish()
        return RunOutcome(reason: reason, summary: summary, error: error)
    }

    /// The take recording now (tests).
    var recordingTake: Int? { takes.current?.take }
}
