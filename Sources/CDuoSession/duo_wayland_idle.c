// Keeping the screen on, Wayland: idle-inhibit-unstable-v1. See include/duo_wayland_idle.h for why this
// is in C.
#include "duo_wayland_idle.h"
#include "duo_wayland_registry.h"
#include <string.h>
#include <gdk/gdkwayland.h>

// The two idle-inhibit-unstable-v1 interfaces, written out from the protocol's message list.

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
static const struct wl_registry_listener idle_registry_listener = { on_idle_global, duo_ignore_global_remove };

void *duo_wayland_inhibit_idle(GdkDisplay *display, GdkWindow *window) {
    if (display == NULL || window == NULL || !GDK_IS_WAYLAND_DISPLAY(display)) return NULL;
    struct wl_surface *surface = gdk_wayland_window_get_wl_surface(window);
    if (!surface) return NULL;
    struct wl_display *wl = gdk_wayland_display_get_wl_display(display);
    struct wl_proxy *manager = NULL;
    struct wl_event_queue *queue;
    struct wl_registry *registry = duo_private_registry(wl, &queue, &idle_registry_listener, &manager);
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
