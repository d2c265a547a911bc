import DuoCore
import DuoMedia
import DuoPlatform
import DuoRender
import Foundation

//  One run, one director: the headless and desktop runs are the same program with a different face.
//
//   keys (DesktopUI key bindings) ─┐
//   control socket lines ──────────┤  ControlCommand          ┌─▶ CapturePort (CaptureSession: graph, takes)
//   timeline entries ──────────────┼──────────┐               │
//   signals, timers, ticks ────────┘          ▼               ├─▶ SubjectPresenter (subject view state)
//                                   RunInput stream ─▶ RunDirector ─┼─▶ RunFace (headless: nothing; desktop: windows)
//   face facts (accessory shown, fullscreen) ─┘    (actor)    ├─▶ EventLog (--events, control clients)
//   session facts (take failed, fatal error) ─┘               └─▶ sidecars, summary, exit code
//
//  Every decision is made once, on the director's actor, in pipeline running time. The policy lives in
//  DuoCore's state machines (TakeSchedule, CameraHealth, RemoteDisplayRoster, FrameFlow, AccessoryAvailability);
//  the director feeds them facts and carries their decisions out through its ports (CapturePort,
//  TakeFilesPort, DevicePort, RemoteDisplayHandshakePort, VoicePort, RunFace). This file holds the input loop,
//  the start, the end and the exit; RunDirector+Commands/Takes/Cameras/Facts/Script/Remotes/Voice/Figures
//  carry out each part.

/// Why a run ended.
///
/// Thread: value type, Sendable.
enum EndReason: Sendable, Equatable {
    case duration, quit, signal(String), failed(DuoError)
    var text: String {
        switch self {
        case .duration: "duration reached"
        case .quit: "quit command"
        case .signal(let s): "\(s) received"
        case .failed: "failed"
        }
    }
}

/// Where a command came from, as the `command` event reports it.
///
/// Thread: value type, Sendable.
enum CommandSource: String, Sendable { case key, control, timeline, remote, osc, button }

/// Everything that reaches the director, from any thread.
///
/// Thread: value type, Sendable.
enum RunInput: Sendable {
    case command(ControlCommand, source: CommandSource)
    case signal(String)
    /// The graph is playing.
    case started
    case startFailed(DuoError)
    case session(SessionEvent)
    /// The face's report: the accessory's state changed (enabled by the user, or availability).
    case accessory(AccessoryChange, subjectMonitor: String?)
    /// The face's report: the operator window's fullscreen state changed.
    case fullscreen(Bool)
    /// The face's report: the subject window's size, device pixels (the subject monitor's): the view is
    /// laid out for it.
    case subjectSize(width: Int, height: Int)
    /// Time has passed: countdowns, durations and watchdogs are checked against the clock.
    case tick
    /// The device monitor saw a camera come or go.
    case devicesChanged
    /// A remote display answered (or not) the handshake.
    case remoteAnswer(Int, RemoteDisplayHandshakeClient.Outcome)
    /// Voice-follow's recogniser for the script now on screen, its model built and loaded off the
    /// director (nil: it cannot be followed), with what to tell the operator.
    case voiceModel(Result<(any PreparedRecogniser)?, DuoError>, notices: [String], ticket: Int)
    /// A script read and laid out off the director (saved again, or another opened), for load `ticket`.
    case scriptPrepared(Result<SubjectPresenter.PreparedScript, DuoError>, ticket: Int)
}

/// How a run ended, and what it tells the user and the shell.
///
/// Thread: value type, Sendable; made once by `RunDirector.finish`.
struct RunOutcome: Sendable {
    let reason: EndReason
    let summary: RunSummary?
    /// The error that decides the exit code (nil: exit 0).
    let error: DuoError?
    var exitCode: Int32 { error?.kind.exitCode ?? 0 }
}

