import CGtk
import DuoCore
import DuoRender

/// The subject's window: fullscreen on the subject monitor, holding the subject branch's `gtksink`
/// picture (across the window for the preview kind, under the self-view's rectangle for the others, or
/// hidden) and, over it, the subject view that `SubjectCanvas` draws at the monitor's own resolution,
/// paced by the monitor's frame clock and repainting only what moved. DesktopUI decides when it shows
/// (the accessory's state) and hands it the keys and the close button; this window only carries that out.
///
/// Thread: GTK main thread (MainActor while gtk_main runs; see GtkMain).
@MainActor
final class SubjectWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    /// Called when the window's size in device pixels changes (the subject monitor's once it is
    /// fullscreen there): the view is laid out for it.
    var onSize: (Int, Int) -> Void = { _, _ in }
    /// Whether it is up, and on which monitor (its connector).
    private(set) var isShown = false
    private(set) var shownOn: String?

    private var connections: [SignalConnection] = []
    /// The camera picture (the preview kind, or under the self-view) and the view over it.
    private var picture: UnsafeMutablePointer<GtkWidget>?
    private var area: UnsafeMutablePointer<GtkWidget>?
    private var canvas: SubjectCanvas?
    private var pictureShown = false
    private var size: (Int, Int)?
    /// The margins last given to the picture (device pixels: left, top, right, bottom).
    private var pictureMargins = [0, 0, 0, 0]

    init() {
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(window.asWindow, "duo-capture subject")
        // No title bar or frame around the subject's view, even before the window manager makes it
        // fullscreen (Wayland's client-side decorations included).
        gtk_window_set_decorated(window.asWindow, 0)
        // The subject window must never take the keyboard from the operator.
        gtk_window_set_accept_focus(window.asWindow, 0)
        gtk_window_set_focus_on_map(window.asWindow, 0)
    }

    /// Puts the subject `gtksink` widget into the window and the view's drawing area over it. Must happen
    /// before the sinks start (before PLAYING), or gtksink opens a window of its own.
    func attach(picture widget: UnsafeMutableRawPointer, canvas: SubjectCanvas) {
        // The picture (hidden unless the preview kind shows it) under the view.
        let overlay = gtk_overlay_new()!
        gtk_container_add(window.asContainer, overlay)
        let picture = widget.assumingMemoryBound(to: GtkWidget.self)
        gtk_container_add(overlay.asContainer, picture)
        let view = gtk_drawing_area_new()!
        gtk_widget_set_app_paintable(view, 1)
        connections.append(SignalConnection(view.raw, "draw", Self.drawCallback, self))
        connections.append(SignalConnection(view.raw, "size-allocate", Self.sizeCallback, self))
        gtk_overlay_add_overlay(UnsafeMutableRawPointer(overlay).assumingMemoryBound(to: GtkOverlay.self), view)
        // The monitor's frame clock paces the view: once a frame it asks whether anything moved.
        gtk_widget_add_tick_callback(view, Self.tickCallback, Unmanaged.passUnretained(self).toOpaque(), nil)
        area = view
        self.picture = picture
        self.canvas = canvas
        gtk_widget_show_all(overlay)
        gtk_widget_set_visible(picture, pictureShown ? 1 : 0)
        // No pointer over the subject's monitor: it would sit in front of the text.
        window.hidePointer()
    }

    /// Whether the window shows the camera picture under the view (the preview kind). Hidden, the
    /// picture widget is never drawn, so redrawing the view never repaints a stale frame beneath it.
    func setPicture(_ shown: Bool) {
        pictureShown = shown
        if let picture { gtk_widget_set_visible(picture, shown ? 1 : 0) }
        if let area { gtk_widget_queue_draw(area) }
    }

    /// Up, fullscreen on `monitor` (again when the monitor moved under it).
    func show(on monitor: MonitorInfo) {
        guard let screen = gdk_screen_get_default() else { return }
        isShown = true
        shownOn = monitor.connector
        gtk_window_move(window.asWindow, gint(monitor.x), gint(monitor.y))
        gtk_window_set_default_size(window.asWindow, gint(monitor.width), gint(monitor.height))
        gtk_window_fullscreen_on_monitor(window.asWindow, screen, gint(monitor.index))
        gtk_widget_show(window)
    }

    func hide() {
        isShown = false
        shownOn = nil
        gtk_widget_hide(window)
    }

    func close() {
        connections.removeAll()
        gtk_widget_destroy(window)
    }

    /// Puts the video widget over `rect` (the self-view, device pixels), or across the whole window (nil:
    /// the preview kind). The graph already scaled the picture to that size.
    private func placePicture(_ rect: (x: Int, y: Int, width: Int, height: Int)?) {
        guard let picture, let size else { return }
        let margins = rect.map { [$0.x, $0.y, max(0, size.0 - $0.x - $0.width), max(0, size.1 - $0.y - $0.height)] } ?? [0, 0, 0, 0]
        guard margins != pictureMargins else { return }
        pictureMargins = margins
        let scale = max(1, Int(gtk_widget_get_scale_factor(picture)))
        gtk_widget_set_margin_start(picture, gint(margins[0] / scale))
        gtk_widget_set_margin_top(picture, gint(margins[1] / scale))
        gtk_widget_set_margin_end(picture, gint(margins[2] / scale))
        gtk_widget_set_margin_bottom(picture, gint(margins[3] / scale))
    }

    private func allocated(_ widget: UnsafeMutablePointer<GtkWidget>) {
        let scale = Int(gtk_widget_get_scale_factor(widget))
        let size = (Int(gtk_widget_get_allocated_width(widget)) * scale, Int(gtk_widget_get_allocated_height(widget)) * scale)
        guard size.0 > 1, size.1 > 1, self.size.map({ $0 != size }) ?? true else { return }
        self.size = size
        onSize(size.0, size.1)
    }

    // MARK: Callbacks (GTK thread)

    private nonisolated static func this(_ data: UnsafeMutableRawPointer?) -> SubjectWindow {
        Unmanaged<SubjectWindow>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let sizeCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { widget, _, data in
        let me = this(data)
        onGtkThread(with: widget!.assumingMemoryBound(to: GtkWidget.self)) { me.allocated($0) }
    }

    private static let tickCallback: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { w, _, data in
        let me = this(data)
        onGtkThread(with: w) { widget in
            guard let canvas = me.canvas, let widget else { return }
            me.placePicture(canvas.pictureRectangle)
            switch canvas.tick(window: me.size.map { (width: $0.0, height: $0.1) }) {
            case .none: break
            case .all: gtk_widget_queue_draw(widget)
            case .area(let x, let y, let w, let h):
                let scale = Int(gtk_widget_get_scale_factor(widget))
                gtk_widget_queue_draw_area(widget, gint(x / scale), gint(y / scale), gint((w + scale - 1) / scale), gint((h + scale - 1) / scale))
            }
        }
        return 1
    }

    private static let drawCallback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { widget, context, data in
        let me = this(data)
        let scale = Double(gtk_widget_get_scale_factor(widget!.assumingMemoryBound(to: GtkWidget.self)))
        onGtkThread(with: context) { cr in
            guard let canvas = me.canvas, let cr else { return }
            canvas.draw(cr: cr, logicalScale: scale, window: me.size.map { (width: $0.0, height: $0.1) })
        }
        return 1
    }
}
