import DuoCore
import DuoDesktop
import DuoMedia
import DuoRender
import Foundation

//  Desktop mode: the capture session behind two GTK windows.
//
//   main thread:   gtk_main ─ DesktopUI (windows, keys, monitors, fullscreen state, accessory state)
//                     │  DesktopCommand (AsyncStream, never blocks)        ▲ GtkMain.post (g_idle_add)
//                     ▼                                                    │
//   controller:    DesktopController (actor) ─ countdown, takes, frames-flowing watchdog, HUD figures
//                     │  await
//                     ▼
//   session:       CaptureSession (actor) ─ the GStreamer graph; gtksinks in the windows

/// What reaches the controller: keys, accessory changes (to open or shut the subject branch), ticks.
///
/// Thread: value type, Sendable; yielded from any thread (GTK, signals, timers), consumed by the controller.
enum DesktopCommand: Sendable {
    case action(DesktopAction)
    case subjectBranch(open: Bool)
    case started
    case tick
    case countdownEnded(id: Int)
    /// A take ended by itself (a full disk, an encoder failure) while the preview runs on.
    case takeFailed(TakeResult)
    case end(RunCommand.EndReason)
    /// A line from the control socket (`--control`).
    case control(ControlCommand)
}

/// `duo-capture` without `--headless`, and `duo-capture monitors`.
///
/// Thread: called from the main task; hops to the main thread for GTK.
enum DesktopRun {
    static func requireDisplay() throws(DuoError) {
        let env = ProcessInfo.processInfo.environment
        if env["DISPLAY"]?.isEmpty ?? true, env["WAYLAND_DISPLAY"]?.isEmpty ?? true {
            throw .usage("no display found (DISPLAY is not set); run with --headless to capture without windows")
        }
    }

    static func monitors() async throws(DuoError) -> String {
        let env = ProcessInfo.processInfo.environment
        if env["DISPLAY"]?.isEmpty ?? true, env["WAYLAND_DISPLAY"]?.isEmpty ?? true {
            throw .usage("no display found (DISPLAY is not set); run duo-capture monitors on the desktop whose monitors you want listed")
        }
        let result: Result<[MonitorInfo], DuoError> = await MainActor.run {
            do throws(DuoError) {
                try GtkMain.initialize()
                return .success(Monitors.list())
            } catch { return .failure(error) }
        }
        let list = try result.get()
        if list.isEmpty { return "no monitors found" }
        return (["index\tconnector\tgeometry"] + list.map(\.description)).joined(separator: "\n")
    }

