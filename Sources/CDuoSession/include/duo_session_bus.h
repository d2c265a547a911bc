// Keeping the screen on and the machine awake on any desktop, X11 or Wayland: an inhibition asked of the
// session on the D-Bus session bus (GNOME's session manager, else org.freedesktop.ScreenSaver).
//
// Why C: the calls' arguments are GVariants built with g_variant_new and read with g_variant_get, both
// variadic with a format string; Swift cannot call variadic C functions.
#pragma once
#include <glib.h>

/// Inhibits idle (and, with GNOME, suspend) on the session bus: org.gnome.SessionManager.Inhibit, else
/// org.freedesktop.ScreenSaver.Inhibit. A cookie, or 0 (no bus or neither service).
guint32 duo_session_inhibit(const char *reason);
/// Releases the inhibition `cookie` came from, on the interface that granted it; nothing for 0.
void duo_session_uninhibit(guint32 cookie);
