import CDuoSession
import CGtk
import Foundation

/// Keeps the screen from blanking and the machine from sleeping while a take runs or the teleprompter
/// is shown, through the desktop's standard interfaces: the X screen-saver extension (which also holds
/// off display power management) on X11, and on the session bus GNOME's session manager (idle and
/// suspend) or org.freedesktop.ScreenSaver (KDE and others), on X11 and Wayland alike. Released when
/// neither a take nor the teleprompter holds it.
///
/// Thread: GTK main thread.
@MainActor
public final class IdleInhibitor {
    private var held = false
    private var cookie: UInt32 = 0
    private var wayland: UnsafeMutableRawPointer?

    public init() {}

    /// Holds (true) or releases (false); returns the interfaces that now hold it, for the log.
    @discardableResult
    public func set(_ hold: Bool, reason: String, window: UnsafeMutablePointer<GtkWidget>? = nil) -> [String] {
        guard hold != held else { return [] }
        held = hold
        var used: [String] = []
        if duo_x11_suspend_screensaver(gdk_display_get_default(), hold ? 1 : 0) != 0 { used.append("X screen saver") }
        // Wayland: the compositor's idle-inhibit protocol, on the operator window's surface.
        if hold, let window, let gdkWindow = gtk_widget_get_window(window) {
            wayland = duo_wayland_inhibit_idle(gdk_display_get_default(), gdkWindow)
            if wayland != nil { used.append("Wayland idle inhibit") }
        } else if !hold, let inhibitor = wayland {
            duo_wayland_release_idle(gdk_display_get_default(), inhibitor)
            wayland = nil
        }
        if hold {
            cookie = duo_session_inhibit(reason)
            if cookie != 0 { used.append("session bus") }
        } else {
            duo_session_uninhibit(cookie)
            cookie = 0
        }
        return used
    }
}