/// The run's policy, shared by the headless and desktop runs.
///
/// Thread: an actor. `send` may be called from any thread (GTK, the control socket's readers, signals,
/// timers); inputs are carried out one at a time in arrival order, except that an end (quit, a signal)
/// goes ahead of everything queued, and nothing queued runs after it.
actor RunDirector {
    /// The options the director decides with.
    ///
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        var countdown = Countdown.defaultValue
        var record = false
        var duration: Double?
        /// Prepared (checked, created) at start-up when `--record` was given, else on the first take.
        var recordDirectory: String?
        var recordDirectoryOption: String?
        var swapPolicy = SwapPolicy.lock
        var keepSegments = false
        var cameraLoss = CameraLossPolicy.wait
        var timeline: Timeline?
        /// The script file, watched while the run goes on: saved, it is reloaded in place.
        var scriptPath: String?
        var accessoryEnabled = true
        /// `--follow voice`: the teleprompter follows the voice from the start.
        var followVoice = false
        /// `--subject-remote`: displays on other machines, their passphrase and SRT latency budget.
        var remoteDisplays: [SRTAddress] = []
        var remotePassphrase: String?
        var srtLatency = 120
        /// `--shots`: the shot list walked, and its file (watched: saved, it is reloaded keeping the shot).
        var shots: ShotList?
        var shotsPath: String?
        /// `--start-timeout`: how long start-up waits for the camera's first frame (the `starting` event).
        var startTimeout = 10.0

        init() {}
        init(_ options: Options, recordDirectory: String?, remotePassphrase: String? = nil) {
            remoteDisplays = options.remoteDisplays
            self.remotePassphrase = remotePassphrase
            srtLatency = options.srtLatency
            countdown = options.countdown
            record = options.record
            duration = options.duration
            self.recordDirectory = recordDirectory
            recordDirectoryOption = options.recordDirectory
            swapPolicy = options.swapPolicy
            keepSegments = options.keepSegments
            cameraLoss = options.cameraLoss
            timeline = options.timeline
            scriptPath = options.subject.scriptPath
            accessoryEnabled = options.subject.accessory != .off
            followVoice = options.followVoice
            shots = options.shots
            shotsPath = options.shotsPath
            startTimeout = options.startTimeout
        }
    }

    /// How long before the countdown's end the take's branch is attached, so the encoder is ready; the
    /// start gate still drops every frame captured before the end.
    static let attachLead: Int64 = 150_000_000
    static let tickInterval: Int64 = 200_000_000
    /// Frames stop counting as flowing when the camera delivered none within this span.
    static let flowingWindow: Int64 = 1_000_000_000

    let settings: Settings
    let plan: GraphPlan
    let capture: any CapturePort
    let presenter: SubjectPresenter
    let face: any RunFace
    let clock: any RunClock
    let events: EventLog
    let log: @Sendable (String) -> Void
    let sidecars: SidecarWriter

    nonisolated let inputs: AsyncStream<RunInput>
    nonisolated let inputSink: AsyncStream<RunInput>.Continuation
    /// An end that arrived: checked before each queued input, so it goes ahead of them.
    nonisolated let urgentEnd = Locked<EndReason?>(nil)

    // Takes.
    var recordDirectory: String?
    /// The remote displays: connected, asked, away and when asked again.
    var remotes: RemoteDisplayRoster
    /// Voice-follow's model for another script, built and loaded off the director.
    let voice: any VoicePort
    /// Where takes go: the record folder, claimed names, files kept or discarded.
    let files: any TakeFilesPort
    /// How a remote display is asked (its TCP handshake); a fake in tests.
    let handshake: any RemoteDisplayHandshakePort
    /// Starts watching the cameras that come and go (the device monitor), waking the director on a change.
    let watchDevices: @Sendable (@escaping @Sendable () -> Void) -> (any DevicePort)?
    /// Countdowns, the take recording, numbering, segments and the run's end: decided there.
    var takes: TakeSchedule
    var pending: TakeSchedule.Countdown? { takes.pending }
    var current: TakeSchedule.Current? { takes.current }
    var ended: [TakeResult] = []

    // The run.
    private(set) var isStarted = false
    var startedDate = Date()
    var startedAt: Int64 = 0
    var endReason: EndReason?
    var accessoryEnabled: Bool
    var cameraLabel: String
    var cameraFormat: String
    /// Whose face each camera sees, once a `faces` command changed it (RunDirector+Posture).
    var liveFaces: [FacingViewer]?
    /// Segmented takes being joined in the background (RunDirector+Join); the run's end waits for them.
    var joinJobs: [Task<Void, Never>] = []
    /// Takes whose segments were joined (the summary lists the joined file in their place).
    var joinedTakes: [JoinedTake] = []
    var timers: [Task<Void, Never>] = []
    var early: [RunInput] = []

    // Watchdogs.
    /// The cameras' losses, restorations and retries: decided there.
    var health: CameraHealth
    /// A named microphone's losses, restorations and gaps (RunDirector+Microphone), and its device watch.
    var microphone = MicrophoneHealth()
    var microphoneWatch: (any MicrophoneWatchPort)?
    /// Starts watching the named microphone by identity (the device monitor), waking the director on a change.
    var watchMicrophoneDevice: @Sendable (String, @escaping @Sendable () -> Void) -> (any MicrophoneWatchPort)? = {
        MicrophoneWatch(identity: $0, wake: $1)
    }
    /// Whether frames flow, with hysteresis (hidden after a real stall, shown after a steady run).
    var frameFlow = FrameFlow(stallAfter: RunDirector.flowingWindow)
    var lastStatusAt: Int64?
    var scriptStamp: ScriptStamp?
    /// The script on screen (it changes when another is opened); nil without one.
    var scriptPath: String?
    var hasScript: Bool { scriptPath != nil }
    var lastScriptCheckAt: Int64 = 0
    /// The recogniser failed (possibly before the graph played): voice-follow is not switched on.
    var recogniserDown = false

    // State the parts in RunDirector+*.swift keep.
    /// Every loss and restoration, for the sidecars of the takes they happened in.
    var interruptions: [(at: Int64, device: String, what: String, reason: String?)] = []
    /// The device monitor's view of the cameras this run uses (nil when every camera is simulated).
    var cameraWatch: (any DevicePort)?
    /// Locks taken on a camera plugged back at another device node.
    var reattachLocks: [Int: AnyObject] = [:]
    /// Whether the screen is being kept on: while a take runs or the teleprompter is shown.
    var screenOn = false
    /// Esc or F11 during a take asks again before leaving fullscreen (FullscreenLeave).
    var fullscreenLeave = FullscreenLeave()
    var subjectShown = false
    var scriptLoad: ScriptLoad?
    var scriptLoads = 0
    /// Voice models built so far: only the newest one's result is used (a later script supersedes it).
    var voiceBuilds = 0
    /// What voice-follow last said (mode, state, word, position): a `follow` event when one of them
    /// changes, the position by a word or more.
    var lastFollow: (said: [String], position: Double)?
    var warnings = WarningThrottle()
    /// `--shots`: the current shot, each shot's takes and marks (RunDirector+Shots).
    var shotWalk: ShotWalk?
    var shotsStamp: ScriptStamp?
    var lastShotsCheckAt: Int64 = 0
    /// Framing hints (`--framing`): the policy, and what the last `framing` event said (RunDirector+Framing).
    var framing: FramingPolicy?
    var framingReport = FramingReport()

    init(settings: Settings, plan: GraphPlan, capture: any CapturePort, presenter: SubjectPresenter, face: any RunFace,
         clock: any RunClock, events: EventLog, files: any TakeFilesPort = DiskTakeFiles(), voice: any VoicePort = PocketsphinxVoice(),
         handshake: any RemoteDisplayHandshakePort = NetworkHandshake(),
         watchDevices: @escaping @Sendable (@escaping @Sendable () -> Void) -> (any DevicePort)? = { CameraWatch(wake: $0) },
         log: @escaping @Sendable (String) -> Void) {
        self.settings = settings; self.plan = plan; self.capture = capture; self.presenter = presenter
        self.face = face; self.clock = clock; self.events = events; self.log = log
        sidecars = SidecarWriter(plan: plan, countdown: settings.countdown, log: log)
        recordDirectory = settings.recordDirectory
        self.handshake = handshake
        self.files = files
        self.voice = voice
        self.watchDevices = watchDevices
        remotes = RemoteDisplayRoster(listening: settings.remoteDisplays.map(\.isListener))
        takes = TakeSchedule(countdown: settings.countdown, attachLead: Self.attachLead, duration: settings.duration)
        health = CameraHealth(cameraCount: plan.secondCamera == nil ? 1 : 2, frameRate: plan.format.frameRate.value,
                              reattachInterval: Self.reattachInterval)
        accessoryEnabled = settings.accessoryEnabled
        // Headless, no availability change ever says the view is shown; without this, the first
        // self-view toggle or script change shut the subject branch for good.
        subjectShown = face.shownAtStart(enabled: settings.accessoryEnabled)
        scriptPath = settings.scriptPath
        // The version on screen (read a moment ago): a save from now on is a change, even before the
        // first look at the file.
        scriptStamp = settings.scriptPath.flatMap(ScriptStamp.init)
        shotWalk = settings.shots.map(ShotWalk.init)
        shotsStamp = settings.shotsPath.flatMap(ScriptStamp.init)
        cameraLabel = plan.camera.label
        cameraFormat = plan.format.description
        if plan.framing != .off {
            framing = FramingPolicy(mode: plan.framing, aspect: plan.aspect, frameWidth: plan.format.width, frameHeight: plan.format.height)
        }
        (inputs, inputSink) = AsyncStream.makeStream(of: RunInput.self, bufferingPolicy: .unbounded)
        face.connect { [inputSink, urgentEnd] input in Self.enqueue(input, sink: inputSink, urgent: urgentEnd) }
    }

    /// Hands the director an input, from any thread; never blocks.
    nonisolated func send(_ input: RunInput) { Self.enqueue(input, sink: inputSink, urgent: urgentEnd) }

    static func enqueue(_ input: RunInput, sink: AsyncStream<RunInput>.Continuation, urgent: Locked<EndReason?>) {
        switch input {
        case .command(.quit, _): urgent.update { $0 = $0 ?? .quit }
        case .signal(let name): urgent.update { $0 = $0 ?? .signal(name) }
        default: break
        }
        sink.yield(input)
    }

    // MARK: The run

    /// Starts the graph, carries out inputs until the run ends, then finishes it. Signals, quit and the
    /// control socket are honoured from the first instant, also while the graph is still starting.
    func run() async -> RunOutcome {
        let capture = self.capture, sink = inputSink
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
                sink.yield(.started)
            } catch {
                sink.yield(.startFailed(error))
            }
        }
        let sessionEvents = Task { for await event in capture.events { sink.yield(.session(event)) } }
        for await input in inputs {
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
        if let end = urgentEnd.value { self.end(end) }
        guard endReason == nil else { return }
        switch input {
        case .command(let command, _) where !isStarted && command != .quit:
            // Commands that come while the graph is still starting are carried out once it plays.
            early.append(input)
        case .command(let command, let source):
            events.emit(.command(cmd: command.name, source: source.rawValue))
            await handle(command)
        case .signal(let name): end(.signal(name))
        case .started: await started()
        case .startFailed(let error): end(.failed(error))
        case .session(let event): await handle(event)
        case .accessory(let change, let monitor): await accessoryChanged(change, subjectMonitor: monitor)
        case .fullscreen(let on):
            fullscreenLeave.fullscreen = on
            events.emit(.fullscreen(on))
        case .subjectSize(let width, let height): await presenter.resize(width: width, height: height, at: clock.now())
        case .tick: await tick()
        case .voiceModel(let result, let notices, let ticket): await voiceModelReady(result, notices: notices, ticket: ticket)
        case .scriptPrepared(let result, let ticket): await scriptPrepared(result, ticket: ticket)
        case .remoteAnswer(let index, let outcome): await remoteAnswered(index, outcome)
        case .devicesChanged:
            await watchDevices(woken: true)
            await watchMicrophone(at: clock.now(), woken: true)
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
        health.started(at: startedAt)
        log("duo-capture: capturing \(plan.camera.label) at \(plan.format)\(plan.requirementNote) (camera mode \(plan.cameraMode.format) \(plan.cameraMode.pixelFormat)\(plan.evenSizeNote.map { "; \($0)" } ?? ""))")
        events.emit(.started(camera: plan.camera.label, format: plan.format.description))
        if !plan.requirements.isEmpty { events.emit(.requirements(required: plan.requirements.map(\.description), unmet: plan.unmetWishes)) }
        takes.runStarted(at: startedAt, recording: settings.record)
        if settings.record {
            // --record: the take starts when the countdown ends; --duration then counts from its start.
            await record(endingRun: true)
        } else if let end = takes.runEnd {
            wake(at: end)
        }
        if plan.deviceIdentities.contains(where: { $0 != nil }) {
            // A camera that comes or goes is looked at at once, not at the next tick.
            let sink = inputSink
            cameraWatch = watchDevices { sink.yield(.devicesChanged) }
        }
        if plan.voice != nil, !recogniserDown {
            if let why = await presenter.enableVoice(follow: settings.followVoice, at: clock.now()) {
                notify("voice-follow: \(why); following by time")
            }
            await reportFollow()
        } else if settings.followVoice {
            // Asked for, but the script cannot be followed (said at start), or the recogniser could not
            // load its model (said when it failed): time.
            await reportFollow()
        }
        await shotsStarted()
        microphoneStarted()
        if let timeline = settings.timeline { replay(timeline) }
        let waiting = early
        early.removeAll()
        for input in waiting {
            await process(input)
            if endReason != nil { return }
        }
        let clock = self.clock, sink = inputSink
        timers.append(Task {
            while !Task.isCancelled {
                await clock.sleep(until: clock.now() + Self.tickInterval)
                sink.yield(.tick)
            }
        })
        await tick()
    }

    /// The timeline's commands at their times after the start, exactly as if a control client sent them.
    func replay(_ timeline: Timeline) {
        let clock = self.clock, start = startedAt, events = self.events, sink = inputSink, urgent = urgentEnd
        timers.append(Task {
            for entry in timeline.entries {
                await clock.sleep(until: start + Int64(entry.at * 1e9))
                if Task.isCancelled { return }
                events.emit(.timeline(at: entry.at))
                Self.enqueue(.command(entry.command, source: .timeline), sink: sink, urgent: urgent)
            }
        })
    }

    /// A tick at `time` (on the run's clock), for a deadline that must not wait for the next regular tick.
    func wake(at time: Int64) {
        let clock = self.clock, sink = inputSink
        timers.append(Task {
            await clock.sleep(until: time)
            if !Task.isCancelled { sink.yield(.tick) }
        })
    }

    // MARK: Time

    /// Checks every deadline against the clock: the countdown's take, the run's end, the watchdogs; then
    /// the figures and, once a second, a status event.
    func tick() async {
        guard isStarted else { return }
        let now = clock.now()
        // Attached a little early; the take still starts exactly at the countdown's end.
        await carry(takes.due(at: now))
        if takes.runIsOver(at: now) { return end(.duration) }
        // One reading of the counters serves the watchdogs and the figures of this tick.
        let counts = await capture.counts
        if plan.voice != nil {
            await presenter.steerVoice(at: now)
            await reportFollow()
        }
        await watchDevices()
        await watchRemotes(at: now)
        await watchCameras(at: now)
        await reattach(at: now)
        await watchMicrophone(at: now)
        await watchFrames(now, cameraFrames: counts.camera.frames)
        if endReason != nil { return }
        if now - lastScriptCheckAt >= nanosecondsPerSecond / 2 { await watchScript(now) }
        if now - lastShotsCheckAt >= nanosecondsPerSecond / 2 { await watchShots(now) }
        await framingTick(now)
        if now - (lastStatusAt ?? startedAt - nanosecondsPerSecond) >= nanosecondsPerSecond { await status(trigger: "periodic") }
        await showFigures(counts)
    }

    /// The camera on the air: frames flowing (with hysteresis), a single camera coming back, and a
    /// stall (an unplugged camera usually posts an error, but sometimes just goes quiet).
    func watchFrames(_ now: Int64, cameraFrames frames: Int64) async {
        let decision = health.observeActive(frames: frames, active: await capture.activeCamera, at: now)
        if case .restored = decision, let decision { await carry(decision) }
        if let flowing = frameFlow.observe(frames: frames, at: now) {
            events.emit(.frames(flowing: flowing, cameraFrames: Int(frames)))
            face.setFramesFlowing(flowing)
        }
        if case .lost = decision, let decision { await carry(decision) }
    }


    // MARK: The end

    /// Ends the run: a countdown is cancelled, a running take finalised (its sidecar and summary line
    /// written), the graph stopped, the windows closed; then the one exit decision.
    func finish() async -> RunOutcome {
        end(urgentEnd.value ?? .duration)
        let reason = endReason ?? .duration
        for t in timers { t.cancel() }
        timers.removeAll()
        if pending != nil { await cancelCountdown() }
        if current != nil { await stopTake() }
        if screenOn { screenOn = false; face.keepScreenOn(false, reason: "the run ended") }
        for (warning, count) in warnings.pending {
            log("duo-capture: warning: \(warning) (\(count) more like it since it was last shown)")
        }
        let counts = await capture.counts
        await capture.stopCapture()
        await finishJoins()
        // A run that never got its graph playing has no summary: its error says it all.
        let summary = isStarted
            ? RunSummary(plan: plan, counts: counts, takes: ended, joined: joinedTakes, started: startedDate, endReason: reason.text) : nil
        // The exit code says what happened to the takes: a run that failed, or a take that recorded frames
        // and then failed (full disk), is an error; a take stopped before its first frame is only empty.
        var error: DuoError?
        if case .failed(let e) = reason { error = e }
        else if let failed = ended.first(where: { $0.failure != nil && !$0.empty }) { error = failed.failure }
        if !isStarted, error == nil { log("duo-capture: stopped before the capture graph started (\(reason.text))") }
        events.emit(.stopped(reason: reason.text, exitCode: Int(error?.kind.exitCode ?? 0)))
        face.close()
        inputSink.finish()
        return RunOutcome(reason: reason, summary: summary, error: error)
    }

    /// The take recording now (tests).
    var recordingTake: Int? { current?.take }
}


