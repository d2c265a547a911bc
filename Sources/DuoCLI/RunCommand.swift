import DuoCore
import DuoMedia
import DuoRender
import Foundation

/// `duo-capture [run]`: the capture session. Headless for now; the desktop windows attach to the same
/// session.
///
/// Thread: main task; the session itself is an actor.
enum RunCommand {
    enum EndReason: Sendable {
        case duration, signal(String), failed(DuoError), quit
        var text: String {
            switch self {
            case .duration: "duration reached"
            case .quit: "quit command"
            case .signal(let s): "\(s) received"
            case .failed: "failed"
            }
        }
    }

    static func run(_ options: Options, log: @escaping @Sendable (String) -> Void) async throws(DuoError) -> String {
        if !options.headless {
            if ProcessInfo.processInfo.environment["DISPLAY"]?.isEmpty ?? true,
               ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"]?.isEmpty ?? true {
                throw .usage("no display found (DISPLAY is not set); run with --headless to capture without windows")
            }
            return try await DesktopRun.run(options, log: log)
        }
        let setup = try SessionSetup.prepare(options)
        for n in setup.notices { log("duo-capture: \(n)") }
        let plan = setup.plan
        // Headless there are no windows to gate the accessory on: the subject branch runs (and is drawn)
        // whenever the accessory is enabled, so CI exercises the same drawing path as the desktop.
        let presenter = options.subject.accessory == .off ? nil
            : try SubjectPresenter(options.subject, width: plan.subjectSize.width, height: plan.subjectSize.height)
        let session = CaptureSession(plan: plan, subjectDrawer: presenter?.drawer, subjectBranchOpen: presenter != nil)

        // Signals end the run cleanly: the running take is finalised first.
        let (ends, endSink) = AsyncStream.makeStream(of: EndReason.self, bufferingPolicy: .bufferingNewest(8))
        let signals = SignalWatch(signals: [SIGINT, SIGTERM]) { endSink.yield(.signal($0 == SIGINT ? "SIGINT" : "SIGTERM")) }
        defer { signals.cancel() }

        let started = Date()
        try await session.start()
        log("duo-capture: capturing \(plan.camera.label) at \(plan.format) (camera mode \(plan.cameraMode.format) \(plan.cameraMode.pixelFormat))")

        let events = try EventLog(path: options.desktop.eventsPath)
        defer { events.close() }
        let sidecars = SidecarWriter(plan: plan, countdown: options.countdown, log: log)
        let director = HeadlessDirector(options: options, plan: plan, session: session, presenter: presenter,
                                        recordDirectory: setup.recordDirectory, events: events, log: log, ends: endSink)
        var control: ControlSocket?
        // Commands are carried out one at a time, in the order they arrived.
        let (commands, commandSink) = AsyncStream.makeStream(of: ControlCommand.self, bufferingPolicy: .unbounded)
        let commandLoop = Task { for await command in commands { await director.handle(command) } }
        defer { commandSink.finish(); commandLoop.cancel() }
        if let path = options.controlPath {
            control = try ControlSocket(path: path) { commandSink.yield($0) }
            events.tap = { [control] line in control?.broadcast(line) }
            log("duo-capture: control socket \(control!.path)")
        }
        defer { control?.close() }
        events.emit("started", ["format": plan.format.description, "camera": plan.camera.label])
        // Every take ends through the session's events (a stop, a signal or a full disk), so the sidecar
        // and the summary see each take exactly once.
        let watcher = Task { () -> [TakeResult] in
            var ended: [TakeResult] = []
            for await event in session.events {
                switch event {
                case .failed(let e):
                    events.emit("error", ["message": e.message])
                    endSink.yield(.failed(e))
                case .warning(let w): log("duo-capture: warning: \(w)")
                case .takeStarted(let number, let path):
                    sidecars.started(take: number, path: path)
                    events.emit("take-started", ["take": number, "file": path])
                case .takeEnded(let r):
                    if let failure = r.failure {
                        log("duo-capture: \(failure.message)")
                        events.emit("error", ["message": failure.message])
                    }
                    let markers = await presenter?.markersPassed(from: r.startRunningTime, to: r.endRunningTime) ?? []
                    await presenter?.takeEnded(at: r.endRunningTime)
                    sidecars.ended(r, markers: markers)
                    events.emit("take-ended", ["take": r.number, "file": r.path, "frames": r.frames.frames,
                                               "kept": FileManager.default.fileExists(atPath: r.path)])
                    ended.append(r)
                default: break
                }
            }
            return ended
        }
        // With --record the take starts when the countdown ends; --duration then counts from there.
        if options.record { await director.record(endingRunAfter: options.duration) }
        let replay = options.timeline.map { Self.replay($0, into: commandSink, events: events) }
        defer { replay?.cancel() }
        let timer = options.duration.flatMap { seconds in
            options.record ? nil : Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                endSink.yield(.duration)
            }
        }
        var reason = EndReason.duration
        for await r in ends { reason = r; break }
        timer?.cancel()
        await director.cancelCountdown()

        if await session.isRecording { _ = try? await session.stopTake() }
        let counts = await session.counts
        await session.stop()
        let takes = await watcher.value

        let summary = RunSummary(plan: plan, counts: counts, takes: takes, started: started, endReason: reason.text)
        if case .failed(let error) = reason {
            log(options.json ? summary.json : summary.text)
            throw error
        }
        // A take that ended by itself (full disk, encoder failure) is a failed recording even though the
        // preview ran on: the summary goes to stdout as usual, the error decides the exit code.
        // (A take a signal cut off before its first frame is no failure: there was nothing to keep.)
        let signalled = if case .signal = reason { true } else { false }
        if let failed = takes.first(where: { $0.failure != nil && !(signalled && $0.frames.frames == 0) }),
           let error = failed.failure {
            print(options.json ? summary.json : summary.text)
            throw error
        }
        return options.json ? summary.json : summary.text
    }
}

