// The names Wayland compositors give their outputs (HEADLESS-2, DP-2), which GTK 3 does not expose: GDK's
// monitor "model" is the make's model ("headless" for every output of a headless sway). Read from the
// xdg-output protocol on a private event queue, so GTK's own queue and state are never touched.
#pragma once
#include <gdk/gdk.h>

typedef struct {
    int x, y, width, height;   // logical geometry, as GDK reports monitors
    char name[64];
} DuoOutputName;

/// Fills `out` with up to `max` outputs and returns how many; 0 when `display` is not a Wayland display
/// or the compositor has no xdg-output version 2 (names). Call on the GTK main thread.
int duo_wayland_output_names(GdkDisplay *display, DuoOutputName *out, int max);

/// "wayland", "x11" or another GDK backend's name, for the log.
const char *duo_gdk_backend_name(GdkDisplay *display);

/// Suspends (or resumes) the X screen saver and display power management through the X screen-saver
/// extension; FALSE on a display that is not X11 or lacks the extension.
gboolean duo_x11_suspend_screensaver(GdkDisplay *display, gboolean suspend);
/// org.freedesktop.ScreenSaver.Inhibit on the session bus: a cookie, or 0 (no bus or no service).
guint32 duo_session_inhibit(const char *reason);
void duo_session_uninhibit(guint32 cookie);
/// Wayland: asks the compositor not to go idle (blank, lock) while `window`'s surface is visible
/// (idle-inhibit-unstable-v1); an inhibitor to release, or NULL (not Wayland, or no such protocol).
void *duo_wayland_inhibit_idle(GdkDisplay *display, GdkWindow *window);
void duo_wayland_release_idle(GdkDisplay *display, void *inhibitor);
