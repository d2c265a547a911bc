#include "duo_wayland.h"
#include <string.h>
#include <gdk/gdkwayland.h>
#include <gdk/gdkx.h>
#include <wayland-client.h>

// The two xdg-output-unstable-v1 interfaces, written out from the protocol's message list (requests and
// events in protocol order; "2s" marks an event added in version 2).
static const struct wl_interface duo_xdg_output_interface;
static const struct wl_interface *duo_get_xdg_output_types[] = { &duo_xdg_output_interface, &wl_output_interface };
static const struct wl_interface *duo_no_types[] = { NULL, NULL };
static const struct wl_message duo_manager_requests[] = {
    { "destroy", "", duo_no_types },
    { "get_xdg_output", "no", duo_get_xdg_output_types },
};
static const struct wl_interface duo_xdg_output_manager_interface = {
    "zxdg_output_manager_v1", 3, 2, duo_manager_requests, 0, NULL,
};
static const struct wl_message duo_output_requests[] = { { "destroy", "", duo_no_types } };
static const struct wl_message duo_output_events[] = {
    { "logical_position", "ii", duo_no_types },
    { "logical_size", "ii", duo_no_types },
    { "done", "", duo_no_types },
    { "name", "2s", duo_no_types },
    { "description", "2s", duo_no_types },
};
static const struct wl_interface duo_xdg_output_interface = {
    "zxdg_output_v1", 3, 1, duo_output_requests, 5, duo_output_events,
};

typedef struct {
    struct wl_output *output;
    struct wl_proxy *xdg;
    DuoOutputName info;
} Output;

typedef struct {
    struct wl_proxy *manager;
    Output outputs[16];
    int count;
} State;

static void on_global(void *data, struct wl_registry *registry, uint32_t id, const char *interface, uint32_t version) {
    State *s = data;
    if (strcmp(interface, wl_output_interface.name) == 0 && s->count < 16) {
        s->outputs[s->count++].output = wl_registry_bind(registry, id, &wl_output_interface, 1);
    } else if (strcmp(interface, duo_xdg_output_manager_interface.name) == 0 && version >= 2) {
        s->manager = wl_registry_bind(registry, id, &duo_xdg_output_manager_interface, version < 3 ? version : 3);
    }
}
static void on_global_remove(void *data, struct wl_registry *registry, uint32_t id) {}
static const struct wl_registry_listener registry_listener = { on_global, on_global_remove };

static void on_position(void *data, struct wl_proxy *xdg, int32_t x, int32_t y) { Output *o = data; o->info.x = x; o->info.y = y; }
static void on_size(void *data, struct wl_proxy *xdg, int32_t w, int32_t h) { Output *o = data; o->info.width = w; o->info.height = h; }
static void on_done(void *data, struct wl_proxy *xdg) {}
static void on_name(void *data, struct wl_proxy *xdg, const char *name) {
    Output *o = data;
    g_strlcpy(o->info.name, name, sizeof o->info.name);
}
static void on_description(void *data, struct wl_proxy *xdg, const char *description) {}
static const struct {
    void (*position)(void *, struct wl_proxy *, int32_t, int32_t);
    void (*size)(void *, struct wl_proxy *, int32_t, int32_t);
    void (*done)(void *, struct wl_proxy *);
    void (*name)(void *, struct wl_proxy *, const char *);
    void (*description)(void *, struct wl_proxy *, const char *);
} output_listener = { on_position, on_size, on_done, on_name, on_description };

/// A registry of its own on a private event queue (GTK's own queue is never dispatched here), with
/// `listener` told every global after one round trip. The caller destroys the registry and the queue.
static struct wl_registry *private_registry(struct wl_display *wl, struct wl_event_queue **queue,
                                            const struct wl_registry_listener *listener, void *data) {
    *queue = wl_display_create_queue(wl);
    struct wl_display *wrapped = wl_proxy_create_wrapper(wl);
    wl_proxy_set_queue((struct wl_proxy *)wrapped, *queue);
    struct wl_registry *registry = wl_display_get_registry(wrapped);
    wl_proxy_wrapper_destroy(wrapped);
    wl_registry_add_listener(registry, listener, data);
    wl_display_roundtrip_queue(wl, *queue);
    return registry;
}

