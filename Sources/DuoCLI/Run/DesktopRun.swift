import DuoCore
import DuoDesktop
import DuoMedia
import DuoRender
import Foundation

//  The desktop run: the run director behind two GTK windows.
//
//   main thread:   gtk_main ─ DesktopUI (windows, keys → commands, monitors, fullscreen, availability)
//                     │  RunInput (director.send, never blocks)          ▲ GtkMain.post (g_idle_add)
//                     ▼                                                  │
//   director:      RunDirector (actor) ─ every run decision ──▶ DesktopFace
//                     │  await
//                     ▼
//   session:       CaptureSession (actor) ─ the GStreamer graph; gtksinks in the windows

/// `duo-capture` without `--headless`, and `duo-capture monitors`.
///
/// Thread: called from the main task; hops to the main thread for GTK.
enum DesktopRun {
    static func requireDisplay(for purpose: Said = .text("run with --headless to capture without windows")) throws(DuoError) {
        let env = ProcessInfo.processInfo.environment
        if env["DISPLAY"]?.isEmpty ?? true, env["WAYLAND_DISPLAY"]?.isEmpty ?? true {
            throw .usage(.text("no display found (DISPLAY is not set); %s", purpose))
        }
    }

    static func monitors() async throws(DuoError) -> String {
        try requireDisplay(for: .text("run duo-capture monitors on the desktop whose monitors you want listed"))
        let result: Result<[MonitorInfo], DuoError> = await MainActor.run {
            do throws(DuoError) {
                try GtkMain.initialize()
                return .success(Monitors.list())
            } catch { return .failure(error) }
        }
        let list = try result.get()
        if list.isEmpty { return tr("no monitors found") }
        return (["index\tconnector\tgeometry"] + list.map(\.description)).joined(separator: "\n")
    }

    /// The desktop run: the subject window draws the view itself, at the subject monitor's size (laid
    /// out for it from the start; a different monitor later lays it out again); the frames carry only the
    /// camera picture, each scaled once, in the graph, to the monitor it is shown on. GTK drives the run.
    ///
    /// Thread: value type; `drive` hops to the main thread for GTK.
    struct Kind: RunKind {
        let options: Options
        let log: @Sendable (String) -> Void

        func adapt(_ plan: inout GraphPlan) async -> (size: (width: Int, height: Int)?, format: PromptStrip.Format) {
            let desktop = options.desktop
            let sizes: (operator: MonitorInfo?, subject: MonitorInfo?) = await MainActor.run {
                guard (try? GtkMain.initialize()) != nil else { return (nil, nil) }
                let monitors = Monitors.list()
                let choice = try? MonitorChoice.resolve(monitors, operator: desktop.operatorMonitor, subject: desktop.subjectMonitor)
                return (choice?.operatorMonitor(in: monitors), choice?.subjectMonitor(in: monitors))
            }
            let subjectSize = sizes.subject.map { ($0.width, $0.height) } ?? (1920, 1080)
            let format = plan.format
            plan.operatorPictureSize = sizes.operator.map { PictureFit.preview(width: format.width, height: format.height, into: $0.width, $0.height) }
                ?? (format.width, format.height)
            plan.operatorMaxRate = PreviewPacing.maxRate(camera: format.frameRate.value)
            plan.subjectPictureSize = PictureFit.fit(width: format.width, height: format.height, into: subjectSize.0, subjectSize.1)
            // With a self-view the subject branch carries only its small picture, scaled once, here.
            if options.subject.accessory != .preview {
                let size = options.subject.selfView == .off ? .small : options.subject.selfView
                if let small = PictureShape(width: format.width, height: format.height).selfViewSize(size, monitorWidth: subjectSize.0, monitorHeight: subjectSize.1) {
                    plan.subjectPictureSize = small
                }
            }
            return (subjectSize, .argb)
        }

        /// The subject branch's valve stays shut until the preview kind's picture or the self-view is on the subject monitor.
        func session(plan: GraphPlan, presenter: SubjectPresenter, options: Options) -> CaptureSession {
            CaptureSession(plan: plan, subjectDrawer: nil, subjectBranchOpen: false, startTimeout: options.startTimeout)
        }

