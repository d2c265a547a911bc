import CGtk
import DuoCore

//  The operator window where the subject may look: its private items hide (OperatorPrivacy decides;
//  the HUD draws `HudModel.privateItemsHidden` and no pairing card), N shows them, the window goes
//  back to the operator's monitor when it returns, and the script chooser opens only on the operator's
//  monitor.
//
//  Thread: GTK main thread, as DesktopUI.

extension DesktopUI {
    /// Feeds the monitors and the window's place to the privacy rule and carries out what it decides.
    /// Called from `refresh` (monitor changes and window moves).
    func updatePrivacy(subject: MonitorInfo?) {
        let operatorPresent = choice.operatorConnector.map { name in monitors.contains { $0.connector == name } } ?? true
        let change = privacy.update {
            $0.operatorMonitorPresent = operatorPresent
            $0.windowMonitor = windowMonitor?.connector
            $0.subjectMonitor = subject?.connector
        }
        if change.hidden != nil { overlayChanged() }
        // The note field shows what is typed: closed (its words kept) while the subject may look.
        if change.hidden == true { closeNote() }
        if change.returnToOperatorMonitor { returnToOperatorMonitor() }
    }

    /// The operator's monitor is back: the window goes back to it (fullscreen there if it was), so the
    /// subject's monitor is the subject's again.
    private func returnToOperatorMonitor() {
        guard let op = choice.operatorMonitor(in: monitors), op.connector == choice.operatorConnector else { return }
        let window = operatorWindow.asWindow
        // A fullscreen window is held on its monitor by the window manager: out, moved, in again there.
        if fullscreenRequested { gtk_window_unfullscreen(window) }
        gtk_window_move(window, gint(op.x), gint(op.y))
        if fullscreenRequested, let screen = gdk_screen_get_default() {
            gtk_window_fullscreen_on_monitor(window, screen, gint(op.index))
        }
    }

    /// N while the private items are hidden shows them; otherwise N is the shot list's key.
    func privacyKey(_ keyval: Int32) -> Bool {
        guard keyval == GDK_KEY_n || keyval == GDK_KEY_N, privacy.reveal() else { return false }
        overlayChanged()
        return true
    }

    /// The script chooser shows folders and file names: not while the window may face the subject
    /// (the HUD's line says why; N first).
    func chooserAllowed() -> Bool { !privacy.hidden }

    /// Puts a dialog in the middle of the operator's monitor (never the subject's), wherever the window
    /// manager would have put it.
    func placeOnOperatorMonitor(_ dialog: UnsafeMutablePointer<GtkWidget>) {
        guard let op = choice.operatorMonitor(in: monitors) else { return }
        let window = dialog.asWindow
        // GTK's file chooser sizes itself from its font (41 lines: taller than a 720-line monitor) once
        // realized, after anything set here; a maximum size is the one thing GTK itself holds it to.
        // Placed by that maximum, any size it then takes stays on the operator's monitor.
        let w = op.width * 9 / 10, h = op.height * 9 / 10
        var limits = GdkGeometry()
        limits.max_width = gint(w)
        limits.max_height = gint(h)
        gtk_window_set_geometry_hints(window, nil, &limits, GDK_HINT_MAX_SIZE)
        gtk_window_set_default_size(window, gint(min(800, w)), gint(min(600, h)))
        gtk_window_move(window, gint(op.x + (op.width - w) / 2), gint(op.y + (op.height - h) / 2))
    }
}