extension RunCommand {
    /// Feeds a timeline's commands into a run's command stream at their times (from now, when the graph
    /// is running), exactly as if they had come over the control socket.
    static func replay(_ timeline: Timeline, into sink: AsyncStream<ControlCommand>.Continuation, events: EventLog) -> Task<Void, Never> {
        let start = ContinuousClock.now
        return Task {
            for entry in timeline.entries {
                try? await Task.sleep(until: start + .milliseconds(Int64(entry.at * 1000)), clock: .continuous)
                if Task.isCancelled { return }
                events.emit("timeline", ["at": entry.at])
                sink.yield(entry.command)
            }
        }
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

    func cancel() {
        for s in sources { s.cancel() }
        sources.removeAll()
    }
}

/// Writes each take's JSON sidecar: a preliminary one when the take starts (so a killed run still leaves
/// its metadata) and the final one when it ends.
///
/// Thread: called from the run's event task, one call at a time; the lock only guards the shared map.
final class SidecarWriter: @unchecked Sendable {
    private let plan: GraphPlan
    private let countdown: Countdown
    private let log: @Sendable (String) -> Void
    private let lock = Lock()
    private var open: [Int: TakeSidecar] = [:]

    init(plan: GraphPlan, countdown: Countdown, log: @escaping @Sendable (String) -> Void) {
        self.plan = plan
        self.countdown = countdown
        self.log = log
    }

    private var recordedFormat: String {
        let f = plan.format
        guard let crop = plan.aspect?.centredCrop(frameWidth: f.width, frameHeight: f.height) else { return f.description }
        return VideoFormat(width: f.width - crop.left - crop.right, height: f.height - crop.top - crop.bottom,
                           frameRate: f.frameRate).description
    }

    private var cameras: [TakeSidecar.Camera] {
        var list: [TakeSidecar.Camera] = [.init(role: "A", label: plan.camera.label, mode: "\(plan.cameraMode.format) \(plan.cameraMode.pixelFormat)")]
        if let b = plan.secondCamera, let mode = plan.secondCameraMode {
            list.append(.init(role: "B", label: b.label, mode: "\(mode.format) \(mode.pixelFormat)"))
        }
        return list
    }

    func started(take number: Int, path: String) {
        let audio = plan.audio == .none ? nil
            : TakeSidecar.Audio(source: plan.audio.label, encoder: plan.container == .mkv ? "opusenc" : "avenc_aac", buffers: nil)
        let sidecar = TakeSidecar(
            toolVersion: DuoCaptureMain.version, gstreamerVersion: GStreamer.version, take: number,
            file: (path as NSString).lastPathComponent, started: Date(), countdownSeconds: countdown.seconds,
            cameras: cameras,
            format: recordedFormat, aspect: plan.aspect?.description, encoder: plan.encoder.element,
            container: plan.container.element, audio: audio)
        lock.withLock { open[number] = sidecar }
        write(sidecar, path)
    }

