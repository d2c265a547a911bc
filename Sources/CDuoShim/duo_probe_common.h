// Helpers shared by the streaming-thread probes of duo_probes.c and duo_digest.c; private to CDuoShim
// (static inline, so the per-buffer path has no extra call). In C for the reasons duo_probes.h gives.
#ifndef DUO_PROBE_COMMON_H
#define DUO_PROBE_COMMON_H

#include <gst/gst.h>

/// For a probe on buffers and downstream events: TRUE when `info` is an event (the probe only looks at
/// its caps and lets it pass), with `*caps` the caps of a CAPS event (borrowed; NULL for any other event).
static inline gboolean duo_probe_event_caps(GstPadProbeInfo *info, GstCaps **caps) {
    *caps = NULL;
    if (!(GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM)) return FALSE;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (event && GST_EVENT_TYPE(event) == GST_EVENT_CAPS) gst_event_parse_caps(event, caps);
    return TRUE;
}

/// Adds `probe` on `pad`'s buffers and downstream events holding its own reference on `data` (taken on
/// `refcount`), given back through `unref` once the probe is removed and no longer running, so removing
/// the probe never frees memory a streaming thread uses. Returns the probe's id.
static inline gulong duo_add_counted_probe(GstPad *pad, GstPadProbeCallback probe, gpointer data, gint *refcount,
                                           GDestroyNotify unref) {
    g_atomic_int_inc(refcount);
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, probe, data, unref);
}

#endif
