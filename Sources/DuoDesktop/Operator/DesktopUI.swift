import CGtk
import DuoCore
import DuoRender

/// The two windows: the operator's (`OperatorPicture`: the preview with the HUD and pairing card composed
/// into it client-side, the control bar over it; fullscreen on the operator monitor) and the subject's (`SubjectWindow`: the subject branch's `gtksink` widget under
/// the subject view, fullscreen on the subject monitor, shown iff the accessory is enabled and
/// available; `CurtainWindow` while the monitor shows the curtain). Owns the accessory state and
/// feeds it only facts: the window manager's fullscreen state (window-state-event), monitor hotplug and
/// whether frames flow.
///
/// Thread: GTK main thread (MainActor while gtk_main runs; see GtkMain).
@MainActor
public final class DesktopUI {
    /// Whether the operator window may skip GTK's back buffer while the control bar is hidden: X11 only.
    static var drawsUnbuffered: Bool { Monitors.backend == "x11" }

    public struct Configuration: Sendable {
        public var operatorMonitor: MonitorRef?
        public var subjectMonitor: MonitorRef?
        public var accessoryEnabled: Bool
        public var startFullscreen = true
        /// What the curtain says (made from the whitelisted model); nil: `--subject-curtain off`.
        public var curtain: CurtainModel?
        /// The codes the note field offers (the run's code book, issue 39).
        public var noteCodes = NoteCodeBook.standard.codes
        public init(operatorMonitor: MonitorRef?, subjectMonitor: MonitorRef?, accessoryEnabled: Bool) {
            self.operatorMonitor = operatorMonitor; self.subjectMonitor = subjectMonitor
            self.accessoryEnabled = accessoryEnabled
        }
    }

    /// Called on the GTK thread with each accessory change (availability with reasons, or enabled) and
    /// the monitors at that moment. The controller logs it and opens or shuts the subject branch.
    public var onAccessoryChange: (AccessoryChange, HudModel) -> Void = { _, _ in }
    /// Called on the GTK thread with the command each key (or window close button) stands for; must only
    /// hand it on (never block).
    public var onCommand: (ControlCommand) -> Void = { _ in }
    /// Called on the GTK thread when the fullscreen state the window manager reports changes.
    public var onFullscreen: (Bool) -> Void = { _ in }
    /// Called on the GTK thread when the subject window's size in device pixels changes (the subject
    /// monitor's size once it is fullscreen there): the view is laid out for it.
    public var onSubjectSize: (Int, Int) -> Void = { _, _ in }

    public private(set) var accessory: AccessoryState
    public private(set) var monitors: [MonitorInfo] = []
    public var hud = HudModel() {
        didSet {
            guard hud != oldValue else { return }
            overlayChanged()
            controlBar?.update(hud, fullscreen: windowFullscreen)
        }
    }
    /// The web remote's pairing card (address and QR code) over the picture, or nil (the L key toggles it
    /// through the run's `remote-link` command). Drawn only on this window; never logged.
    public var remoteLink: WebRemoteLinkCard? {
        didSet { if remoteLink != oldValue { overlayChanged() } }
    }
    /// Whether the window may face the subject, so its private items hide (DesktopUI+Privacy.swift).
    var privacy = OperatorPrivacy()
    /// Called on the GTK thread with the command an on-screen button stands for (the same as its key).
    public var onButtonCommand: (ControlCommand) -> Void = { _ in }
    /// Called on the GTK thread when the control bar shows or hides, with each button's rectangle
    /// (`[x, y, width, height]`, screen device pixels) while shown.
    public var onControls: (_ shown: Bool, _ buttons: [String: [Int]]) -> Void = { _, _ in }
    /// The on-screen controls over the bottom of the picture (made when the sinks are attached), with the
    /// note field (DesktopUI+Notes.swift) offering `noteCodes`.
    private(set) var controlBar: ControlBar?
    let noteCodes: [String]
    /// The operator picture (made when the sinks are attached).
    private var pictureView: OperatorPicture?
    /// Called on the GTK thread with the operator picture area's size in device pixels, at first and
    /// whenever it changes (fullscreen on or off, a resize, another monitor or scale factor).
    public var onOperatorSize: (Int, Int) -> Void = { _, _ in }
    /// Called on the GTK thread when the operator window paints a frame of another size or into a
    /// rectangle of another size.
    public var onOperatorPicture: (PictureShown) -> Void = { _ in }
    /// Frames of the preview the operator window painted so far, and the largest step between two of
    /// them (their timestamps) since the last call, ns.
    public func takePreviewFigures() -> (painted: Int64, largestGap: Int64) {
        guard let view = pictureView else { return (0, 0) }
        return (view.paintedFrames, view.takeLargestGap())
    }

