// A registry on a private Wayland event queue, shared by duo_display.c (xdg-output names) and
// duo_wayland_idle.c (idle inhibit). Internal to CDuoSession: not in include/, so Swift never sees it.
#include "duo_wayland_registry.h"

const struct wl_interface *duo_no_types[2] = { NULL, NULL };

void duo_ignore_global_remove(void *data, struct wl_registry *registry, uint32_t id) {}

/// A registry of its own on a private event queue (GTK's own queue is never dispatched here), with
/// `listener` told every global after one round trip. The caller destroys the registry and the queue.
struct wl_registry *duo_private_registry(struct wl_display *wl, struct wl_event_queue **queue,
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