        func face(plan: GraphPlan, presenter: SubjectPresenter, session: CaptureSession) -> any RunFace {
            let clock = session.clock
            return DesktopFace(plan: plan, canvas: presenter.canvas { clock.now() },
                               log: log,
                               allowNotifications: options.desktop.allowNotifications, session: session)
        }

        func drive(_ director: RunDirector, session: CaptureSession, face: any RunFace, events: EventLog) async throws(DuoError) -> RunOutcome {
            guard let face = face as? DesktopFace else { return await director.run() }
            let desktop = options.desktop, log = self.log
            if let path = desktop.operatorDisplayPath {
                do throws(DuoError) { face.operatorProfile = try DisplayProfile.load(path: path) } catch {
                    throw DuoError(error.kind, .text("--operator-display: %s", error.said))
                }
            }
            // gtksink makes its widgets on the GTK thread; they go into the windows before the graph plays.
            await session.setBeforePlaying { graph throws(DuoError) in
                let op = try graph.appSinkPicture(sink: GraphElement.operatorSink.rawValue)
                let subject = try graph.gtkWidget(sink: GraphElement.subjectWindow.rawValue)
                await GtkMain.perform { face.attachSinks(operator: op, subject: subject.pointer) }
            }
            let enabled = options.subject.accessory != .off
            let running: Result<Task<RunOutcome, Never>, DuoError> = await MainActor.run {
                do throws(DuoError) {
                    try GtkMain.initialize()
                    var config = DesktopUI.Configuration(operatorMonitor: desktop.operatorMonitor, subjectMonitor: desktop.subjectMonitor,
                                                         accessoryEnabled: enabled)
                    config.startFullscreen = !desktop.windowed
                    config.noteCodes = options.noteCodeBook.codes
                    if desktop.subjectCurtain {
                        config.curtain = CurtainModel.whitelisted(from: .whitelisted(from: PrompterSessionState(accessory: options.subject.accessory)),
                                                                  language: options.subject.language)
                    }
                    let ui = try DesktopUI(config)
                    log(tr("duo-capture: desktop on %s (GDK_BACKEND chooses)", Monitors.backend))
                    events.emit(.monitors(backend: Monitors.backend, monitors: ui.monitors.map {
                        .init(index: $0.index, connector: $0.connector, geometry: "\($0.width)x\($0.height)+\($0.x)+\($0.y)")
                    }))
                    face.attach(ui, director: director)
                    let held = ui.onSubjectMonitorShows
                    ui.onSubjectMonitorShows = { held($0); events.emit(.subjectMonitor(shows: $0.rawValue)) }
                    events.emit(.subjectMonitor(shows: ui.subjectMonitorShows.rawValue))
                    ui.onControls = { shown, buttons in events.emit(.controls(shown: shown, buttons: buttons)) }
                    ui.onOperatorPicture = { p in
                        events.emit(.operatorPicture(width: p.width, height: p.height, shownWidth: p.shownWidth, shownHeight: p.shownHeight,
                                                     filter: "\(p.filter)"))
                    }
                    face.onPreview = { fps, of, gap, interval in
                        events.emit(.preview(fps: (fps * 10).rounded() / 10, of: of, largestGapMs: (gap * 10).rounded() / 10,
                                                intervalMs: (interval * 10).rounded() / 10))
                    }
                    let run = Task.detached { await director.run() }
                    GtkMain.run()
                    return .success(run)
                } catch { return .failure(error) }
            }
            return await (try running.get()).value
        }
    }
}

/// The desktop run's face: the director's figures on the operator HUD, the accessory and fullscreen on
/// the windows. Every call posts to the GTK thread and returns at once.
///
/// Thread: any caller; the UI itself is only touched on the GTK main thread.
// Unchecked: its UI references are set and read only on the GTK main thread (every call posts there).
final class DesktopFace: RunFace, SubjectMonitorControl, @unchecked Sendable {
    /// Set once on the GTK thread before the run starts; read only there.
    private(set) var ui: DesktopUI? {
        get { gtk.ui }
        set { gtk.ui = newValue }
    }
    private let plan: GraphPlan
    private let canvas: SubjectCanvas

