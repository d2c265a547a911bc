// Keeping the screen on, any desktop: inhibit on the session bus. See include/duo_session_bus.h for why
// this is in C.
#include "duo_session_bus.h"
#include <gio/gio.h>

// Which session interface granted the inhibition (its cookie goes back to the same one).
static gboolean duo_inhibited_by_gnome = FALSE;

guint32 duo_session_inhibit(const char *reason) {
    // GNOME's session manager (idle and suspend, on X11 and Wayland), else the freedesktop ScreenSaver
    // interface (KDE, Xfce and others); 0 when there is no session bus or neither service.
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
    if (!bus) return 0;
    guint32 cookie = 0;
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.gnome.SessionManager", "/org/gnome/SessionManager",
        "org.gnome.SessionManager", "Inhibit", g_variant_new("(susu)", "duo-capture", 0, reason, 4 | 8), G_VARIANT_TYPE("(u)"),
        G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
    duo_inhibited_by_gnome = reply != NULL;
    if (!reply) {
        reply = g_dbus_connection_call_sync(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver",
            "org.freedesktop.ScreenSaver", "Inhibit", g_variant_new("(ss)", "duo-capture", reason), G_VARIANT_TYPE("(u)"),
            G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
    }
    if (reply) { g_variant_get(reply, "(u)", &cookie); g_variant_unref(reply); }
    g_object_unref(bus);
    return cookie;
}

void duo_session_uninhibit(guint32 cookie) {
    if (!cookie) return;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
    if (!bus) return;
    GVariant *reply = duo_inhibited_by_gnome
        ? g_dbus_connection_call_sync(bus, "org.gnome.SessionManager", "/org/gnome/SessionManager", "org.gnome.SessionManager",
                                      "Uninhibit", g_variant_new("(u)", cookie), NULL, G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL)
        : g_dbus_connection_call_sync(bus, "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver",
                                      "UnInhibit", g_variant_new("(u)", cookie), NULL, G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
    if (reply) g_variant_unref(reply);
    g_object_unref(bus);
}
