// Keeping the screen on under Wayland: the compositor's idle-inhibit protocol on a window's surface.
//
// Why C: GDK_IS_WAYLAND_DISPLAY is a macro; idle-inhibit-unstable-v1's client code is not generated
// (SwiftPM has no wayland-scanner step), so its interface tables are written out here as C structs; and
// wl_proxy_marshal_flags is variadic.
#pragma once
#include <gdk/gdk.h>

/// Wayland: asks the compositor not to go idle (blank, lock) while `window`'s surface is visible
/// (idle-inhibit-unstable-v1); an inhibitor to release, or NULL (not Wayland, or no such protocol).
void *duo_wayland_inhibit_idle(GdkDisplay *display, GdkWindow *window);
void duo_wayland_release_idle(GdkDisplay *display, void *inhibitor);
