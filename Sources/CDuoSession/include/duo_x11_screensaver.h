// Keeping the screen on under X11: the X screen-saver extension (which also holds off display power
// management).
//
// Why C: GDK_IS_X11_DISPLAY is a macro, and libXss's header (X11/extensions/scrnsaver.h) is no module
// Swift can import; this is the one place that includes it and calls Xlib.
#pragma once
#include <gdk/gdk.h>

/// Suspends (or resumes) the X screen saver and display power management through the X screen-saver
/// extension; FALSE on a display that is not X11 or lacks the extension.
gboolean duo_x11_suspend_screensaver(GdkDisplay *display, gboolean suspend);