    let choice: MonitorChoice
    let operatorWindow: UnsafeMutablePointer<GtkWidget>
    private let operatorOverlay: UnsafeMutablePointer<GtkWidget>
    /// The HUD and pairing card changed (or may be seen differently): the picture composes them again.
    func overlayChanged() { pictureView?.overlayChanged() }
    /// The subject's window: its camera picture and, over it, the subject view.
    private let subjectWindow: SubjectWindow
    /// Whether the run holds the subject's monitor, view or curtain (do not disturb follows it).
    public var subjectMonitorHeld: Bool { curtainRule.holdsMonitor }
    /// What the subject's monitor shows now: the desktop, the view or the curtain.
    public var subjectMonitorShows: SubjectCurtain.Shows { curtainRule.shows }
    /// Called on the GTK thread when `subjectMonitorHeld` or what the monitor shows changes.
    public var onSubjectMonitorShows: (SubjectCurtain.Shows) -> Void = { _ in }
    private var curtainRule: SubjectCurtain
    private var curtainWindow: CurtainWindow?
    private(set) var fullscreenRequested = true
    /// The window manager's word: the operator window is fullscreen (minimised or not).
    private var windowFullscreen = false
    /// Every signal handler this UI connected; dropped (disconnected) when the windows close.
    private var connections: [SignalConnection] = []

