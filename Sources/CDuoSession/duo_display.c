// What the display is: GDK's backend, and the names Wayland gives its outputs (xdg-output). See
// include/duo_display.h for why this is in C.
#include "duo_display.h"
#include "duo_wayland_registry.h"
#include <string.h>
#include <gdk/gdkwayland.h>
#include <gdk/gdkx.h>

// The two xdg-output-unstable-v1 interfaces, written out from the protocol's message list (requests and
// events in protocol order; "2s" marks an event added in version 2).
static const struct wl_interface duo_xdg_output_interface;
static const struct wl_interface *duo_get_xdg_output_types[] = { &duo_xdg_output_interface, &wl_output_interface };
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
static const struct wl_registry_listener registry_listener = { on_global, duo_ignore_global_remove };

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

int duo_wayland_output_names(GdkDisplay *display, DuoOutputName *out, int max) {
    if (display == NULL || !GDK_IS_WAYLAND_DISPLAY(display)) return 0;
    struct wl_display *wl = gdk_wayland_display_get_wl_display(display);
    State state;
    memset(&state, 0, sizeof state);
    struct wl_event_queue *queue;
    struct wl_registry *registry = duo_private_registry(wl, &queue, &registry_listener, &state);
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