    /// The capture, to scale the preview to its window's size while playing.
    private let session: CaptureSession?
    /// What the face keeps on the GTK thread: the windows, the preview's newest frame (kept alive with the run), the
    /// idle inhibitor, do-not-disturb and its banners switch, the preview's measured rate, and the two
    /// settings made before the GTK loop runs (`--operator-display`, the preview callback).
    private struct GtkSide {
        var ui: DesktopUI?
        var operatorPictureSource: AppSinkPicture?
        var inhibitorStorage: IdleInhibitor?
        var doNotDisturb: DoNotDisturb
        var banners: NotificationBanners?
        var takeRunning = false
        var previewMeter = PreviewMeter()
        var previewReportedAt: Int64 = 0
        var previewLargestGap: Int64 = 0
        var operatorProfile = DisplayProfile.plain
        var onPreview: (_ fps: Double, _ of: Double, _ largestGapMs: Double, _ intervalMs: Double) -> Void = { _, _, _, _ in }
    }
    // Unchecked: set before the GTK loop runs, then read and changed only on the GTK main thread (every
    // call posts there).
    nonisolated(unsafe) private var gtk: GtkSide
    @MainActor private var inhibitor: IdleInhibitor {
        if let i = gtk.inhibitorStorage { return i }
        let i = IdleInhibitor()
        gtk.inhibitorStorage = i
        return i
    }
    private let log: @Sendable (String) -> Void
    /// The web remote's pairing card (RemoteLinkFace.swift).
    let remoteLink = WebRemoteLinkHolder()
    /// `--operator-display`: set before the windows are made, read on the GTK thread.
    var operatorProfile: DisplayProfile {
        get { gtk.operatorProfile }
        set { gtk.operatorProfile = newValue }
    }
    /// Called on the GTK thread every few seconds with the preview's figures: frames shown per second,
    /// the camera's rate, the largest step between shown frames and the preview's frame interval (ms).
    var onPreview: (_ fps: Double, _ of: Double, _ largestGapMs: Double, _ intervalMs: Double) -> Void {
        get { gtk.onPreview }
        set { gtk.onPreview = newValue }
    }

    init(plan: GraphPlan, canvas: SubjectCanvas, log: @escaping @Sendable (String) -> Void,
         allowNotifications: Bool = false, session: CaptureSession? = nil) {
        self.log = log
        self.session = session
        gtk = GtkSide(doNotDisturb: DoNotDisturb(allowNotifications: allowNotifications))
        self.plan = plan
        self.canvas = canvas
    }

    var drawsSubjectView: Bool { true }
    func shownAtStart(enabled: Bool) -> Bool { false }
    var showsFigures: Bool { true }

    /// The operator picture and the subject gtksink's widget go into the windows, with the subject view
    /// over the subject's picture.
    @MainActor func attachSinks(operator op: AppSinkPicture, subject: UnsafeMutableRawPointer) {
        gtk.operatorPictureSource = op
        ui?.attach(operatorPicture: op, subjectWidget: subject, subjectCanvas: canvas)
    }

    /// The operator picture area's new size (device pixels): the graph scales the preview to its fit,
    /// once, and the HUD lays the safe frame over the picture at that size.
    @MainActor private func operatorAreaResized(width: Int, height: Int) {
        guard let ui, plan.picturesHaveOneSize else { return }
        let fit = PictureFit.preview(width: ui.hud.videoWidth, height: ui.hud.videoHeight, into: width, height)
        guard let session else { return }
        // Detached: a main-actor task would wait behind gtk_main, which holds the main actor (GtkMain).
        Task.detached { await session.setOperatorPictureSize(width: fit.width, height: fit.height) }
    }

    func setSubjectPicture(_ shown: Bool) { GtkMain.post { [self] in ui?.setSubjectPicture(shown) } }