    func ended(_ result: TakeResult, markers: [TakeSidecar.Marker] = []) {
        guard var s = lock.withLock({ open.removeValue(forKey: result.number) }) else { return }
        s.markersPassed = markers
        s.swaps = result.swaps.map { .init(atSeconds: Double($0.runningTime - result.startRunningTime) / 1e9, from: $0.from, to: $0.to, format: $0.format) }
        let interval = plan.format.frameRate.frameDurationNanoseconds
        s.started = TakeSidecar.timestamp(result.startDate)
        s.ended = TakeSidecar.timestamp(result.endDate)
        s.complete = result.failure == nil
        s.frames = result.frames.frames
        s.droppedFrames = RunSummary.branch(result.frames, interval: interval).dropped
        s.durationSeconds = Double(result.frames.frames) * Double(interval) / 1e9
        s.startLatencyMs = result.startLatency.map { Double($0) / 1e6 }
        s.audio?.buffers = result.audio?.frames
        s.error = result.failure?.message
        guard FileManager.default.fileExists(atPath: result.path) else {
            // No frame was recorded and no file kept: no metadata for a file that does not exist.
            try? FileManager.default.removeItem(atPath: TakeSidecar.path(forTake: result.path))
            return
        }
        write(s, result.path)
    }

    private func write(_ sidecar: TakeSidecar, _ path: String) {
        do { try sidecar.write(nextTo: path) } catch { log("duo-capture: warning: \(error.message)") }
    }
}

/// The headless run's takes: countdown, start, stop, and the control socket's commands. Headless there
/// are no windows, so the accessory is simply on or off (its valve), and fullscreen does not apply.
///
/// Thread: an actor; commands arrive from the control socket's reader threads and from the run itself.
actor HeadlessDirector {
    let options: Options
    let plan: GraphPlan
    let session: CaptureSession
    let presenter: SubjectPresenter?
    let events: EventLog
    let log: @Sendable (String) -> Void
    let ends: AsyncStream<RunCommand.EndReason>.Continuation
    private var recordDirectory: String?
    private var countdown: Task<Void, Never>?
    private var takes = 0

    init(options: Options, plan: GraphPlan, session: CaptureSession, presenter: SubjectPresenter?, recordDirectory: String?,
         events: EventLog, log: @escaping @Sendable (String) -> Void, ends: AsyncStream<RunCommand.EndReason>.Continuation) {
        self.options = options; self.plan = plan; self.session = session; self.presenter = presenter
        self.recordDirectory = recordDirectory; self.events = events; self.log = log; self.ends = ends
    }

    func handle(_ command: ControlCommand) async {
        let now = await session.runningTime
        switch command {
        case .record:
            let recording = await session.isRecording
            if countdown != nil || recording { return refuse("a take is already recording or counting down; send stop first") }
            await record(endingRunAfter: nil)
        case .stop:
            if countdown != nil { await cancelCountdown() }
            else if await session.isRecording { _ = try? await session.stopTake() }
            else { refuse("nothing is recording") }
        case .quit:
            ends.yield(.quit)
        case .accessory(let on):
            guard presenter != nil else { return refuse("the accessory was off at start; run with --accessory KIND to switch it") }
            await session.setSubjectBranchOpen(on)
            events.emit("accessory", ["enabled": on, "available": true, "shown": on, "reasons": [String]()])
        case .fullscreen:
            refuse("fullscreen needs the desktop windows; this run is --headless")
        case .swap, .fold, .unfold:
            // Posture picks the camera as on the Duo: unfolded (open) uses camera A (inner), folded B (outer).
            await swapCameras(command == .fold ? 1 : command == .unfold ? 0 : nil)
        case .speedStep(let step):
            guard let presenter else { return refuse("no teleprompter in this run; give --script FILE") }
            await presenter.stepSpeed(step, at: now)
            await status(presenter, now)
        case .speedPreset(let n):
            guard let presenter else { return refuse("no teleprompter in this run; give --script FILE") }
            await presenter.preset(n, at: now)
            await status(presenter, now)
        case .pause:
            guard let presenter else { return refuse("no teleprompter in this run; give --script FILE") }
            await presenter.togglePause(at: now)
            await status(presenter, now)
        case .mirror:
            guard let presenter else { return refuse("no subject view in this run; give --accessory KIND") }
            await presenter.cycleMirror(at: now)
            await status(presenter, now)
        case .jump(let to):
            guard let presenter else { return refuse("no teleprompter in this run; give --script FILE") }
            switch to {
            case .next: await presenter.nextMarker(at: now)
            case .previous: await presenter.previousMarker(at: now)
            case .start: await presenter.restart(at: now)
            }
            await status(presenter, now)
        }
    }

    /// A swap, with the take handled as `--swap-policy` says when the cameras' formats differ.
    private func swapCameras(_ requested: Int?) async {
        let session = self.session
        switch await CameraSwitch.perform(requested, session: session, plan: plan, policy: options.swapPolicy,
                                          stopTake: { _ = try? await session.stopTake() }) {
        case .unchanged: break
        case .refused(let why): refuse(why)
        case .swapped(let swap, let startNewTake):
            events.emit("swap", ["from": swap.from, "to": swap.to, "format": swap.format])
            if startNewTake, let dir = recordDirectory {
                // The next segment starts at once, at the new camera's format, as a new take and file.
                takes += 1
                await begin(take: takes, in: dir, at: await session.runningTime, endingRunAfter: nil, afterCountdown: false)
            }
        }
    }

    private func refuse(_ message: String) {
        events.emit("error", ["message": "control: \(message)"])
    }

    private func status(_ presenter: SubjectPresenter, _ now: Int64) async {
        let s = await presenter.status(at: now)
        events.emit("status", ["position": s.position, "length": s.length, "paused": s.paused, "speed": s.speed,
                               "secondsLeft": s.secondsLeft, "recording": await session.isRecording])
    }

    /// Starts the countdown; the take begins when it ends. With `endingRunAfter`, the run ends that many
    /// seconds into the take (`--record --duration`).
    func record(endingRunAfter seconds: Double?) async {
        let dir: String
        if let d = recordDirectory { dir = d } else {
            do throws(DuoError) { dir = try SessionSetup.prepareRecordDirectory(options.recordDirectory) } catch {
                return refuse(error.message)
            }
            recordDirectory = dir
        }
        let length = Int64(options.countdown.seconds) * nanosecondsPerSecond
        let countdownEnd = await session.runningTime + length
        if length > 0 {
            log("duo-capture: recording starts in \(options.countdown.seconds) s")
            events.emit("countdown", ["seconds": options.countdown.seconds])
            await presenter?.countdownStarted(at: countdownEnd - length)
        }
        takes += 1
        let number = takes
        countdown = Task {
            // Attach the branch a little early so the encoder is ready; the start gate still drops every
            // frame captured before the countdown's end.
            let lead: Int64 = 150_000_000
            if length - lead > 0 { try? await Task.sleep(nanoseconds: UInt64(length - lead)) }
            await begin(take: number, in: dir, at: countdownEnd, endingRunAfter: seconds)
        }
    }

    private func begin(take number: Int, in dir: String, at countdownEnd: Int64, endingRunAfter seconds: Double?,
                       afterCountdown: Bool = true) async {
        // Checked on the actor: a stop that cancelled the countdown wins, however late this task woke.
        if afterCountdown { guard !Task.isCancelled, countdown != nil else { return } }
        countdown = nil
        let naming = TakeNaming(directory: dir, fileExtension: plan.container.rawValue)
        let path = naming.path(take: number, at: Date()) { FileManager.default.fileExists(atPath: $0) }
        do {
            try await session.startTake(path: path, startingAt: countdownEnd)
            await presenter?.takeStarted(at: await session.takeStartRunningTime ?? countdownEnd)
            log("duo-capture: recording take \(number) to \(path)")
        } catch {
            ends.yield(.failed((error as? DuoError) ?? .runtime("cannot start the take: \(error)")))
            return
        }
        if let seconds {
            let untilEnd = Double(max(0, countdownEnd - (await session.runningTime))) / 1e9
            let ends = self.ends
            Task {
                try? await Task.sleep(nanoseconds: UInt64((untilEnd + seconds) * 1e9))
                ends.yield(.duration)
            }
        }
    }

    /// Cancels a countdown that has not started its take (nothing is recorded, nothing is left behind).
    func cancelCountdown() async {
        guard let pending = countdown else { return }
        pending.cancel()
        countdown = nil
        takes -= 1
        await presenter?.countdownCancelled(at: await session.runningTime)
        events.emit("countdown-cancelled")
    }
}
