import CGtk
import DuoCore
import Foundation

/// `duo-capture display`'s window: fullscreen on its monitor, the received subject view (a gtksink
/// widget) filling it, and "waiting for duo-capture" over it while nothing arrives. No title bar, no
/// pointer; Q or Esc (or closing it) ends the program.
///
/// Thread: GTK main thread.
@MainActor
public final class DisplayWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private let picture: UnsafeMutablePointer<GtkWidget>
    private var connections: [SignalConnection] = []
    public var onQuit: () -> Void = {}
    public let monitor: MonitorInfo

    /// The refresh rate of `monitor`, Hz (60 when GDK does not know).
    public static func refreshRate(_ monitor: MonitorInfo) -> Int {
        guard let display = gdk_display_get_default(), let m = gdk_display_get_monitor(display, gint(monitor.index)) else { return 60 }
        let milli = Int(gdk_monitor_get_refresh_rate(m))
        return milli > 0 ? max(1, (milli + 500) / 1000) : 60
    }

    public init(monitor: MonitorInfo, picture: UnsafeMutableRawPointer, windowed: Bool, title: String) {
        self.monitor = monitor
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_title(window.asWindow, title)
        gtk_window_set_decorated(window.asWindow, windowed ? 1 : 0)
        let css = gtk_css_provider_new()
        gtk_css_provider_load_from_data(css, "window { background-color: black; } label.waiting { color: #9a9a9a; font-size: 32px; }", -1, nil)
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(css), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        let overlay = gtk_overlay_new()!
        gtk_container_add(window.asContainer, overlay)
        self.picture = picture.assumingMemoryBound(to: GtkWidget.self)
        gtk_container_add(overlay.asContainer, self.picture)
        label = gtk_label_new(tr("waiting for duo-capture"))
        gtk_style_context_add_class(gtk_widget_get_style_context(label), "waiting")
        gtk_overlay_add_overlay(UnsafeMutableRawPointer(overlay).assumingMemoryBound(to: GtkOverlay.self), label)
        connections.append(SignalConnection(window.raw, "key-press-event", Self.keyCallback, self))
        connections.append(SignalConnection(window.raw, "delete-event", Self.deleteCallback, self))
        gtk_window_move(window.asWindow, gint(monitor.x), gint(monitor.y))
        gtk_window_set_default_size(window.asWindow, gint(windowed ? monitor.width / 2 : monitor.width), gint(windowed ? monitor.height / 2 : monitor.height))
        if !windowed, let screen = gdk_screen_get_default() { gtk_window_fullscreen_on_monitor(window.asWindow, screen, gint(monitor.index)) }
        gtk_widget_show_all(window)
        window.hidePointer()
    }

    /// "waiting for duo-capture" on black, or the picture: a stale last frame is never left on the glass.
    public func setWaiting(_ waiting: Bool) {
        gtk_widget_set_visible(label, waiting ? 1 : 0)
        gtk_widget_set_opacity(picture, waiting ? 0 : 1)
    }

    public func close() {
        connections.removeAll()
        gtk_widget_destroy(window)
    }

    private nonisolated static func this(_ data: UnsafeMutableRawPointer?) -> DisplayWindow {
        Unmanaged<DisplayWindow>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let keyCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
        guard let event else { return 0 }
        let keyval = Int32(event.assumingMemoryBound(to: GdkEventKey.self).pointee.keyval)
        guard keyval == GDK_KEY_q || keyval == GDK_KEY_Q || keyval == GDK_KEY_Escape else { return 0 }
        let window = this(data)
        MainActor.assumeIsolated { window.onQuit() }
        return 1
    }

    private static let deleteCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, data in
        let window = this(data)
        MainActor.assumeIsolated { window.onQuit() }
        return 1
    }
}
