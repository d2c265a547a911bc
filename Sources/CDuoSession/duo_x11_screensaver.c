// Keeping the screen on, X11: the X screen-saver extension. See include/duo_x11_screensaver.h for why
// this is in C.
#include "duo_x11_screensaver.h"
#include <gdk/gdkx.h>
#include <X11/extensions/scrnsaver.h>

gboolean duo_x11_suspend_screensaver(GdkDisplay *display, gboolean suspend) {
    if (!display || !GDK_IS_X11_DISPLAY(display)) return FALSE;
    Display *x = gdk_x11_display_get_xdisplay(display);
    int event_base, error_base;
    if (!XScreenSaverQueryExtension(x, &event_base, &error_base)) return FALSE;
    XScreenSaverSuspend(x, suspend ? True : False);
    // A screen already blanked wakes up for the take.
    if (suspend) XForceScreenSaver(x, ScreenSaverReset);
    XFlush(x);
    return TRUE;
}
