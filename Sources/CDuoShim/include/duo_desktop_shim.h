// Desktop-mode helpers for the GStreamer side of the GTK windows (gtksink widgets).
#pragma once
#include <gst/gst.h>

/// The object held by an object-valued property (g_object_get), with a new reference, or NULL.
/// For gtksink's "widget": gtksink creates the widget on the GTK main thread itself and waits for it,
/// so the GTK main loop must be running (and not be the caller, unless the caller is that thread).
gpointer duo_get_object_property(gpointer object, const gchar *name);
