// Internal to CDuoSession (not in include/, so not part of the Swift module): what duo_display.c and
// duo_wayland_idle.c share to ask the compositor for a global without touching GTK's own Wayland queue.
#pragma once
#include <glib.h>
#include <wayland-client.h>

/// The `types` of a protocol message whose arguments are not objects.
G_GNUC_INTERNAL extern const struct wl_interface *duo_no_types[2];

/// A wl_registry_listener's global_remove that ignores the removal (the registry lives for one call).
G_GNUC_INTERNAL void duo_ignore_global_remove(void *data, struct wl_registry *registry, uint32_t id);

/// A registry of its own on a private event queue (GTK's own queue is never dispatched here), with
/// `listener` told every global after one round trip. The caller destroys the registry and the queue.
G_GNUC_INTERNAL struct wl_registry *duo_private_registry(struct wl_display *wl, struct wl_event_queue **queue,
                                                         const struct wl_registry_listener *listener, void *data);