    static func run(_ options: Options, log: @escaping @Sendable (String) -> Void) async throws(DuoError) -> String {
        try requireDisplay()
        let setup = try SessionSetup.prepare(options)
        for n in setup.notices { log("duo-capture: \(n)") }
        var plan = setup.plan
        plan.sinks = .desktop
        let events = try EventLog(path: options.desktop.eventsPath)
        defer { events.close() }
        // The subject view is drawn into the subject branch; its valve stays shut until the view is shown.
        // With --accessory off the kind stays ready for the T key (enabled is the user's, not the kind).
        var subjectSetup = options.subject
        if subjectSetup.accessory == .off { subjectSetup.accessory = subjectSetup.scriptPath == nil ? .countdown : .teleprompter }
        let presenter = try SubjectPresenter(subjectSetup, width: plan.subjectSize.width, height: plan.subjectSize.height)
        let session = CaptureSession(plan: plan, subjectDrawer: presenter.drawer, subjectBranchOpen: false)
        let (commands, commandSink) = AsyncStream.makeStream(of: DesktopCommand.self, bufferingPolicy: .unbounded)
        let signals = SignalWatch(signals: [SIGINT, SIGTERM]) { commandSink.yield(.end(.signal($0 == SIGINT ? "SIGINT" : "SIGTERM"))) }
        defer { signals.cancel() }

        let desktop = options.desktop
        let enabled = DesktopRun.accessoryInitiallyEnabled(options)
        let control = ControlHolder()
        defer { control.close() }
        let outcome: Result<DesktopController, DuoError> = await MainActor.run {
            do throws(DuoError) {
                try GtkMain.initialize()
                var config = DesktopUI.Configuration(operatorMonitor: desktop.operatorMonitor, subjectMonitor: desktop.subjectMonitor,
                                                     accessoryEnabled: enabled)
                config.startFullscreen = !desktop.windowed
                let ui = try DesktopUI(config)
                events.emit("monitors", ["monitors": ui.monitors.map { ["index": $0.index, "connector": $0.connector,
                                                                          "geometry": "\($0.width)x\($0.height)+\($0.x)+\($0.y)"] }])
                ui.onAction = { commandSink.yield(.action($0)) }
                ui.onFullscreen = { fullscreen in events.emit("fullscreen", ["fullscreen": fullscreen]) }
                ui.onAccessoryChange = { change, hud in
                    events.emit(change, subjectMonitor: hud.subjectMonitor)
                    commandSink.yield(.subjectBranch(open: change.shown))
                    let state = change.available ? "available on \(hud.subjectMonitor ?? "?")"
                        : "unavailable (" + change.reasons.map(\.explanation).joined(separator: "; ") + ")"
                    log("duo-capture: accessory \(change.enabled ? "enabled" : "disabled"), \(state)")
                }
                ui.announce()
                var hud = ui.hud
                hud.cameraLabel = plan.camera.label
                hud.format = plan.format.description
                hud.videoWidth = plan.format.width
                hud.videoHeight = plan.format.height
                hud.aspect = plan.aspect
                ui.hud = hud
                if let path = options.controlPath {
                    let socket = try ControlSocket(path: path) { commandSink.yield(.control($0)) }
                    events.tap = { line in socket.broadcast(line) }
                    control.set(socket)
                    log("duo-capture: control socket \(socket.path)")
                }
                let controller = DesktopController(options: options, setup: setup, plan: plan, session: session, presenter: presenter,
                                                   ui: ui, events: events, log: log, commands: commandSink)
                Task.detached { await controller.run(commands) }
                GtkMain.run()
                return .success(controller)
            } catch { return .failure(error) }
        }
        let controller = try outcome.get()
        return try await controller.finish()
    }

    /// The accessory starts enabled unless the user turned it off with `--accessory off`.
    static func accessoryInitiallyEnabled(_ options: Options) -> Bool { options.subject.accessory != .off }
}

