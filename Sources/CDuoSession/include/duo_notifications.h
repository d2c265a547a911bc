// Do not disturb on desktops without GNOME's notification settings: the freedesktop notifications
// service's Inhibit (org.freedesktop.Notifications, offered by KDE Plasma and others). In C because the
// call's arguments are built with g_variant_new, which is variadic. The GNOME setting itself
// (GSettings) is read and written from Swift (DuoDesktop's NotificationBanners).
#pragma once
#include <glib.h>

// Inhibits notifications for this process; returns the cookie, or 0 when there is no session bus or the
// service does not offer Inhibit. The inhibition also ends with the process (the bus connection).
guint32 duo_notifications_inhibit(const char *reason);
// Gives an inhibition back.
void duo_notifications_uninhibit(guint32 cookie);
