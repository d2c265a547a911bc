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
        case duration, signal(String), failed(DuoError)
        var text: String {
            switch self {
            case .duration: "duration reached"
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

        let watcher = Task {
            for await event in session.events {
                switch event {
                case .failed(let e): endSink.yield(.failed(e))
                case .warning(let w): log("duo-capture: warning: \(w)")
                case .takeEnded(let r) where r.failure != nil: log("duo-capture: \(r.failure!.message)")
                default: break
                }
            }
        }
        var takes: [TakeResult] = []
        if options.record, let dir = setup.recordDirectory {
            let naming = TakeNaming(directory: dir, fileExtension: plan.container.rawValue)
            let path = naming.path(take: 1, at: Date()) { FileManager.default.fileExists(atPath: $0) }
            try await session.startTake(path: path)
            await presenter?.takeStarted(at: await session.runningTime)
            log("duo-capture: recording take 1 to \(path)")
        }
        let timer = options.duration.map { seconds in
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                endSink.yield(.duration)
            }
        }
        var reason = EndReason.duration
        for await r in ends { reason = r; break }
        timer?.cancel()

        if await session.isRecording, let result = try? await session.stopTake() { takes.append(result) }
        let counts = await session.counts
        await session.stop()
        watcher.cancel()

        let interval = plan.format.frameRate.frameDurationNanoseconds
        let summary = RunSummary(
            source: plan.camera.label, format: plan.format.description, encoder: plan.encoder.element,
            container: plan.container.element, seconds: Date().timeIntervalSince(started), endReason: reason.text,
            camera: RunSummary.branch(counts.camera, interval: interval),
            operatorView: RunSummary.branch(counts.operatorView, interval: interval),
            subjectView: RunSummary.branch(counts.subjectView, interval: interval),
            takes: takes.map { .init(number: $0.number, file: $0.path, frames: $0.frames.frames,
                                     durationSeconds: Double($0.frames.frames) / plan.format.frameRate.value,
                                     error: $0.failure?.message) })
        if case .failed(let error) = reason {
            log(options.json ? summary.json : summary.text)
            throw error
        }
        return options.json ? summary.json : summary.text
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
