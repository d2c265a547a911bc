import CGtk
import DuoCore
import DuoRender

/// The subject's curtain on the desktop: a window of its own, fullscreen on the subject's monitor, that
/// `CurtainPainter` paints dark with the curtain's one line. Up while `SubjectCurtain` says the monitor
/// shows the curtain (DesktopUI maps it before the view goes and unmaps it after the view came, so the
/// desktop behind never shows between the two); it has no tick callback and is drawn only when GTK
/// exposes it (mapped, resized) or its text changes, so it costs nothing while up.
///
/// Thread: GTK main thread (MainActor while gtk_main runs; see GtkMain).
@MainActor
final class CurtainWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private var connections: [SignalConnection] = []
    /// The monitor it is up on (its connector and geometry), nil while down.
    private(set) var placedOn: MonitorInfo?
    /// What it says; a change redraws it once.
    var model: CurtainModel {
        didSet { if model != oldValue, placedOn != nil { gtk_widget_queue_draw(window) } }
    }

    init(model: CurtainModel) {
        self.model = model
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(window.asWindow, "duo-capture curtain")
        gtk_window_set_decorated(window.asWindow, 0)
        // Never takes the keyboard from the operator.
        gtk_window_set_accept_focus(window.asWindow, 0)
        gtk_window_set_focus_on_map(window.asWindow, 0)
        gtk_widget_set_app_paintable(window, 1)
        connections.append(SignalConnection(window.raw, "draw", Self.drawCallback, self))
        connections.append(SignalConnection(window.raw, "delete-event", Self.deleteCallback, self))
        // No pointer over the subject's monitor.
        window.hidePointer()
    }

    /// Up, fullscreen on `monitor` (again when the monitor changed under it), or down (nil).
    func place(on monitor: MonitorInfo?) {
        guard monitor != placedOn else { return }
        placedOn = monitor
        guard let monitor, let screen = gdk_screen_get_default() else {
            gtk_widget_hide(window)
            return
        }
        gtk_window_move(window.asWindow, gint(monitor.x), gint(monitor.y))
        gtk_window_set_default_size(window.asWindow, gint(monitor.width), gint(monitor.height))
        gtk_window_fullscreen_on_monitor(window.asWindow, screen, gint(monitor.index))
        gtk_widget_show(window)
    }

    func close() {
        connections.removeAll()
        gtk_widget_destroy(window)
    }

    private static let drawCallback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { widget, cr, data in
        let me = Unmanaged<CurtainWindow>.fromOpaque(data!).takeUnretainedValue()
        let w = widget!.assumingMemoryBound(to: GtkWidget.self)
        let scale = Double(gtk_widget_get_scale_factor(w))
        let width = Double(gtk_widget_get_allocated_width(w)), height = Double(gtk_widget_get_allocated_height(w))
        let model = onGtkThread(with: me) { $0.model }
        CurtainPainter.draw(model, cr: cr!, width: width, height: height, logicalScale: scale)
        return 1
    }

    private static let deleteCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, _ in
        1   // the curtain goes with the run, not by a close request
    }
}
