import DuoCore
import DuoMedia
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
//  Every decision (countdown, take numbering and start, swaps, presenter commands, watchdogs, the end
//  and the exit code) is made here, once, on the director's actor, in pipeline running time.

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
enum CommandSource: String, Sendable { case key, control, timeline }

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
    case remoteAnswer(Int, RemoteHandshakeClient.Outcome)
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
        var swapPolicy = SwapPolicy.segment
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
            cameraLoss = options.cameraLoss
            timeline = options.timeline
            scriptPath = options.subject.scriptPath
            accessoryEnabled = options.subject.accessory != .off
            followVoice = options.followVoice
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
    private let sidecars: SidecarWriter

    nonisolated let inputs: AsyncStream<RunInput>
    private nonisolated let inputSink: AsyncStream<RunInput>.Continuation
    /// An end that arrived: checked before each queued input, so it goes ahead of them.
    private nonisolated let urgentEnd = Locked<EndReason?>(nil)

    // Takes.
    private var recordDirectory: String?
    /// The remote displays: connected, asked, away and when asked again.
    private var remotes: RemoteRoster
    /// Voice-follow's model for another script, built and loaded off the director.
    let voice: any VoicePort
    /// Where takes go: the record folder, claimed names, files kept or discarded.
    let files: any TakeFilesPort
    /// How a remote display is asked (its TCP handshake); a fake in tests.
    let handshake: any RemoteHandshakePort
    /// Starts watching the cameras that come and go (the device monitor), waking the director on a change.
    let watchDevices: @Sendable (@escaping @Sendable () -> Void) -> (any DevicePort)?
    /// Countdowns, the take recording, numbering, segments and the run's end: decided there.
    private var takes: TakeSchedule
    private var pending: TakeSchedule.Countdown? { takes.pending }
    private var current: TakeSchedule.Current? { takes.current }
    private var ended: [TakeResult] = []

    // The run.
    private(set) var isStarted = false
    private var startedDate = Date()
    private var startedAt: Int64 = 0
    private var endReason: EndReason?
    private var accessoryEnabled: Bool
    private var cameraLabel: String
    private var cameraFormat: String
    private var audioPeak: Double?
    private var timers: [Task<Void, Never>] = []
    private var early: [RunInput] = []

    // Watchdogs.
    /// The cameras' losses, restorations and retries: decided there.
    private var health: CameraHealth
    /// Whether frames flow, with hysteresis (hidden after a real stall, shown after a steady run).
    private var frameFlow = FrameFlow(stallAfter: RunDirector.flowingWindow)
    private var lastStatusAt: Int64?
    private var scriptStamp: ScriptStamp?
    /// The script on screen (it changes when another is opened); nil without one.
    private var scriptPath: String?
    private var hasScript: Bool { scriptPath != nil }
    private var lastScriptCheckAt: Int64 = 0
    /// The recogniser failed (possibly before the graph played): voice-follow is not switched on.
    private var recogniserDown = false

    init(settings: Settings, plan: GraphPlan, capture: any CapturePort, presenter: SubjectPresenter, face: any RunFace,
         clock: any RunClock, events: EventLog, files: any TakeFilesPort = DiskTakeFiles(), voice: any VoicePort = PocketsphinxVoice(),
         handshake: any RemoteHandshakePort = NetworkHandshake(),
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
        remotes = RemoteRoster(listening: settings.remoteDisplays.map(\.isListener))
        takes = TakeSchedule(countdown: settings.countdown, attachLead: Self.attachLead, duration: settings.duration)
        health = CameraHealth(cameraCount: plan.secondCamera == nil ? 1 : 2, frameRate: plan.format.frameRate.value,
                              reattachInterval: Self.reattachInterval)
        accessoryEnabled = settings.accessoryEnabled
        scriptPath = settings.scriptPath
        // The version on screen (read a moment ago): a save from now on is a change, even before the
        // first look at the file.
        scriptStamp = settings.scriptPath.flatMap(ScriptStamp.init)
        cameraLabel = plan.camera.label
        cameraFormat = plan.format.description
        (inputs, inputSink) = AsyncStream.makeStream(of: RunInput.self, bufferingPolicy: .unbounded)
        face.connect { [inputSink, urgentEnd] input in Self.enqueue(input, sink: inputSink, urgent: urgentEnd) }
    }

    /// Hands the director an input, from any thread; never blocks.
    nonisolated func send(_ input: RunInput) { Self.enqueue(input, sink: inputSink, urgent: urgentEnd) }

    private static func enqueue(_ input: RunInput, sink: AsyncStream<RunInput>.Continuation, urgent: Locked<EndReason?>) {
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
        let capture = self.capture, sink = inputSink, urgent = urgentEnd
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
            if let end = urgent.value { self.end(end) } else { await process(input) }
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
            events.emit("command", ["cmd": command.name, "source": source.rawValue])
            await handle(command)
        case .signal(let name): end(.signal(name))
        case .started: await started()
        case .startFailed(let error): end(.failed(error))
        case .session(let event): await handle(event)
        case .accessory(let change, let monitor): await accessoryChanged(change, subjectMonitor: monitor)
        case .fullscreen(let on): events.emit("fullscreen", ["fullscreen": on])
        case .subjectSize(let width, let height): await presenter.resize(width: width, height: height, at: clock.now())
        case .tick: await tick()
        case .voiceModel(let result, let notices, let ticket): await voiceModelReady(result, notices: notices, ticket: ticket)
        case .scriptPrepared(let result, let ticket): await scriptPrepared(result, ticket: ticket)
        case .remoteAnswer(let index, let outcome): await remoteAnswered(index, outcome)
        case .devicesChanged: await watchDevices(woken: true)
        }
    }

    private func end(_ reason: EndReason) {
        if endReason == nil { endReason = reason }
    }

    private func started() async {
        guard !isStarted else { return }
        isStarted = true
        startedDate = Date()
        startedAt = clock.now()
        health.started(at: startedAt)
        log("duo-capture: capturing \(plan.camera.label) at \(plan.format) (camera mode \(plan.cameraMode.format) \(plan.cameraMode.pixelFormat))")
        events.emit("started", ["camera": plan.camera.label, "format": plan.format.description])
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
    private func replay(_ timeline: Timeline) {
        let clock = self.clock, start = startedAt, events = self.events, sink = inputSink, urgent = urgentEnd
        timers.append(Task {
            for entry in timeline.entries {
                await clock.sleep(until: start + Int64(entry.at * 1e9))
                if Task.isCancelled { return }
                events.emit("timeline", ["at": entry.at])
                Self.enqueue(.command(entry.command, source: .timeline), sink: sink, urgent: urgent)
            }
        })
    }

    /// A tick at `time` (on the run's clock), for a deadline that must not wait for the next regular tick.
    private func wake(at time: Int64) {
        let clock = self.clock, sink = inputSink
        timers.append(Task {
            await clock.sleep(until: time)
            if !Task.isCancelled { sink.yield(.tick) }
        })
    }

    // MARK: Commands

    private func handle(_ command: ControlCommand) async {
        let now = clock.now()
        switch command {
        case .record:
            await record()
        case .stop:
            await carry(takes.stop())
        case .toggleRecord:
            if takes.isBusy { await carry(takes.toggle(at: now)) } else { await record() }
        case .cancelCountdown:
            await carry(takes.cancel())
        case .quit:
            end(.quit)
        case .accessory(let on):
            accessoryEnabled = on ?? !accessoryEnabled
            face.setAccessory(enabled: accessoryEnabled)
        case .fullscreen(let on):
            if let why = face.setFullscreen(on) { refuse(why) }
        case .swap, .fold, .unfold:
            // Posture picks the camera as on the Duo: unfolded (open) uses camera A (inner), folded B (outer).
            let requested: Int? = command == .fold ? 1 : command == .unfold ? 0 : nil
            let active = await capture.activeCamera
            let target = requested ?? (1 - active)
            if health.lost.contains(target), plan.secondCamera != nil {
                refuse("camera \(cameraLetter(target)) (\(cameraName(target))) is lost; it is taken back when it returns")
            } else {
                await swapCameras(requested)
            }
        case .unplug(let camera), .replug(let camera):
            do throws(DuoError) {
                var plugged = false
                if case .replug = command { plugged = true }
                // A camera from the device monitor is pulled out and plugged back through its provider
                // (the test provider's cameras), so the run hears it as it hears a real camera come and go.
                if camera < plan.deviceIdentities.count, let identity = plan.deviceIdentities[camera], let watch = cameraWatch {
                    try watch.setTestCameraPlugged(identity, plugged)
                    return
                }
                try await plug(camera, plugged)
                // The test hub's plug state holds: an unplugged camera is not tried again by itself.
                health.hubPlugged(camera, plugged)
            } catch { refuse("\(command.name): \(error.message)") }
        case .follow(let voice):
            if let why = await presenter.setFollow(voice: voice, at: now) { refuse("follow: \(why)") } else { await reportFollow() }
        case .rotate(let camera, let degrees):
            do throws(DuoError) { try await capture.rotateCamera(camera, degrees: degrees) }
            catch { refuse("rotate: \(error.message)") }
        case .subjectMonitorPlugged(let on):
            if let why = face.setSubjectMonitorPlugged(on) { refuse(why) }
        case .mirror:
            await presenter.cycleMirror(at: now)
            await status(trigger: "command")
        case .script(let path):
            await openScript(path, at: now)
        case .speedStep, .speedPreset, .pause, .jump, .fontStep:
            guard hasScript else { return refuse("no teleprompter script in this run; open one with O or {\"cmd\":\"script\",\"path\":…}, or give --script FILE") }
            switch command {
            case .speedStep(let step): await presenter.stepSpeed(step, at: now)
            case .speedPreset(let n): await presenter.preset(n, at: now)
            case .pause: await presenter.togglePause(at: now)
            case .jump(.next): await presenter.nextMarker(at: now)
            case .jump(.previous): await presenter.previousMarker(at: now)
            case .jump(.start): await presenter.restart(at: now)
            case .fontStep(let step): await presenter.stepFontSize(step, at: now)
            default: break
            }
            await status(trigger: "command")
        }
        await showFigures()
    }

    private func refuse(_ message: String) {
        events.emit("error", ["message": "control: \(message)"])
    }

    // MARK: Takes

    /// Starts the countdown; the take begins at its end, in pipeline time. A 0 s countdown starts at once.
    /// `endingRun`: the `--record` take, whose start `--duration` counts from.
    private func record(endingRun endsRun: Bool = false) async {
        if !takes.isBusy, recordDirectory == nil {
            do throws(DuoError) { recordDirectory = try files.prepareDirectory(settings.recordDirectoryOption) } catch {
                return takeCannotStart(error)
            }
        }
        await carry(takes.record(at: clock.now(), endsRun: endsRun))
    }

    /// Carries out the take schedule's decision.
    private func carry(_ decision: TakeSchedule.Decision) async {
        let now = clock.now()
        switch decision {
        case .nothing: break
        case .refuse(let why): refuse(why)
        case .countdown(let take, let seconds, let attachAt):
            log("duo-capture: recording starts in \(seconds) s")
            events.emit("countdown", ["seconds": seconds, "take": take])
            await presenter.countdownStarted(at: now)
            wake(at: attachAt)
        case .cancelCountdown(let take):
            await presenter.countdownCancelled(at: now)
            events.emit("countdown-cancelled", ["take": take])
            log("duo-capture: countdown cancelled")
        case .begin(let take, let at, let endsRun): await begin(take: take, at: at, endsRun: endsRun)
        case .stop: await stopTake()
        }
    }

    /// Cancels a countdown that has not started its take: nothing is recorded, nothing is left behind.
    private func cancelCountdown() async {
        guard pending != nil else { return }
        await carry(takes.cancel())
    }

    private func begin(take number: Int, at start: Int64, endsRun: Bool) async {
        guard let dir = recordDirectory else { return }
        let path = files.claim(TakeNaming(directory: dir, fileExtension: plan.container.rawValue), take: number)
        let actual: Int64
        do throws(DuoError) { actual = try await capture.beginTake(number: number, path: path, startingAt: start) } catch {
            files.discard(path)
            takeCannotStart(error)
            // A run that exists to record one take (--record) cannot go on without it.
            if endsRun { end(.failed(error)) }
            return
        }
        takes.began(take: number, at: actual, endsRun: endsRun)
        await updateScreenOn()
        await presenter.takeStarted(at: actual)
        // Individual mode: the files of one take split by camera share an id and count their segments.
        let segment = plan.individual ? takes.segment(forFile: path) : nil
        sidecars.started(take: number, path: path, camera: await capture.activeCamera, segment: segment)
        events.emit("take-started", ["take": number, "file": path])
        log("duo-capture: recording take \(number) to \(path)")
        if endsRun, let end = takes.runEnd { wake(at: end) }
    }

    private func takeCannotStart(_ error: DuoError) {
        notify(error.message, .plain, errorEvent: true)
    }

    /// How a line to the operator is logged.
    enum Tone { case plain, warning }

    /// One thing the operator must hear of: the log (as a warning, or plain), the HUD's message line, and
    /// an `error` event for control clients and the events file when `errorEvent`.
    private func notify(_ message: String, _ tone: Tone = .warning, errorEvent: Bool = false, hud: Bool = true) {
        if errorEvent { events.emit("error", ["message": message]) }
        log("duo-capture: \(tone == .warning ? "warning: " : "")\(message)")
        if hud { face.say(message) }
    }

    private func stopTake() async {
        guard current != nil, let result = await capture.endTake() else { return }
        await takeEnded(result)
    }

    /// Every take's end, whether a command stopped it or it failed by itself: reported exactly once.
    private func takeEnded(_ result: TakeResult) async {
        guard !ended.contains(where: { $0.number == result.number }) else { return }
        takes.ended(take: result.number)
        await updateScreenOn()
        ended.append(result)
        // The markers are read before the presenter hears of the end (which resets the scroll).
        let markers = await presenter.markersPassed(from: result.startRunningTime, to: result.endRunningTime)
        await presenter.takeEnded(at: result.endRunningTime)
        // The last segment of a take split by camera lists every segment's file.
        sidecars.ended(result, markers: markers, interruptions: interruptions, segments: plan.individual ? takes.finishedSegments : nil)
        if let failure = result.failure { notify(failure.message, .plain) }
        let kept = files.exists(result.path)
        let dropped = RunSummary.branch(result.frames, interval: plan.format.frameRate.frameDurationNanoseconds).dropped
        events.emit("take-ended", ["take": result.number, "file": result.path, "frames": result.frames.frames, "dropped": dropped,
                                   "kept": kept, "empty": result.empty, "error": result.failure?.message ?? NSNull()])
        log("duo-capture: take \(result.number) ended: \(kept ? result.path : "nothing kept"), \(result.frames.frames) frames, \(dropped) dropped"
            + (result.empty ? " (stopped before its first frame)" : ""))
    }

    // MARK: Camera loss

    /// Every loss and restoration, for the sidecars of the takes they happened in.
    private var interruptions: [(at: Int64, device: String, what: String, reason: String?)] = []
    /// Two cameras (virtual or individual): one lost, the other goes on.
    private var cameraLossApplies: Bool { plan.secondCamera != nil }

    private func cameraLetter(_ index: Int) -> String { index == 0 ? "A" : "B" }
    private func cameraName(_ index: Int) -> String { index == 0 ? plan.camera.label : plan.secondCamera?.label ?? "?" }

    /// The documents' interruption: the session goes on. With two cameras (virtual mode) the take
    /// continues on the other one (the selector switches to it when the lost one was on the air), without
    /// a new file. With no camera left on the air, `--camera-loss wait` finalises the take and waits for
    /// the camera, re-attaching it when it returns; `exit` ends the run (exit 70).
    private func cameraLost(_ index: Int, reason: String) async {
        guard health.markLost(index, at: clock.now()) else { return }
        interruptions.append((clock.now(), cameraLetter(index), "lost", reason))
        let other = 1 - index
        let active = await capture.activeCamera
        let name = plan.secondCamera == nil ? "camera \(cameraName(index))" : "camera \(cameraLetter(index)) (\(cameraName(index)))"
        if cameraLossApplies, active != index || !health.lost.contains(other) {
            events.emit("camera-lost", ["camera": cameraLetter(index), "label": cameraName(index), "reason": reason])
            var message = "\(name) lost: \(reason)"
            if active == index {
                // Virtual mode: the same file goes on. Individual mode: the swap policy decides, as for
                // any swap (a new segment at the other camera's format, the take ended, or refused).
                await swapCameras(other)
                if await capture.activeCamera == other {
                    message += "; going on with camera \(cameraLetter(other))"
                } else {
                    message += "; camera \(cameraLetter(other)) cannot take over (--swap-policy lock)"
                    if pending != nil { await cancelCountdown() }
                    await stopTake()
                    message += "; the take is finalised"
                }
            }
            notify("\(message); it is taken back when it returns")
            return
        }
        if settings.cameraLoss == .exit {
            let error = DuoError.runtime("\(name) lost: \(reason); check the camera and start again")
            events.emit("error", ["message": error.message])
            return end(.failed(error))
        }
        events.emit("camera-lost", ["camera": cameraLetter(index), "label": cameraName(index), "reason": reason])
        if pending != nil { await cancelCountdown() }
        await stopTake()
        notify("\(name) lost: \(reason); the take is finalised, waiting for the camera to come back")
    }

    /// How often a lost camera (not unplugged on purpose) is tried again.
    static let reattachInterval: Int64 = 2_000_000_000
    /// Tries the lost cameras whose time has come: a source restarted in step with the graph; a device
    /// still missing fails again quietly (it is already reported lost).
    private func reattach(at now: Int64) async {
        for index in health.due(at: now) { try? await plug(index, true) }
    }

    /// The device monitor's view of the cameras this run uses (nil when every camera is simulated).
    private var cameraWatch: (any DevicePort)?
    /// Locks taken on a camera plugged back at another device node.
    private var reattachLocks: [Int: AnyObject] = [:]

    /// Cameras pulled out and plugged back, by identity: one pulled out is lost at once (not after the
    /// watchdog's wait), and one plugged back, at whatever /dev/videoN, is re-attached.
    private func watchDevices(woken: Bool = false) async {
        guard let watch = cameraWatch else { return }
        for change in watch.changes(woken: woken) {
            switch change {
            case .removed(let device):
                guard let index = plan.deviceIdentities.firstIndex(of: device.identity), health.deviceRemoved(index) else { continue }
                try? await plug(index, false)
                await cameraLost(index, reason: "unplugged (\(device.devicePath ?? device.name))")
            case .added(let device):
                guard let index = plan.deviceIdentities.firstIndex(of: device.identity), health.gone.contains(index) else { continue }
                if device.api != "duotest", let path = device.devicePath {
                    // The same camera at another node: lock that node, and open it there.
                    do throws(DuoError) {
                        reattachLocks[index] = try watch.lock(device: path, label: "id:\(device.identity)")
                        try await capture.setCameraDevice(index, path: path)
                    } catch {
                        notify("camera \(cameraLetter(index)) is back at \(path) but cannot be taken: \(error.message)")
                        continue
                    }
                }
                _ = health.deviceAdded(index)
                log("duo-capture: camera \(cameraLetter(index)) (\(cameraName(index))) plugged back in at \(device.devicePath ?? "?")")
                try? await plug(index, true)
            }
        }
    }

    /// Stops or restarts a camera's source, keeping the health's stopped sources in step (frames still in
    /// flight from before a stop never count as the camera coming back).
    private func plug(_ index: Int, _ plugged: Bool) async throws(DuoError) {
        health.sourceRunning(index, plugged)
        try await capture.setCameraPlugged(index, plugged)
    }

    private func cameraRestored(_ index: Int) {
        interruptions.append((clock.now(), cameraLetter(index), "restored", nil))
        events.emit("camera-restored", ["camera": cameraLetter(index), "label": cameraName(index)])
        log("duo-capture: camera \(cameraLetter(index)) (\(cameraName(index))) is back")
        face.say("camera \(cameraLetter(index)) is back")
    }

    /// Per-camera watchdog on the pipeline clock (two cameras): a camera silent for the health's loss
    /// timeout is lost; one that delivers again is restored.
    private func watchCameras(at now: Int64) async {
        guard cameraLossApplies else { return }
        let frames = await capture.cameraFrames
        let active = await capture.activeCamera
        for decision in health.observe(cameraFrames: frames, active: active, at: now) { await carry(decision) }
    }

    private func carry(_ decision: CameraHealth.Decision) async {
        switch decision {
        case .restored(let index): cameraRestored(index)
        case .lost(let index, let reason): await cameraLost(index, reason: reason)
        }
    }

    /// A swap, with the take handled as `--swap-policy` says when the cameras' formats differ.
    private func swapCameras(_ requested: Int?) async {
        takes.swapStarting(individual: plan.individual, segmentPolicy: settings.swapPolicy == .segment)
        defer { takes.swapDone() }
        switch await CameraSwitch.perform(requested, session: capture, plan: plan, policy: settings.swapPolicy,
                                          stopTake: { await self.stopTake() }) {
        case .unchanged: break
        case .refused(let why): refuse(why)
        case .swapped(let swap, let startNewTake):
            events.emit("swap", ["from": swap.from, "to": swap.to, "format": swap.format])
            cameraLabel = swap.to
            cameraFormat = swap.format
            // The next segment starts at once, at the new camera's format, as a new take and file.
            if startNewTake { await begin(take: takes.nextTake, at: clock.now(), endsRun: false) }
        }
    }

    // MARK: Facts

    private func handle(_ event: SessionEvent) async {
        switch event {
        case .failed(let error):
            events.emit("error", ["message": error.message])
            end(.failed(error))
        case .warning(let w): warn(w)
        case .takeEnded(let result): await takeEnded(result)
        case .audioLevel(_, let peak): audioPeak = peak.rounded()
        case .takeStarted: break
        case .cameraLost(let index, let reason):
            health.sourceRunning(index, false)   // the session stopped its source
            await cameraLost(index, reason: reason)
        case .speech(let text, let isFinal, let at):
            await presenter.hear(text, isFinal: isFinal, at: at)
            await presenter.steerVoice(at: clock.now())
            await reportFollow()
        case .remoteLost(let index, let reason):
            remoteLost(index, reason: reason)
        case .recogniserFailed(let why):
            // Also before the graph plays (a model the recogniser cannot load): voice-follow stays off.
            recogniserDown = true
            if let files = plan.voice { VoiceModelCache.forget(files) }   // the next run builds it again
            await presenter.disableVoice(at: clock.now())
            notify("voice-follow stopped (\(why)); the teleprompter follows time, the sound and any take go on", errorEvent: true)
            await reportFollow()
        case .microphoneLost(let reason):
            interruptions.append((clock.now(), "microphone", "lost", reason))
            notify("the microphone was lost (\(reason)); the run and any take go on without sound", errorEvent: true)
            audioPeak = nil
        case .subjectFailed(let why):
            notify("the subject view failed and is off for the rest of the run (\(why)); the preview and the recording go on",
                   errorEvent: true, hud: false)
            face.subjectViewFailed(enabled: accessoryEnabled)
        }
    }

    private func accessoryChanged(_ change: AccessoryChange, subjectMonitor: String?) async {
        events.emit(change.cause == .enabled ? "accessory" : "availability", [
            "enabled": change.enabled, "available": change.available, "shown": change.shown,
            "reasons": change.reasons.map(\.rawValue), "subjectMonitor": subjectMonitor ?? NSNull(),
        ])
        subjectShown = change.shown
        await updateSubjectPicture()
        let state = change.available ? "available" + (subjectMonitor.map { " on \($0)" } ?? "")
            : "unavailable (" + change.reasons.map(\.explanation).joined(separator: "; ") + ")"
        log("duo-capture: accessory \(change.enabled ? "enabled" : "disabled"), \(state)")
    }

    /// The subject branch does work only while its frames are on a screen: whenever the view is shown
    /// when the view is drawn into them (headless), and only for the preview kind's camera picture when
    /// the subject window draws the view itself (the desktop).
    private func updateSubjectPicture() async {
        let kind = await presenter.accessory
        let picture = subjectShown && (!face.drawsSubjectView || kind == .preview)
        await capture.setSubjectBranchOpen(picture)
        face.setSubjectPicture(picture && face.drawsSubjectView)
        // Remote displays show the subject view exactly while it is shown (black otherwise).
        await presenter.setRemoteViewsShown(subjectShown)
        await updateScreenOn()
    }

    /// Whether the screen is being kept on: while a take runs or the teleprompter is shown.
    private var screenOn = false

    private func updateScreenOn() async {
        let kind = await presenter.accessory
        let prompting = subjectShown && kind == .teleprompter
        let on = current != nil || prompting
        guard on != screenOn else { return }
        screenOn = on
        face.keepScreenOn(on, reason: current != nil ? "a take is recording" : "the teleprompter is shown")
    }
    private var subjectShown = false

    // MARK: Time

    /// Checks every deadline against the clock: the countdown's take, the run's end, the watchdogs; then
    /// the figures and, once a second, a status event.
    private func tick() async {
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
        await watchFrames(now, cameraFrames: counts.camera.frames)
        if endReason != nil { return }
        if now - lastScriptCheckAt >= nanosecondsPerSecond / 2 { await watchScript(now) }
        if now - (lastStatusAt ?? startedAt - nanosecondsPerSecond) >= nanosecondsPerSecond { await status(trigger: "periodic") }
        await showFigures(counts)
    }

    /// The camera on the air: frames flowing (with hysteresis), a single camera coming back, and a
    /// stall (an unplugged camera usually posts an error, but sometimes just goes quiet).
    private func watchFrames(_ now: Int64, cameraFrames frames: Int64) async {
        let decision = health.observeActive(frames: frames, active: await capture.activeCamera, at: now)
        if case .restored = decision, let decision { await carry(decision) }
        if let flowing = frameFlow.observe(frames: frames, at: now) {
            events.emit("frames", ["flowing": flowing, "cameraFrames": frames])
            face.setFramesFlowing(flowing)
        }
        if case .lost = decision, let decision { await carry(decision) }
    }

    /// Another script, opened while the run goes on: read and laid out off the director (the old one
    /// scrolls on meanwhile), then it becomes the one watched, remembered and scrolled.
    private func openScript(_ path: String, at now: Int64) async {
        await loadScript(await presenter.openRequest(path), stamp: ScriptStamp(path))
    }

    /// The script load under way off the director: a newer one (a later save, another script opened)
    /// supersedes it, and its result is dropped when it comes.
    private struct ScriptLoad { let ticket: Int; let path: String; let opening: Bool; let stamp: ScriptStamp?; let previousStamp: ScriptStamp? }
    private var scriptLoad: ScriptLoad?
    private var scriptLoads = 0

    /// Reads and lays out a script in a detached task (seconds for a 2 MB script); `scriptPrepared` swaps
    /// it in when it is ready.
    private func loadScript(_ request: SubjectPresenter.ScriptRequest?, stamp: ScriptStamp?, previousStamp: ScriptStamp? = nil) async {
        guard let request else { return }
        // A save whose reload is superseded by opening another script is looked at again should the
        // opening fail.
        if request.opening, let superseded = scriptLoad, !superseded.opening { scriptStamp = superseded.previousStamp }
        scriptLoads += 1
        scriptLoad = ScriptLoad(ticket: scriptLoads, path: request.path, opening: request.opening, stamp: stamp, previousStamp: previousStamp)
        let sink = inputSink, ticket = scriptLoads
        Task.detached(priority: .utility) {
            let result: Result<SubjectPresenter.PreparedScript, DuoError>
            do throws(DuoError) { result = .success(try SubjectPresenter.prepare(request)) } catch { result = .failure(error) }
            sink.yield(.scriptPrepared(result, ticket: ticket))
        }
    }

    private func scriptPrepared(_ result: Result<SubjectPresenter.PreparedScript, DuoError>, ticket: Int) async {
        guard let load = scriptLoad, load.ticket == ticket else { return }   // superseded
        scriptLoad = nil
        switch result {
        case .success(let prepared):
            let path = prepared.request.path
            let problems = await presenter.install(prepared, at: clock.now())
            if prepared.request.opening {
                scriptPath = path
                scriptStamp = load.stamp
                if let warning = ScriptChoice.standard().remember(path) { log("duo-capture: warning: \(warning.message)") }
                log("duo-capture: opened script \(path)")
            } else {
                log("duo-capture: script \(path) reloaded; the reading position is kept")
            }
            rebuildVoiceModel()
            for problem in problems { log("duo-capture: warning: script \(path) \(problem) (duo-capture check-script lists them)") }
            await updateSubjectPicture()
            await status(trigger: "script")
        case .failure(let error):
            if load.opening {
                // An opened script that cannot be read: the current one stays.
                refuse("script \(load.path): \(error.message)")
                face.say(error.message)
            } else {
                notify("script \(load.path) was saved but cannot be read (\(error.message)); the previous text stays on screen",
                       .plain, errorEvent: true)
            }
        }
    }

    /// What identifies a saved version of the script file: editors save by rewriting or by renaming a
    /// new file into place, so the inode, size and modification time together.
    ///
    /// Thread: value type.
    struct ScriptStamp: Equatable {
        let inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            inode = UInt64(info.st_ino); size = Int64(info.st_size)
            seconds = Int(info.st_mtim.tv_sec); nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    /// A script saved while the run goes on is reloaded, keeping the reading position; a save that does
    /// not parse keeps the old text on screen and says why (event, log, HUD).
    private func watchScript(_ now: Int64) async {
        lastScriptCheckAt = now
        // While another script is being opened, the one on screen is not reloaded (the opening wins).
        guard let path = scriptPath, scriptLoad?.opening != true else { return }
        let stamp = ScriptStamp(path)
        guard let previous = scriptStamp else { scriptStamp = stamp; return }
        guard let stamp, stamp != previous else { return }
        scriptStamp = stamp
        // Read and laid out off the director; the old text scrolls on until it is ready. A later save
        // supersedes this load.
        await loadScript(await presenter.reloadRequest(), stamp: stamp, previousStamp: previous)
    }

    // MARK: Remote displays

    /// Asks the displays whose time has come (at start, then every few seconds while away), off the
    /// director: the answer comes back as an input.
    private func watchRemotes(at now: Int64) async {
        for due in remotes.due(at: now) {
            switch due {
            case .listen(let index):
                // Listening: the display calls; the view is rendered at 1920x1080 for it.
                await remoteAnswered(index, .accepted(RemoteHandshakeClient.Display(width: 1920, height: 1080, refresh: 60)))
            case .ask(let index):
                let address = settings.remoteDisplays[index], passphrase = settings.remotePassphrase, sink = inputSink
                let handshake = self.handshake
                Task.detached { sink.yield(.remoteAnswer(index, handshake.ask(address, passphrase: passphrase))) }
            }
        }
        // A connected display whose frames stop (the network broke without an error yet) is not lost here:
        // SRT retransmits within its budget, and its error comes through the bus when it gives up.
    }

    private func remoteAnswered(_ index: Int, _ outcome: RemoteHandshakeClient.Outcome) async {
        remotes.answered(index)
        let address = settings.remoteDisplays[index]
        switch outcome {
        case .accepted(let display):
            do throws(DuoError) {
                let drawer = await presenter.remoteView(index, width: display.width, height: display.height, at: clock.now())
                try await capture.attachRemote(index, address: address, width: display.width, height: display.height,
                                               passphrase: settings.remotePassphrase, latencyMilliseconds: settings.srtLatency, drawer: drawer)
                remotes.connect(index, width: display.width, height: display.height)
                face.setRemoteDisplays(asked: remotes.count, connected: remotes.connectedCount)
                events.emit("remote", ["display": address.description, "state": "connected", "width": display.width,
                                       "height": display.height, "reason": NSNull()])
                log("duo-capture: remote display \(address) connected: the subject view at \(display.width)x\(display.height)"
                    + (settings.remotePassphrase == nil ? ", unencrypted" : ", encrypted"))
            } catch {
                remoteAway(index, .failed, reason: error.message)
            }
        case .refused(let reason): remoteAway(index, .refused, reason: reason)
        case .unreachable(let reason): remoteAway(index, .waiting, reason: reason)
        }
    }

    private func remoteLost(_ index: Int, reason: String) {
        remoteAway(index, .lost, reason: reason)
        face.setRemoteDisplays(asked: remotes.count, connected: remotes.connectedCount)
    }

    /// A display not (or no longer) shown: said once per state and reason, asked again later.
    private func remoteAway(_ index: Int, _ state: RemoteRoster.Away, reason: String) {
        guard remotes.away(index, state, reason: reason, at: clock.now()) else { return }
        let address = settings.remoteDisplays[index]
        events.emit("remote", ["display": address.description, "state": state.rawValue, "width": NSNull(), "height": NSNull(), "reason": reason])
        let what = state == .refused ? "refused this sender" : state == .lost ? "lost" : "not connected"
        notify("remote display \(address) \(what): \(reason); the take and the local views go on, and it is tried again",
               state == .waiting ? .plain : .warning)
    }

    /// The script changed while voice-follow listens: its model is built and the recogniser loads it off
    /// the director (reading the pronouncing dictionary, and pocketsphinx reading a large script's model,
    /// take a moment); the recogniser is replaced when it is ready.
    private func rebuildVoiceModel() {
        guard plan.voice != nil, let path = scriptPath else { return }
        voiceBuilds += 1
        let sink = inputSink, ticket = voiceBuilds, plan = self.plan, voice = self.voice
        Task.detached {
            var notices: [String] = []
            let result: Result<(any PreparedRecogniser)?, DuoError>
            do throws(DuoError) {
                result = .success(try voice.prepare(scriptPath: path, plan: plan, notices: &notices))
            } catch { result = .failure(error) }
            sink.yield(.voiceModel(result, notices: notices, ticket: ticket))
        }
    }
    /// Voice models built so far: only the newest one's result is used (a later script supersedes it).
    private var voiceBuilds = 0

    private func voiceModelReady(_ result: Result<(any PreparedRecogniser)?, DuoError>, notices: [String], ticket: Int) async {
        guard ticket == voiceBuilds else { return }
        for notice in notices { log("duo-capture: \(notice)") }
        switch result {
        case .success(let loaded?):
            do throws(DuoError) {
                try await capture.installRecogniser(loaded)
                log("duo-capture: voice-follow listens for the new script's words")
            } catch {
                log("duo-capture: warning: voice-follow keeps the previous script's words: \(error.message)")
            }
        case .success(nil): break
        case .failure(let error): log("duo-capture: warning: voice-follow keeps the previous script's words: \(error.message)")
        }
        await reportFollow()
    }

    /// What voice-follow last said (mode, state, word, position): a `follow` event when one of them
    /// changes, the position by a word or more.
    private var lastFollow: (said: [String], position: Double)?

    private func reportFollow() async {
        let now = clock.now()
        let s = await presenter.status(at: now)
        let f = s.follow
        let said = [f == nil ? "time" : "voice", f?.stateName ?? "", f?.word ?? ""]
        if let last = lastFollow, last.said == said, abs(s.position - last.position) < 1 { return }
        lastFollow = (said, s.position)
        events.emit("follow", ["mode": said[0], "state": f?.stateName ?? NSNull(), "word": f?.word ?? NSNull(),
                               "position": (s.position * 10).rounded() / 10, "at": (Double(now) / 1e6).rounded() / 1e3])
    }

    private func status(trigger: String) async {
        let now = clock.now()
        lastStatusAt = now
        let s = await presenter.status(at: now)
        let counts = await capture.counts
        let interval = plan.format.frameRate.frameDurationNanoseconds
        events.emit("status", ["trigger": trigger, "position": s.position, "length": s.length, "paused": s.paused,
                               "speed": s.speed, "secondsLeft": s.secondsLeft,
                               "mirror": "\(s.mirror.horizontal ? "h" : "")\(s.mirror.vertical ? "v" : "")",
                               "cameraFrames": counts.camera.frames, "operatorFrames": counts.operatorView.frames,
                               "subjectFrames": counts.subjectView.frames, "recording": current != nil,
                               "cameraDropped": RunSummary.branch(counts.camera, interval: interval).dropped,
                               "previewSkipped": RunSummary.branch(counts.operatorView, interval: interval).dropped,
                               "subjectSkipped": RunSummary.branch(counts.subjectView, interval: interval).dropped,
                               "fontSize": s.fontSize])
    }

    /// `counts`: the branch counters, when the caller has just read them.
    private func showFigures(_ known: BranchCounts? = nil) async {
        let now = clock.now()
        let counts: BranchCounts
        if let known { counts = known } else { counts = await capture.counts }
        let interval = plan.format.frameRate.frameDurationNanoseconds
        var f = HudModel.Run()
        f.cameraLabel = cameraLabel
        f.format = cameraFormat
        let active = plan.format(ofCamera: await capture.activeCamera)
        (f.cameraWidth, f.cameraHeight) = (active.width, active.height)
        f.recording = current != nil
        f.takeNumber = current?.take
        f.elapsedSeconds = current.map { Double(max(0, now - $0.start)) / 1e9 } ?? 0
        f.countdown = takes.displayedCountdown(at: now)
        let p = await presenter.status(at: now)
        f.accessoryKind = p.accessory.rawValue
        f.mirrored = p.mirror != .none
        if hasScript {
            f.scriptProgress = p.length > 0 ? min(1, p.position / p.length) : 0
            f.secondsLeft = p.secondsLeft
            f.speed = p.speed
            f.scrollPaused = p.paused
            f.follow = p.follow.map { f in f.state == .following && f.word != nil ? "following '\(f.word!)'" : f.stateName }
            f.notes = p.notes
        }
        f.cameraDropped = RunSummary.branch(counts.camera, interval: interval).dropped
        f.previewSkipped = RunSummary.branch(counts.operatorView, interval: interval).dropped
        f.subjectSkipped = RunSummary.branch(counts.subjectView, interval: interval).dropped
        f.audioPeakDB = audioPeak
        f.scriptProblems = presenter.scriptProblems.count
        face.show(f)
    }

    /// A warning from the graph, at most once a minute of each kind. A view's sink that cannot draw
    /// every frame (GStreamer's QoS "A lot of buffers are being dropped") is said to be the preview only.
    private func warn(_ warning: String) {
        let (show, held) = warnings.admit(warning, at: clock.now())
        guard show else { return }
        var line = "duo-capture: warning: \(warning)"
        if warning.hasPrefix("operator_") || warning.hasPrefix("subject_") {
            line += " (the preview skips frames this machine cannot draw in time; takes are not affected)"
        }
        if held > 0 { line += " (\(held) more like it in the last minute)" }
        log(line)
    }
    private var warnings = WarningThrottle()

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
        // A run that never got its graph playing has no summary: its error says it all.
        let summary = isStarted
            ? RunSummary(plan: plan, counts: counts, takes: ended, started: startedDate, endReason: reason.text) : nil
        // The exit code says what happened to the takes: a run that failed, or a take that recorded frames
        // and then failed (full disk), is an error; a take stopped before its first frame is only empty.
        var error: DuoError?
        if case .failed(let e) = reason { error = e }
        else if let failed = ended.first(where: { $0.failure != nil && !$0.empty }) { error = failed.failure }
        if !isStarted, error == nil { log("duo-capture: stopped before the capture graph started (\(reason.text))") }
        events.emit("stopped", ["reason": reason.text, "exitCode": Int(error?.kind.exitCode ?? 0)])
        face.close()
        inputSink.finish()
        return RunOutcome(reason: reason, summary: summary, error: error)
    }

    /// The take recording now (tests).
    var recordingTake: Int? { current?.take }
}


