// Do not disturb through the freedesktop notifications service. See include/duo_notifications.h.
#include "duo_notifications.h"
#include <gio/gio.h>

// The connection that holds the inhibition: the service drops it when the connection closes.
static GDBusConnection *duo_notifications_bus = NULL;

guint32 duo_notifications_inhibit(const char *reason) {
    if (!duo_notifications_bus) duo_notifications_bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
    if (!duo_notifications_bus) return 0;
    GVariantBuilder hints;
    g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
    GVariant *reply = g_dbus_connection_call_sync(duo_notifications_bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
        "org.freedesktop.Notifications", "Inhibit", g_variant_new("(ssa{sv})", "duo-capture", reason, &hints), G_VARIANT_TYPE("(u)"),
        G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
    guint32 cookie = 0;
    if (reply) { g_variant_get(reply, "(u)", &cookie); g_variant_unref(reply); }
    return cookie;
}

void duo_notifications_uninhibit(guint32 cookie) {
    if (!cookie || !duo_notifications_bus) return;
    GVariant *reply = g_dbus_connection_call_sync(duo_notifications_bus, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
        "org.freedesktop.Notifications", "UnInhibit", g_variant_new("(u)", cookie), NULL, G_DBUS_CALL_FLAGS_NONE, 1000, NULL, NULL);
    if (reply) g_variant_unref(reply);
}