/// The desktop run's policy: countdown and takes on Space, quit on Q, frames-flowing watchdog, HUD figures.
///
/// Thread: actor; talks to the GTK thread only through `GtkMain.post`.
actor DesktopController {
    let options: Options
    let setup: SessionSetup
    let plan: GraphPlan
    let session: CaptureSession
    let presenter: SubjectPresenter
    let ui: DesktopUI
    let events: EventLog
    let log: @Sendable (String) -> Void
    let commands: AsyncStream<DesktopCommand>.Continuation

    private var started = Date()
    private var replay: Task<Void, Never>?
    private var endReason: RunCommand.EndReason = .duration
    private var takes: [TakeResult] = []
    private var finalCounts: BranchCounts?
    private var recordDirectory: String?
    private var takeStartedAt: Date?
    private var takeNumber: Int?
    private var countdownID = 0
    private var countdownStartedAt: Date?
    /// Pipeline running time at which the running countdown ends (the take's exact start).
    private var countdownEnd: Int64?
    private lazy var sidecars = SidecarWriter(plan: plan, countdown: countdown, log: log)
    private let countdown: Countdown
    private var lastPrompterEvent = Date.distantPast
    private var lastCameraFrames: Int64 = -1
    private var lastFrameAt = Date.distantPast
    private var framesFlowing = false
    private var isRunning = false

    init(options: Options, setup: SessionSetup, plan: GraphPlan, session: CaptureSession, presenter: SubjectPresenter, ui: DesktopUI,
         events: EventLog, log: @escaping @Sendable (String) -> Void, commands: AsyncStream<DesktopCommand>.Continuation) {
        self.options = options; self.setup = setup; self.plan = plan; self.session = session; self.presenter = presenter; self.ui = ui
        countdown = options.subject.countdown
        self.events = events; self.log = log; self.commands = commands
        recordDirectory = setup.recordDirectory
    }

    func run(_ stream: AsyncStream<DesktopCommand>) async {
        let ui = self.ui, session = self.session, sink = commands
        // The graph starts while commands are already handled, so Q, SIGINT and SIGTERM work even if the
        // camera never delivers (start waits for PLAYING).
        Task {
            do throws(DuoError) {
                try await session.start { graph throws(DuoError) in
                    let op = try graph.gtkWidget(sink: "operator_sink")
                    let subject = try graph.gtkWidget(sink: "subject_window")
                    await GtkMain.perform { ui.attach(operatorWidget: op.pointer, subjectWidget: subject.pointer) }
                }
                sink.yield(.started)
            } catch {
                sink.yield(.end(.failed(error)))
            }
        }
        let watcher = Task {
            for await event in session.events {
                if case .failed(let e) = event { sink.yield(.end(.failed(e))) }
                if case .warning(let w) = event { self.log("duo-capture: warning: \(w)") }
                if case .audioLevel(_, let peak) = event { GtkMain.post { ui.hud.audioPeakDB = peak.rounded() } }
                if case .takeEnded(let r) = event, r.failure != nil { sink.yield(.takeFailed(r)) }
            }
        }
        let ticker = Task {
            while !Task.isCancelled {
                sink.yield(.tick)
                try? await Task.sleep(nanoseconds: 200_000_000)
            }
        }
        let timer = options.duration.map { seconds in
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                sink.yield(.end(.duration))
            }
        }

        for await command in stream {
            switch command {
            case .action(let action):
                if action == .quit { endReason = .signal("Q"); break }
                await handle(action)
                continue
            case .subjectBranch(let open):
                await session.setSubjectBranchOpen(open)
                continue
            case .started:
                started = Date()
                isRunning = true
                log("duo-capture: capturing \(plan.camera.label) at \(plan.format) in two windows")
                events.emit("started", ["camera": plan.camera.label, "format": plan.format.description])
                if options.record { await startTake() }
                if let timeline = options.timeline {
                    let (timed, timedSink) = AsyncStream.makeStream(of: ControlCommand.self, bufferingPolicy: .unbounded)
                    replay = RunCommand.replay(timeline, into: timedSink, events: events)
                    let sink = commands
                    Task { for await command in timed { sink.yield(.control(command)) } }
                }
                continue
            case .tick:
                if isRunning { await tick() }
                continue
            case .takeFailed(let result):
                await takeEnded(result)
                continue
            case .countdownEnded(let id):
                if id == countdownID, countdownStartedAt != nil {
                    countdownStartedAt = nil
                    await startTake()
                }
                continue
            case .control(.quit):
                endReason = .quit
            case .control(let command):
                await handle(command)
                continue
            case .end(let reason):
                endReason = reason
            }
            break
        }
        ticker.cancel()
        timer?.cancel()
        replay?.cancel()
        watcher.cancel()
        await shutDown()
    }

    /// The control socket's commands, with explicit meanings (record never stops, stop never starts).
    /// Accessory and fullscreen act on the windows, exactly as the T and F11 keys do.
    private func handle(_ command: ControlCommand) async {
        let recording = await session.isRecording
        switch command {
        case .record:
            if recording || countdownStartedAt != nil {
                events.emit("error", ["message": "control: a take is already recording or counting down; send stop first"])
            } else {
                await handle(.recordOrStop)
            }
        case .stop:
            if countdownStartedAt != nil { await cancelCountdown() }
            else if recording { await stopTake() }
            else { events.emit("error", ["message": "control: nothing is recording"]) }
        case .accessory(let on):
            GtkMain.post { [ui] in ui.setEnabled(on) }
        case .fullscreen(let on):
            GtkMain.post { [ui] in if on { ui.enterFullscreen() } else { ui.leaveFullscreen() } }
        case .speedStep(let step): await handle(step > 0 ? .speedUp : .speedDown)
        case .speedPreset(let n):
            await presenter.preset(n, at: await session.runningTime)
            await statusEvent()
        case .pause: await handle(.pauseScroll)
        case .mirror: await handle(DesktopAction.mirror)
        case .jump(.next): await handle(.nextMarker)
        case .jump(.previous): await handle(.previousMarker)
        case .jump(.start): await handle(.restartScript)
        case .swap, .fold, .unfold:
            await swapCameras(command == .fold ? 1 : command == .unfold ? 0 : nil)
        case .quit:
            break  // handled by the run loop
        }
    }

    /// A swap, with the take handled as `--swap-policy` says when the cameras' formats differ.
    private func swapCameras(_ requested: Int?) async {
        switch await CameraSwitch.perform(requested, session: session, plan: plan, policy: options.swapPolicy,
                                          stopTake: { await self.stopTake() }) {
        case .unchanged: break
        case .refused(let why): events.emit("error", ["message": "control: \(why)"])
        case .swapped(let swap, let startNewTake):
            events.emit("swap", ["from": swap.from, "to": swap.to, "format": swap.format])
            let label = swap.to, format = swap.format
            GtkMain.post { [ui] in ui.hud.cameraLabel = label; ui.hud.format = format }
            if startNewTake { await startTake() }
        }
    }

    private func handle(_ action: DesktopAction) async {
        switch action {
        case .recordOrStop:
            if await session.isRecording {
                await stopTake()
            } else if countdownStartedAt != nil {
                await cancelCountdown()
            } else if countdown.seconds == 0 {
                await startTake()
            } else {
                countdownID += 1
                countdownStartedAt = Date()
                let now = await session.runningTime
                countdownEnd = now + Int64(countdown.seconds) * nanosecondsPerSecond
                await presenter.countdownStarted(at: now)
                events.emit("countdown", ["seconds": countdown.seconds])
                let id = countdownID, sink = commands, seconds = countdown.seconds
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
                    sink.yield(.countdownEnded(id: id))
                }
                await tick()
            }
        case .cancelCountdown:
            await cancelCountdown()
        case .speedUp: await presenter.stepSpeed(1, at: await session.runningTime)
        case .speedDown: await presenter.stepSpeed(-1, at: await session.runningTime)
        case .pauseScroll: await presenter.togglePause(at: await session.runningTime)
        case .restartScript: await presenter.restart(at: await session.runningTime)
        case .previousMarker: await presenter.previousMarker(at: await session.runningTime)
        case .nextMarker: await presenter.nextMarker(at: await session.runningTime)
        case .mirror: await presenter.cycleMirror(at: await session.runningTime)
        case .quit: break
        }
        if action != .recordOrStop && action != .cancelCountdown {
            events.emit("key", ["action": action.rawValue])
            await statusEvent()
            await tick()
        }
    }

    /// Once a second and after each key: frames through each branch (the subject's stand still while its
    /// view is hidden), recording, and the teleprompter's position, speed and state.
    private func statusEvent() async {
        let status = await presenter.status(at: await session.runningTime)
        let counts = await session.counts
        lastPrompterEvent = Date()
        events.emit("status", ["position": status.position, "length": status.length, "paused": status.paused,
                               "speed": status.speed, "secondsLeft": status.secondsLeft,
                               "mirror": "\(status.mirror.horizontal ? "h" : "")\(status.mirror.vertical ? "v" : "")",
                               "cameraFrames": counts.camera.frames, "operatorFrames": counts.operatorView.frames,
                               "subjectFrames": counts.subjectView.frames, "recording": await session.isRecording])
    }

    private func cancelCountdown() async {
        guard countdownStartedAt != nil else { return }
        countdownStartedAt = nil
        countdownEnd = nil
        countdownID += 1
        await presenter.countdownCancelled(at: await session.runningTime)
        events.emit("countdown-cancelled")
        GtkMain.post { [ui] in ui.hud.countdown = nil }
    }

    private func startTake() async {
        do throws(DuoError) {
            let dir: String
            if let d = recordDirectory { dir = d } else {
                dir = try SessionSetup.prepareRecordDirectory(options.recordDirectory)
                recordDirectory = dir
            }
            let naming = TakeNaming(directory: dir, fileExtension: plan.container.rawValue)
            let path = naming.path(take: (takes.last?.number ?? 0) + 1, at: Date()) { FileManager.default.fileExists(atPath: $0) }
            // The take starts at the countdown's end in pipeline time, however late this task runs.
            let start = countdownEnd
            countdownEnd = nil
            let number = try await session.startTake(path: path, startingAt: start)
            let startedAt: Int64
            if let actual = await session.takeStartRunningTime { startedAt = actual } else if let start { startedAt = start } else { startedAt = await session.runningTime }
            await presenter.takeStarted(at: startedAt)
            sidecars.started(take: number, path: path)
            takeStartedAt = Date()
            takeNumber = number
            events.emit("take-started", ["take": number, "file": path])
            log("duo-capture: recording take \(number) to \(path)")
        } catch {
            events.emit("error", ["message": error.message])
            log("duo-capture: \(error.message)")
            let message = error.message
            GtkMain.post { [ui] in ui.hud.message = message }
        }
        await tick()
    }

    private func stopTake() async {
        guard let result = try? await session.stopTake() else { return }
        await takeEnded(result)
    }

    /// Every take's end, whether Space stopped it or it failed by itself: reported once.
    private func takeEnded(_ result: TakeResult) async {
        guard !takes.contains(where: { $0.number == result.number }) else { return }
        await presenter.takeEnded(at: await session.runningTime)
        sidecars.ended(result, markers: await presenter.markersPassed(from: result.startRunningTime, to: result.endRunningTime))
        takes.append(result)
        takeStartedAt = nil
        if let failure = result.failure {
            log("duo-capture: \(failure.message)")
            let message = failure.message
            GtkMain.post { [ui] in ui.hud.message = message }
        }
        events.emit("take-ended", ["take": result.number, "file": result.path, "frames": result.frames.frames,
                                   "error": result.failure?.message ?? NSNull()])
        log("duo-capture: take \(result.number) ended: \(result.path), \(result.frames.frames) frames")
        await tick()
    }

    /// Frames-flowing watchdog and HUD figures, every 200 ms.
    private func tick() async {
        let counts = await session.counts
        let now = Date()
        if counts.camera.frames != lastCameraFrames {
            lastCameraFrames = counts.camera.frames
            lastFrameAt = now
        }
        let flowing = counts.camera.frames > 0 && now.timeIntervalSince(lastFrameAt) < 1.0
        if flowing != framesFlowing {
            framesFlowing = flowing
            events.emit("frames", ["flowing": flowing, "cameraFrames": counts.camera.frames])
            GtkMain.post { [ui] in ui.setFramesFlowing(flowing) }
        }
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let droppedOperator = RunSummary.branch(counts.operatorView, interval: interval).dropped
        let droppedSubject = RunSummary.branch(counts.subjectView, interval: interval).dropped
        let recording = await session.isRecording
        let elapsed = takeStartedAt.map { now.timeIntervalSince($0) } ?? 0
        let countdownValue = countdownStartedAt.map { countdown.displayedValue(elapsed: Int64(now.timeIntervalSince($0) * 1e9)) ?? 1 }
        let take = takeNumber
        let prompter = await presenter.status(at: await session.runningTime)
        let hasScript = options.subject.scriptPath != nil
        if now.timeIntervalSince(lastPrompterEvent) >= 1 { await statusEvent() }
        GtkMain.post { [ui] in
            var hud = ui.hud
            hud.accessoryKind = prompter.accessory.rawValue
            if hasScript {
                hud.scriptProgress = prompter.length > 0 ? min(1, prompter.position / prompter.length) : 0
                hud.secondsLeft = prompter.secondsLeft
                hud.speed = prompter.speed
                hud.scrollPaused = prompter.paused
                hud.notes = prompter.notes
            }
            hud.mirrored = prompter.mirror != .none
            hud.recording = recording
            hud.takeNumber = take
            hud.elapsedSeconds = elapsed
            hud.countdown = countdownValue
            hud.droppedOperator = droppedOperator
            hud.droppedSubject = droppedSubject
            ui.hud = hud
        }
    }

    /// Finalises a running take, stops the graph (the gtksinks stop on the GTK thread, which is free),
    /// then closes the windows and ends the GTK main loop.
    private func shutDown() async {
        if countdownStartedAt != nil { await cancelCountdown() }
        if await session.isRecording { await stopTake() }
        finalCounts = await session.counts
        await session.stop()
        events.emit("stopped", ["reason": endReason.text])
        GtkMain.post { [ui] in
            ui.close()
            GtkMain.quit()
        }
    }

    /// After the GTK loop has ended: the run's summary, or the error that ended it.
    func finish() throws(DuoError) -> String {
        guard let counts = finalCounts else {
            if case .failed(let error) = endReason { throw error }
            throw .runtime("the desktop session ended before it started")
        }
        let summary = RunSummary(plan: plan, counts: counts, takes: takes, started: started, endReason: endReason.text)
        if case .failed(let error) = endReason {
            if finalCounts != nil { log(options.json ? summary.json : summary.text) }
            throw error
        }
        return options.json ? summary.json : summary.text
    }
}