    private func connect<Handler>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler, _ target: AnyObject) {
        connections.append(SignalConnection(instance, signal, handler, target))
    }

    /// Creates both windows (the subject's hidden) and shows the operator window fullscreen on its
    /// monitor. Throws a usage error for a monitor index that does not exist.
    public init(_ config: Configuration) throws(DuoError) {
        monitors = Monitors.list()
        choice = try MonitorChoice.resolve(monitors, operator: config.operatorMonitor, subject: config.subjectMonitor)
        accessory = AccessoryState(enabled: config.accessoryEnabled)
        fullscreenRequested = config.startFullscreen
        curtainRule = SubjectCurtain(enabled: config.curtain != nil)
        noteCodes = config.noteCodes

        operatorWindow = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(operatorWindow.asWindow, "duo-capture operator")
        // The picture paints every pixel of the window (black around itself): the window's own background
        // would be one more fill of the whole frame through the display server each frame.
        gtk_widget_set_app_paintable(operatorWindow, 1)
        // Drawn straight into the window on X11 only: a Wayland surface gets its buffers through GDK's
        // frame (begin/end draw), so a toplevel that is not double-buffered there never maps.
        if Self.drawsUnbuffered { gtk_widget_set_double_buffered(operatorWindow, 0) }
        operatorOverlay = gtk_overlay_new()
        gtk_container_add(operatorWindow.asContainer, operatorOverlay)
        subjectWindow = SubjectWindow()

        let black = "window { background-color: black; }"
        let css = gtk_css_provider_new()
        gtk_css_provider_load_from_data(css, black, -1, nil)
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(css), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))

        connect(operatorWindow.raw, "window-state-event", Self.windowStateCallback, self)
        connect(operatorWindow.raw, "configure-event", Self.configureCallback, self)
        connect(operatorWindow.raw, "key-press-event", Self.keyCallback, self)
        connect(subjectWindow.window.raw, "key-press-event", Self.keyCallback, self)
        connect(operatorWindow.raw, "delete-event", Self.deleteCallback, self)
        connect(subjectWindow.window.raw, "delete-event", Self.subjectDeleteCallback, self)
        if let screen = gdk_screen_get_default() {
            connect(UnsafeMutableRawPointer(screen), "monitors-changed", Self.monitorsChangedCallback, self)
        }
        if let display = gdk_display_get_default() {
            connect(UnsafeMutableRawPointer(display), "monitor-added", Self.monitorAddedCallback, self)
            connect(UnsafeMutableRawPointer(display), "monitor-removed", Self.monitorAddedCallback, self)
        }
        curtainWindow = config.curtain.map(CurtainWindow.init(model:))
        subjectWindow.onSize = { [unowned self] in onSubjectSize($0, $1) }
        refresh()
    }

    /// Reports the current accessory state through `onAccessoryChange` (the first event of a run).
    public func announce() {
        onAccessoryChange(accessory.current, hud)
    }

    // MARK: Sinks

    /// Puts the operator picture (drawn by the window from the preview branch's newest frame) and the
    /// subject `gtksink` widget into their windows, and the subject view's drawing area over the subject
    /// picture. Must happen before the sinks start (before PLAYING), or gtksink opens a window of its
    /// own. Then shows the operator window.
    public func attach(operatorPicture: any LatestPicture, subjectWidget: UnsafeMutableRawPointer, subjectCanvas: SubjectCanvas) {
        // The picture fills the window: it paints each frame centred, at the size the graph scaled it to
        // (the area's own, reported through onOperatorSize), and follows every size change.
        let operatorView = OperatorPicture(operatorPicture)
        operatorView.onSize = { [unowned self] w, h in
            let scale = Int(gtk_widget_get_scale_factor(operatorView.widget))
            controlBar?.setBottomMargin(Int(hud.controlsBottomMargin(width: Double(w / scale), height: Double(h / scale))))
            onOperatorSize(w, h)
        }
        operatorView.onPicture = { [unowned self] in onOperatorPicture($0) }
        // Laid out as the HUD lays out its safe frame: the picture's aspect, at most its scaled size.
        operatorView.layout = { [unowned self] in hud.previewRect(width: $0, height: $1) }
        // The HUD and pairing card are composed into the picture (OperatorPicture, HudLayer): no widget
        // over it draws shapes through the display server each frame.
        operatorView.overlay = { [unowned self] in privacy.hidden ? (hud.privateItemsHidden, nil) : (hud, remoteLink) }
        pictureView = operatorView
        let op = operatorView.widget
        gtk_container_add(operatorOverlay.asContainer, op)
        attachControls(over: op)

        subjectWindow.attach(picture: subjectWidget, canvas: subjectCanvas)
        showOperator()
    }

    /// The control bar over the bottom of the picture, shown by pointer motion, touch or a click on the
    /// window (and on the picture widget, which would otherwise keep them to itself).
    private func attachControls(over picture: UnsafeMutablePointer<GtkWidget>) {
        let bar = ControlBar(twoCameras: hud.cameraKeys, noteCodes: noteCodes)
        bar.onCommand = { [unowned self] in onButtonCommand($0) }
        bar.onOpenScript = { [unowned self] in chooseScript() }
        bar.onKeyHelp = { [unowned self] in toggleKeyHelp() }
        bar.onCue = { [unowned self] in chooseCue(fromButton: true) }
        bar.onNote = { [unowned self] in openNote() }
        bar.onLayout = { [unowned self] shown, buttons in
            // While the bar is up the window is double-buffered (the bar over the picture must not
            // flicker); hidden, the picture is drawn straight into the window: the display server copies
            // each frame once instead of into a fresh back buffer and then onto the window (perf, issue 36).
            if Self.drawsUnbuffered { gtk_widget_set_double_buffered(operatorWindow, shown ? 1 : 0) }
            onControls(shown, buttons)
        }
        gtk_overlay_add_overlay(UnsafeMutableRawPointer(operatorOverlay).assumingMemoryBound(to: GtkOverlay.self), bar.widget)
        let mask = gint(GDK_POINTER_MOTION_MASK.rawValue | GDK_BUTTON_PRESS_MASK.rawValue | GDK_TOUCH_MASK.rawValue)
        for target in [operatorWindow, picture] {
            gtk_widget_add_events(target, mask)
            connect(target.raw, "motion-notify-event", Self.pointerCallback, self)
            connect(target.raw, "button-press-event", Self.pointerCallback, self)
            connect(target.raw, "touch-event", Self.pointerCallback, self)
        }
        controlBar = bar
        bar.update(hud, fullscreen: windowFullscreen)
    }

    private static let pointerCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, data in
        let ui = this(data)
        MainActor.assumeIsolated { ui.controlBar?.input() }
        return 0
    }

    /// Whether the subject window shows the camera picture under the view (the preview kind). Hidden, the
    /// picture widget is never drawn, so redrawing the view never repaints a stale frame beneath it.
    public func setSubjectPicture(_ shown: Bool) {
        subjectWindow.setPicture(shown)
    }

    private func showOperator() {
        let op = choice.operatorMonitor(in: monitors)
        if let op {
            gtk_window_move(operatorWindow.asWindow, gint(op.x), gint(op.y))
            gtk_window_set_default_size(operatorWindow.asWindow, gint(op.width * 3 / 4), gint(op.height * 3 / 4))
        }
        gtk_widget_show_all(operatorWindow)
        if fullscreenRequested { enterFullscreen() }
        gtk_window_present(operatorWindow.asWindow)
    }

    // MARK: Facts in

    /// Frames flowing (or not): one of availability's inputs.
    public func setFramesFlowing(_ flowing: Bool) {
        apply(accessory.update { $0.framesFlowing = flowing })
    }

    /// The subject view's branch failed: unavailable for the rest of the run, with that reason.
    public func setSubjectViewFailed() {
        apply(accessory.update { $0.subjectViewFailed = true })
    }

    /// The user's choice (key T, --accessory, the control socket). Never changes availability.
    public func setEnabled(_ on: Bool) {
        apply(accessory.setEnabled(on))
    }

    public func toggleFullscreen() {
        if windowFullscreen { leaveFullscreen() } else { enterFullscreen() }
    }

    /// nil toggles.
    public func setFullscreen(_ on: Bool?) {
        switch on {
        case nil: toggleFullscreen()
        case true?: enterFullscreen()
        case false?: leaveFullscreen()
        }
    }

    public func enterFullscreen() {
        fullscreenRequested = true
        // On the monitor the window is on (the user may have moved it), else the configured one.
        if let op = windowMonitor ?? choice.operatorMonitor(in: monitors), let screen = gdk_screen_get_default() {
            gtk_window_fullscreen_on_monitor(operatorWindow.asWindow, screen, gint(op.index))
        } else {
            gtk_window_fullscreen(operatorWindow.asWindow)
        }
    }

    public func leaveFullscreen() {
        fullscreenRequested = false
        gtk_window_unfullscreen(operatorWindow.asWindow)
    }

    /// Closes both windows (after the pipeline has stopped, so no sink renders into a destroyed widget).
    public func close() {
        // The screen and display outlive the windows: their handlers must not call into a closed UI.
        connections.removeAll()
        controlBar?.close()
        pictureView?.close()
        curtainWindow?.close()
        subjectWindow.close()
        gtk_widget_destroy(operatorWindow)
    }

    // MARK: State → windows

    /// The test hub's subject monitor pulled out: the monitor list is read without it, so the accessory
    /// goes unavailable (and comes back) exactly as when the monitor itself goes and returns.
    private var subjectMonitorUnplugged = false

    /// Remote subject displays: asked for and connected (a connected one counts as a subject monitor).
    private var remotes = (asked: 0, connected: 0)

    /// The operator window (for what attaches to its surface, such as the idle inhibitor).
    public var operatorWindowWidget: UnsafeMutablePointer<GtkWidget> { operatorWindow }

    public func setRemoteDisplays(asked: Int, connected: Int) {
        guard remotes != (asked, connected) else { return }
        remotes = (asked, connected)
        refresh()
    }

    public func setSubjectMonitorPlugged(_ plugged: Bool) {
        guard subjectMonitorUnplugged == plugged else { return }
        subjectMonitorUnplugged = !plugged
        refresh()
    }

    /// The monitor the operator window is on now (nil before it is placed): availability reads this one,
    /// not the configured one, since the user or the window manager may move the window.
    var windowMonitor: MonitorInfo?

    private func windowMoved() {
        guard let display = gdk_display_get_default(), let window = gtk_widget_get_window(operatorWindow),
              let monitor = gdk_display_get_monitor_at_window(display, window) else { return }
        var r = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &r)
        let now = Monitors.list().first { $0.x == Int(r.x) && $0.y == Int(r.y) && $0.width == Int(r.width) && $0.height == Int(r.height) }
        guard now != windowMonitor else { return }
        windowMonitor = now
        refresh()
    }

    private func refresh() {
        monitors = Monitors.list()
        if let placed = windowMonitor, !monitors.contains(placed) {
            // The window's monitor went (unplugged): the window manager moves it to another; it stays
            // fullscreen there (on whichever monitor it lands), so the operator keeps the picture and a
            // take goes on.
            windowMonitor = nil
            if fullscreenRequested { gtk_window_fullscreen(operatorWindow.asWindow) }
        }
        let op = windowMonitor ?? choice.operatorMonitor(in: monitors)
        let subject = subjectMonitorUnplugged ? nil : choice.subjectMonitor(in: monitors)
        apply(accessory.update {
            $0.operatorMonitor = op?.connector
            $0.subjectMonitor = subject?.connector
            $0.remoteDisplays = remotes.asked
            $0.remoteConnected = remotes.connected
        })
        // A monitor change can move the subject monitor (its index) while staying available.
        if accessory.shown, subject?.connector != subjectWindow.shownOn { placeSubject() }
        updatePrivacy(subject: subject)
    }

    private func apply(_ change: AccessoryChange?) {
        hud.enabled = accessory.enabled
        hud.available = accessory.available
        hud.reasons = accessory.reasons
        hud.subjectMonitor = accessory.inputs.subjectMonitor
        guard let change else { return updateCurtain() }
        // The curtain goes up before the view goes, and down after it came: the monitor never shows the desktop between.
        if change.shown != subjectWindow.isShown {
            if change.shown { placeSubject(); updateCurtain() } else { updateCurtain(); hideSubject() }
        } else {
            updateCurtain()
        }
        onAccessoryChange(change, hud)
    }

    private func placeSubject() {
        guard !subjectMonitorUnplugged, let subject = choice.subjectMonitor(in: monitors) else { return }
        subjectWindow.show(on: subject)
    }

    /// The curtain, up while the subject's monitor shows it (SubjectCurtain: the view hidden), following
    /// that monitor through hotplug. Down while the view is up: a compositor such as sway keeps one
    /// fullscreen window per output, so the two never share it.
    private func updateCurtain() {
        let changed = curtainRule.update(accessory)
        let inputs = accessory.inputs
        let monitor = subjectMonitorUnplugged || curtainRule.shows != .curtain ? nil
            : choice.subjectMonitor(in: monitors).flatMap { $0.connector == inputs.subjectMonitor && $0.connector != inputs.operatorMonitor ? $0 : nil }
        if let curtainWindow, monitor != curtainWindow.placedOn { curtainWindow.place(on: monitor) }
        if let changed { onSubjectMonitorShows(changed) }
    }

    private func hideSubject() {
        subjectWindow.hide()
    }

    // MARK: Callbacks (GTK thread)

    private nonisolated static func this(_ data: UnsafeMutableRawPointer?) -> DesktopUI {
        Unmanaged<DesktopUI>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let windowStateCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
        let e = event!.assumingMemoryBound(to: GdkEventWindowState.self).pointee
        let fullscreen = e.new_window_state.rawValue & GDK_WINDOW_STATE_FULLSCREEN.rawValue != 0
        let minimised = e.new_window_state.rawValue & GDK_WINDOW_STATE_ICONIFIED.rawValue != 0
        let ui = this(data)
        MainActor.assumeIsolated {
            if fullscreen != ui.windowFullscreen {
                ui.windowFullscreen = fullscreen
                ui.onFullscreen(fullscreen)
                ui.controlBar?.update(ui.hud, fullscreen: fullscreen)
            }
            // A minimised window is not on the glass: it does not count as a fullscreen operator view.
            let counts = fullscreen && !minimised
            if counts != ui.accessory.inputs.operatorFullscreen {
                ui.apply(ui.accessory.update { $0.operatorFullscreen = counts })
            }
        }
        return 0
    }

    private static let configureCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, data in
        let ui = this(data)
        MainActor.assumeIsolated { ui.windowMoved() }
        return 0
    }

    private static let keyCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
        let key = Int32(event!.assumingMemoryBound(to: GdkEventKey.self).pointee.keyval)
        let ui = this(data)
        return MainActor.assumeIsolated { ui.key(key) ? 1 : 0 }
    }

    private func key(_ keyval: Int32) -> Bool {
        // The note field open: its keys, and every other key to its entry (never a binding).
        if let handled = noteKey(keyval) { return handled }
        if privacyKey(keyval) { return true }
        // ? shows the key list over the picture (the operator's screen only); ? or Esc hides it.
        if keyval == GDK_KEY_question || (keyval == GDK_KEY_Escape && hud.keyHelp != nil) { toggleKeyHelp(); return true }
        if keyval == GDK_KEY_o || keyval == GDK_KEY_O { chooseScript(); return true }
        if keyval == GDK_KEY_c || keyval == GDK_KEY_C { chooseCue(fromButton: false); return true }
        guard let command = DesktopKeys.command(forKey: keyval, countingDown: hud.countdown != nil,
                                                fullscreen: windowFullscreen) else { return false }
        onCommand(command)
        return true
    }

    /// The key list over the operator picture on or off (drawn with the HUD, into this window only).
    func toggleKeyHelp() {
        hud.keyHelp = hud.keyHelp == nil ? DesktopKeys.keyHelp : nil
    }

    /// The O key: a file chooser on the operator window; the chosen file goes to the run as the
    /// `script` command, like a control client's.
    private func chooseScript() {
        guard chooserAllowed(), let dialog = duo_script_chooser_new(operatorWindow.asWindow, tr("Open a script"), tr("_Cancel"),
                                                                    tr("_Open"), tr("Scripts (.md, .txt)")) else { return }
        placeOnOperatorMonitor(dialog)
        let response = gtk_dialog_run(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkDialog.self))
        let chooser = OpaquePointer(dialog)
        if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_filename(chooser) {
            let path = String(cString: file)
            g_free(file)
            onCommand(.script(path: path))
        }
        gtk_widget_destroy(dialog)
    }

    private static let deleteCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, data in
        // Closing the operator window quits like Q: the take is finalised, then the windows go.
        let ui = this(data)
        MainActor.assumeIsolated { ui.onCommand(.quit) }
        return 1
    }

    private static let subjectDeleteCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, data in
        // Closing the subject window is the user turning the accessory off.
        let ui = this(data)
        MainActor.assumeIsolated { ui.onCommand(.accessory(on: false)) }
        return 1
    }

    private static let monitorsChangedCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
        let ui = this(data)
        MainActor.assumeIsolated { ui.refresh() }
    }

    private static let monitorAddedCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
        let ui = this(data)
        MainActor.assumeIsolated { ui.refresh() }
    }
}
