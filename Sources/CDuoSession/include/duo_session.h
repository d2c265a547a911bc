// CDuoSession: the C glue the desktop layer (DuoDesktop) needs to ask the display and the session what
// GTK 3 does not: what the display is and what its outputs are called, and keeping the screen on while
// a take runs or the teleprompter is shown.
//
// This umbrella header includes one header per concern; each says at its top why its part is in C:
//   duo_display.h         GDK's backend name; Wayland output names (xdg-output)
//   duo_wayland_idle.h    keeping the screen on under Wayland (idle-inhibit-unstable-v1)
//   duo_x11_screensaver.h keeping the screen on under X11 (the X screen-saver extension)
//   duo_session_bus.h     keeping the screen on through the D-Bus session bus (GNOME, freedesktop)
//   duo_notifications.h   do not disturb through the freedesktop notifications service's Inhibit
// Some function names say "wayland" (duo_wayland_output_names, duo_wayland_inhibit_idle) and are what
// they say: Wayland-only, no-ops elsewhere. The target used to be called CDuoWayland; the C names stayed
// as the Swift call sites know them.
#pragma once
#include "duo_display.h"
#include "duo_wayland_idle.h"
#include "duo_x11_screensaver.h"
#include "duo_session_bus.h"
#include "duo_notifications.h"