    /// Wires the windows to the director: keys become commands, window facts become inputs.
    @MainActor func attach(_ ui: DesktopUI, director: RunDirector) {
        self.ui = ui
        ui.onCommand = { director.send(.command($0, source: .key)) }
        ui.onButtonCommand = { director.send(.command($0, source: .button)) }
        ui.onFullscreen = { director.send(.fullscreen($0)) }
        ui.onSubjectSize = { director.send(.subjectSize(width: $0, height: $1)) }
        ui.onOperatorSize = { [self] in operatorAreaResized(width: $0, height: $1) }
        ui.onAccessoryChange = { [self] change, hud in
            director.send(.accessory(change, subjectMonitor: hud.subjectMonitor))
            updateBanners()
        }
        ui.onSubjectMonitorShows = { [self] _ in updateBanners() }
        let banners = NotificationBanners(stateDirectory: (XDGPaths.stateHome() as NSString).appendingPathComponent("duo-capture"), log: log)
        if let restored = banners.restoreLeftover() { log(restored) }
        gtk.banners = banners
        var hud = ui.hud
        hud.cameraLabel = plan.camera.label
        hud.format = plan.format.description
        hud.videoWidth = plan.format.width
        hud.videoHeight = plan.format.height
        hud.aspect = plan.aspect
        hud.operatorProfile = gtk.operatorProfile
        hud.cameraKeys = plan.secondCamera != nil
        ui.hud = hud
        ui.announce()
    }

    func connect(_ report: @escaping @Sendable (RunInput) -> Void) {}

    func show(_ run: HudModel.Run) {
        GtkMain.post { [self] in
            guard let ui else { return }
            var hud = ui.hud
            // The preview's aspect and safe frame follow the camera on the air (individual cameras differ).
            if run.cameraWidth > 0, run.cameraWidth != hud.videoWidth || run.cameraHeight != hud.videoHeight {
                hud.videoWidth = run.cameraWidth
                hud.videoHeight = run.cameraHeight
            }
            hud.run = run
            let now = Int64(DispatchTime.now().uptimeNanoseconds)
            // What the operator really saw: frames the window painted, and the largest step between them.
            let painted = ui.takePreviewFigures()
            gtk.previewLargestGap = max(gtk.previewLargestGap, painted.largestGap)
            if let fps = gtk.previewMeter.add(at: now, shown: painted.painted) {
                hud.previewFps = fps
                hud.cameraFps = plan.format.frameRate.value
                if now - gtk.previewReportedAt >= 5_000_000_000 {
                    gtk.previewReportedAt = now
                    gtk.onPreview(fps, plan.format.frameRate.value, Double(gtk.previewLargestGap) / 1e6, Double(plan.operatorFrameInterval) / 1e6)
                    gtk.previewLargestGap = 0
                }
            }
            ui.hud = hud
            gtk.takeRunning = run.recording || run.countdown != nil
            updateBanners()
        }
    }

    /// Notification banners off while the run holds the subject's monitor (view or curtain) or a take runs
    /// (or counts down).
    @MainActor private func updateBanners() {
        guard let ui, let banners = gtk.banners else { return }
        if let silence = gtk.doNotDisturb.update(monitorHeld: ui.subjectMonitorHeld, recording: gtk.takeRunning) { banners.set(silence) }
    }

    func setAccessory(enabled: Bool) { GtkMain.post { [self] in ui?.setEnabled(enabled) } }

    func setFullscreen(_ on: Bool?) -> String? {
        GtkMain.post { [self] in ui?.setFullscreen(on) }
        return nil
    }

    func setFramesFlowing(_ flowing: Bool) { GtkMain.post { [self] in ui?.setFramesFlowing(flowing) } }
    func keepScreenOn(_ on: Bool, reason: String) {
        GtkMain.post { [self] in
            let used = inhibitor.set(on, reason: reason, window: ui?.operatorWindowWidget)
            if !used.isEmpty { log(tr("duo-capture: screen kept on (%s) through the %s", reason, used.joined(separator: tr(" and ")))) }
        }
    }
    func setRemoteDisplays(asked: Int, connected: Int) { GtkMain.post { [self] in ui?.setRemoteDisplays(asked: asked, connected: connected) } }
    func setSubjectMonitorPlugged(_ plugged: Bool) -> String? {
        GtkMain.post { [self] in ui?.setSubjectMonitorPlugged(plugged) }
        return nil
    }

    func subjectViewFailed(enabled: Bool) { GtkMain.post { [self] in ui?.setSubjectViewFailed() } }

    func say(_ message: String) { GtkMain.post { [self] in ui?.hud.message = message } }

    func close() {
        GtkMain.post { [self] in
            if gtk.doNotDisturb.end() { gtk.banners?.set(false) }
            ui?.close()
            GtkMain.quit()
        }
    }
}