int duo_wayland_output_names(GdkDisplay *display, DuoOutputName *out, int max) {
    if (display == NULL || !GDK_IS_WAYLAND_DISPLAY(display)) return 0;
    struct wl_display *wl = gdk_wayland_display_get_wl_display(display);
    State state;
    memset(&state, 0, sizeof state);
    struct wl_event_queue *queue;
    struct wl_registry *registry = private_registry(wl, &queue, &registry_listener, &state);
    int found = 0;
    if (state.manager != NULL) {
        for (int i = 0; i < state.count; i++) {
            Output *o = &state.outputs[i];
            o->xdg = wl_proxy_marshal_flags(state.manager, 1, &duo_xdg_output_interface,
                                            wl_proxy_get_version(state.manager), 0, NULL, o->output);
            if (o->xdg) wl_proxy_add_listener(o->xdg, (void (**)(void))&output_listener, o);
        }
        wl_display_roundtrip_queue(wl, queue);
        for (int i = 0; i < state.count && found < max; i++) {
            if (state.outputs[i].info.name[0] != '\0') out[found++] = state.outputs[i].info;
        }
    }
    for (int i = 0; i < state.count; i++) {
        if (state.outputs[i].xdg) wl_proxy_marshal_flags(state.outputs[i].xdg, 0, NULL, wl_proxy_get_version(state.outputs[i].xdg), WL_MARSHAL_FLAG_DESTROY);
        wl_proxy_destroy((struct wl_proxy *)state.outputs[i].output);
    }
    if (state.manager) wl_proxy_marshal_flags(state.manager, 0, NULL, wl_proxy_get_version(state.manager), WL_MARSHAL_FLAG_DESTROY);
    wl_registry_destroy(registry);
    wl_event_queue_destroy(queue);
    return found;
}

const char *duo_gdk_backend_name(GdkDisplay *display) {
    if (display == NULL) return "none";
    if (GDK_IS_WAYLAND_DISPLAY(display)) return "wayland";
    if (GDK_IS_X11_DISPLAY(display)) return "x11";
    return G_OBJECT_TYPE_NAME(display);
}

// MARK: Keeping the screen on (idle inhibit)

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

// MARK: Wayland idle inhibit (idle-inhibit-unstable-v1, written out from the protocol's message list)

static const struct wl_interface duo_idle_inhibitor_interface;
static const struct wl_interface *duo_create_inhibitor_types[] = { &duo_idle_inhibitor_interface, &wl_surface_interface };
static const struct wl_message duo_idle_manager_requests[] = {
    { "destroy", "", duo_no_types },
    { "create_inhibitor", "no", duo_create_inhibitor_types },
};
static const struct wl_interface duo_idle_inhibit_manager_interface = {
    "zwp_idle_inhibit_manager_v1", 1, 2, duo_idle_manager_requests, 0, NULL,
};
static const struct wl_message duo_idle_inhibitor_requests[] = { { "destroy", "", duo_no_types } };
static const struct wl_interface duo_idle_inhibitor_interface = {
    "zwp_idle_inhibitor_v1", 1, 1, duo_idle_inhibitor_requests, 0, NULL,
};

static void on_idle_global(void *data, struct wl_registry *registry, uint32_t id, const char *interface, uint32_t version) {
    struct wl_proxy **manager = data;
    if (strcmp(interface, duo_idle_inhibit_manager_interface.name) == 0) *manager = wl_registry_bind(registry, id, &duo_idle_inhibit_manager_interface, 1);
}
static const struct wl_registry_listener idle_registry_listener = { on_idle_global, on_global_remove };

void *duo_wayland_inhibit_idle(GdkDisplay *display, GdkWindow *window) {
    if (display == NULL || window == NULL || !GDK_IS_WAYLAND_DISPLAY(display)) return NULL;
    struct wl_surface *surface = gdk_wayland_window_get_wl_surface(window);
    if (!surface) return NULL;
    struct wl_display *wl = gdk_wayland_display_get_wl_display(display);
    struct wl_proxy *manager = NULL;
    struct wl_event_queue *queue;
    struct wl_registry *registry = private_registry(wl, &queue, &idle_registry_listener, &manager);
    struct wl_proxy *inhibitor = NULL;
    if (manager) {
        inhibitor = wl_proxy_marshal_flags(manager, 1, &duo_idle_inhibitor_interface, 1, 0, NULL, surface);
        wl_proxy_marshal_flags(manager, 0, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
        // The inhibitor outlives this private queue (it has no events): hand it to the default one.
        if (inhibitor) wl_proxy_set_queue(inhibitor, NULL);
        wl_display_flush(wl);
    }
    wl_registry_destroy(registry);
    wl_event_queue_destroy(queue);
    return inhibitor;
}

void duo_wayland_release_idle(GdkDisplay *display, void *inhibitor) {
    if (!inhibitor || display == NULL || !GDK_IS_WAYLAND_DISPLAY(display)) return;
    wl_proxy_marshal_flags((struct wl_proxy *)inhibitor, 0, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    wl_display_flush(gdk_wayland_display_get_wl_display(display));
}
