// What the display is: GDK's backend (for the log), and the names Wayland compositors give their outputs
// (HEADLESS-2, DP-2), which GTK 3 does not expose: GDK's monitor "model" is the make's model ("headless"
// for every output of a headless sway). Read from the xdg-output protocol on a private event queue, so
// GTK's own queue and state are never touched.
//
// Why C: GDK_IS_WAYLAND_DISPLAY and GDK_IS_X11_DISPLAY are macros; xdg-output's client code is not
// generated (SwiftPM has no wayland-scanner step), so its interface tables and listener are written out
// here as C structs of function pointers; and wl_proxy_marshal_flags is variadic. Swift can do none of
// that.
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
