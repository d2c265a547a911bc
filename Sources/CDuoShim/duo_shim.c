#include <string.h>
#include "duo_shim.h"
#include <gst/video/video.h>

GstBin *duo_as_bin(GstElement *element) { return GST_BIN(element); }
GObject *duo_as_object(gpointer instance) { return G_OBJECT(instance); }
GstObject *duo_as_gst_object(gpointer instance) { return GST_OBJECT(instance); }
GstElement *duo_as_element(gpointer instance) { return GST_ELEMENT(instance); }

GstMessageType duo_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
GstObject *duo_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
const gchar *duo_object_name(GstObject *object) { return object ? GST_OBJECT_NAME(object) : NULL; }
GstClockTime duo_second(void) { return GST_SECOND; }

GstObject *duo_forwarded_eos_source(GstMessage *message) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return NULL;
    const GstStructure *s = gst_message_get_structure(message);
    if (!s || !gst_structure_has_name(s, "GstBinForwarded")) return NULL;
    const GValue *v = gst_structure_get_value(s, "message");
    if (!v || !G_VALUE_HOLDS(v, GST_TYPE_MESSAGE)) return NULL;
    GstMessage *inner = g_value_get_boxed(v);
    if (!inner) return NULL;
    // Nested bins with message-forward wrap the EOS once per level.
    if (GST_MESSAGE_TYPE(inner) == GST_MESSAGE_ELEMENT) return duo_forwarded_eos_source(inner);
    if (GST_MESSAGE_TYPE(inner) != GST_MESSAGE_EOS) return NULL;
    return GST_MESSAGE_SRC(inner);
}

gboolean duo_level_values(GstMessage *message, gdouble *rms_db, gdouble *peak_db) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return FALSE;
    const GstStructure *s = gst_message_get_structure(message);
    if (!s || !gst_structure_has_name(s, "level")) return FALSE;
    const GValue *rms = gst_structure_get_value(s, "rms");
    const GValue *peak = gst_structure_get_value(s, "peak");
    if (!rms || !peak) return FALSE;
    // "rms" and "peak" are GValueArrays of doubles, one per channel (GValueArray is deprecated but is
    // what level posts in 1.22).
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GValueArray *ra = g_value_get_boxed(rms);
    GValueArray *pa = g_value_get_boxed(peak);
    if (!ra || !pa || ra->n_values == 0 || pa->n_values == 0) return FALSE;
    *rms_db = g_value_get_double(g_value_array_get_nth(ra, 0));
    *peak_db = g_value_get_double(g_value_array_get_nth(pa, 0));
    G_GNUC_END_IGNORE_DEPRECATIONS
    return TRUE;
}

static GstPadProbeReturn count_frame(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    DuoFrameCounter *c = user_data;
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (event && GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
            GstCaps *caps = NULL;
            gst_event_parse_caps(event, &caps);
            if (c->last_caps && caps && !gst_caps_is_equal(c->last_caps, caps))
                __atomic_fetch_add(&c->caps_changes, 1, __ATOMIC_RELAXED);
            if (caps) gst_caps_replace(&c->last_caps, caps);
        }
        return GST_PAD_PROBE_OK;
    }
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer) return GST_PAD_PROBE_OK;
    gint64 n = __atomic_fetch_add(&c->frames, 1, __ATOMIC_RELAXED);
    if (n == 0) {
        __atomic_store_n(&c->first_arrival_us, g_get_monotonic_time(), __ATOMIC_RELAXED);
        __atomic_store_n(&c->keyframe_first, GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT) ? 0 : 1, __ATOMIC_RELAXED);
    }
    if (g_atomic_int_get(&c->sample_luma)) {
        GstMapInfo map;
        if (gst_buffer_map(buffer, &map, GST_MAP_READ)) {
            if (map.size > 0) {
                gint64 y = map.data[0];
                __atomic_store_n(&c->luma_sample, y, __ATOMIC_RELAXED);
                if (y > __atomic_load_n(&c->luma_max, __ATOMIC_RELAXED)) __atomic_store_n(&c->luma_max, y, __ATOMIC_RELAXED);
            }
            gst_buffer_unmap(buffer, &map);
        }
    }
    if (GST_BUFFER_PTS_IS_VALID(buffer)) {
        gint64 pts = (gint64)GST_BUFFER_PTS(buffer);
        gint64 last = __atomic_load_n(&c->last_pts, __ATOMIC_RELAXED);
        if (last < 0) {
            __atomic_store_n(&c->first_pts, pts, __ATOMIC_RELAXED);
        } else {
            gint64 gap = pts - last;
            if (gap < 0) __atomic_fetch_add(&c->backwards, 1, __ATOMIC_RELAXED);
            else {
                if (gap > __atomic_load_n(&c->max_gap, __ATOMIC_RELAXED))
                    __atomic_store_n(&c->max_gap, gap, __ATOMIC_RELAXED);
                gint64 smallest = __atomic_load_n(&c->min_gap, __ATOMIC_RELAXED);
                if (smallest < 0 || gap < smallest) __atomic_store_n(&c->min_gap, gap, __ATOMIC_RELAXED);
            }
        }
        __atomic_store_n(&c->last_pts, pts, __ATOMIC_RELAXED);
    }
    return GST_PAD_PROBE_OK;
}

DuoFrameCounter *duo_frame_counter_new(void) {
    DuoFrameCounter *c = g_new0(DuoFrameCounter, 1);
    c->first_pts = -1;
    c->first_arrival_us = -1;
    c->last_pts = -1;
    c->min_gap = -1;
    c->keyframe_first = -1;
    c->luma_sample = -1;
    c->luma_max = -1;
    c->refcount = 1;
    return c;
}

void duo_frame_counter_unref(DuoFrameCounter *counter) {
    if (g_atomic_int_dec_and_test(&counter->refcount)) {
        gst_caps_replace(&counter->last_caps, NULL);
        g_free(counter);
    }
}

static void frame_counter_probe_destroyed(gpointer data) { duo_frame_counter_unref(data); }

gulong duo_attach_frame_counter(GstPad *pad, DuoFrameCounter *counter) {
    g_atomic_int_inc(&counter->refcount);
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, count_frame, counter,
                             frame_counter_probe_destroyed);
}

void duo_frame_counter_snapshot(DuoFrameCounter *c, DuoFrameCounter *out) {
    out->frames = __atomic_load_n(&c->frames, __ATOMIC_RELAXED);
    out->first_pts = __atomic_load_n(&c->first_pts, __ATOMIC_RELAXED);
    out->first_arrival_us = __atomic_load_n(&c->first_arrival_us, __ATOMIC_RELAXED);
    out->last_pts = __atomic_load_n(&c->last_pts, __ATOMIC_RELAXED);
    out->max_gap = __atomic_load_n(&c->max_gap, __ATOMIC_RELAXED);
    out->min_gap = __atomic_load_n(&c->min_gap, __ATOMIC_RELAXED);
    out->backwards = __atomic_load_n(&c->backwards, __ATOMIC_RELAXED);
    out->keyframe_first = __atomic_load_n(&c->keyframe_first, __ATOMIC_RELAXED);
    out->luma_sample = __atomic_load_n(&c->luma_sample, __ATOMIC_RELAXED);
    out->luma_max = __atomic_load_n(&c->luma_max, __ATOMIC_RELAXED);
    out->caps_changes = __atomic_load_n(&c->caps_changes, __ATOMIC_RELAXED);
    out->last_caps = NULL;
}

typedef struct {
    GstElement *tee;
    GstPad *branch_sink;
    gint done;
} DetachContext;

static void detach_context_free(gpointer data) {
    DetachContext *ctx = data;
    gst_object_unref(ctx->tee);
    gst_object_unref(ctx->branch_sink);
    g_free(ctx);
}

static GstPadProbeReturn detach_on_idle(GstPad *tee_pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)info;
    DetachContext *ctx = user_data;
    // An IDLE probe can fire more than once if it is re-armed; do the work exactly once.
    if (!g_atomic_int_compare_and_exchange(&ctx->done, 0, 1)) return GST_PAD_PROBE_REMOVE;
    gst_pad_unlink(tee_pad, ctx->branch_sink);
    gst_pad_send_event(ctx->branch_sink, gst_event_new_eos());
    gst_element_release_request_pad(ctx->tee, tee_pad);
    return GST_PAD_PROBE_REMOVE;
}

void duo_detach_branch_when_idle(GstElement *tee, GstPad *tee_pad, GstPad *branch_sink) {
    DetachContext *ctx = g_new0(DetachContext, 1);
    ctx->tee = gst_object_ref(tee);
    ctx->branch_sink = gst_object_ref(branch_sink);
    gst_pad_add_probe(tee_pad, GST_PAD_PROBE_TYPE_IDLE, detach_on_idle, ctx, detach_context_free);
}

/// The running time of `buffer` on `pad` (its PTS through the pad's sticky TIME segment; the PTS itself
/// when there is no segment), or GST_CLOCK_TIME_NONE.
static GstClockTime buffer_running_time(GstPad *pad, GstBuffer *buffer) {
    if (!GST_BUFFER_PTS_IS_VALID(buffer)) return GST_CLOCK_TIME_NONE;
    GstClockTime rt = GST_BUFFER_PTS(buffer);
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    if (event) {
        const GstSegment *segment = NULL;
        gst_event_parse_segment(event, &segment);
        if (segment && segment->format == GST_FORMAT_TIME)
            rt = gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
        gst_event_unref(event);
    }
    return rt;
}

static GstPadProbeReturn gate_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    DuoStartGate *gate = user_data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer) return GST_PAD_PROBE_OK;
    GstClockTime rt = buffer_running_time(pad, buffer);
    if (!GST_CLOCK_TIME_IS_VALID(rt)) return GST_PAD_PROBE_OK;
    if (rt < gate->threshold) return GST_PAD_PROBE_DROP;
    __atomic_store_n(&gate->first_running_time, (gint64)rt, __ATOMIC_RELEASE);
    return GST_PAD_PROBE_REMOVE;
}

static void gate_probe_destroyed(gpointer data) { duo_start_gate_unref(data); }

DuoStartGate *duo_start_gate_attach(GstPad *pad, GstClockTime running_time) {
    DuoStartGate *gate = g_new0(DuoStartGate, 1);
    gate->threshold = running_time;
    gate->first_running_time = -1;
    gate->refcount = 2;  // the caller's and the probe's
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, gate_probe, gate, gate_probe_destroyed);
    return gate;
}

gint64 duo_start_gate_first_running_time(DuoStartGate *gate) {
    return __atomic_load_n(&gate->first_running_time, __ATOMIC_ACQUIRE);
}

void duo_start_gate_unref(DuoStartGate *gate) {
    if (g_atomic_int_dec_and_test(&gate->refcount)) g_free(gate);
}

static GstFlowReturn isolated_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
    GstFlowReturn ret = gst_proxy_pad_chain_default(pad, parent, buffer);
    return ret == GST_FLOW_OK ? ret : GST_FLOW_OK;
}

static GstFlowReturn isolated_chain_list(GstPad *pad, GstObject *parent, GstBufferList *list) {
    GstFlowReturn ret = gst_proxy_pad_chain_list_default(pad, parent, list);
    return ret == GST_FLOW_OK ? ret : GST_FLOW_OK;
}

void duo_isolate_branch_errors(GstPad *ghost_sink) {
    gst_pad_set_chain_function_full(ghost_sink, isolated_chain, NULL, NULL);
    gst_pad_set_chain_list_function_full(ghost_sink, isolated_chain_list, NULL, NULL);
}

void duo_frame_counter_sample_luma(DuoFrameCounter *counter, gboolean enabled) {
    g_atomic_int_set(&counter->sample_luma, enabled ? 1 : 0);
}

typedef struct {
    DuoI420DrawFunc draw;
    gpointer context;
    GDestroyNotify destroy;
    GstVideoInfo info;  // from the last CAPS event (streaming thread only), so frames need no caps look-up
    gboolean i420;      // TRUE once caps arrived and they are I420
} DrawerContext;

static void drawer_context_free(gpointer data) {
    DrawerContext *d = data;
    if (d->destroy) d->destroy(d->context);
    g_free(d);
}

static GstPadProbeReturn draw_i420(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    DrawerContext *d = user_data;
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (event && GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
            GstCaps *caps = NULL;
            gst_event_parse_caps(event, &caps);
            d->i420 = caps && gst_video_info_from_caps(&d->info, caps)
                && GST_VIDEO_INFO_FORMAT(&d->info) == GST_VIDEO_FORMAT_I420;
        }
        return GST_PAD_PROBE_OK;
    }
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer || !d->i420) return GST_PAD_PROBE_OK;

    buffer = gst_buffer_make_writable(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;

    GstClockTime rt = buffer_running_time(pad, buffer);
    gint64 running_time = GST_CLOCK_TIME_IS_VALID(rt) ? (gint64)rt : -1;
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &d->info, buffer, GST_MAP_READWRITE)) return GST_PAD_PROBE_OK;
    d->draw(d->context,
            GST_VIDEO_FRAME_PLANE_DATA(&frame, 0), GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0),
            GST_VIDEO_FRAME_PLANE_DATA(&frame, 1), GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1),
            GST_VIDEO_FRAME_PLANE_DATA(&frame, 2), GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 2),
            GST_VIDEO_FRAME_WIDTH(&frame), GST_VIDEO_FRAME_HEIGHT(&frame), running_time);
    gst_video_frame_unmap(&frame);
    return GST_PAD_PROBE_OK;
}

gulong duo_attach_i420_drawer(GstPad *pad, DuoI420DrawFunc draw, gpointer context, GDestroyNotify destroy) {
    DrawerContext *d = g_new0(DrawerContext, 1);
    d->draw = draw;
    d->context = context;
    d->destroy = destroy;
    // Caps that are already set (the probe added while playing) are read once here; later CAPS events
    // update them in the probe.
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (caps) {
        d->i420 = gst_video_info_from_caps(&d->info, caps) && GST_VIDEO_INFO_FORMAT(&d->info) == GST_VIDEO_FORMAT_I420;
        gst_caps_unref(caps);
    }
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, draw_i420, d,
                             drawer_context_free);
}

void duo_set_bool(gpointer object, const gchar *name, gboolean value) { g_object_set(object, name, value, NULL); }
void duo_set_int(gpointer object, const gchar *name, gint value) { g_object_set(object, name, value, NULL); }
void duo_set_uint64(gpointer object, const gchar *name, guint64 value) { g_object_set(object, name, value, NULL); }
void duo_set_string(gpointer object, const gchar *name, const gchar *value) { g_object_set(object, name, value, NULL); }
void duo_set_object(gpointer object, const gchar *name, gpointer value) { g_object_set(object, name, value, NULL); }
void duo_set_caps(gpointer object, const gchar *name, GstCaps *caps) { g_object_set(object, name, caps, NULL); }
void duo_set_from_string(gpointer object, const gchar *name, const gchar *value) { gst_util_set_object_arg(G_OBJECT(object), name, value); }

gboolean duo_has_property(gpointer object, const gchar *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) != NULL;
}

typedef struct {
    GstPadChainFunction chain;
    GstPadChainListFunction chain_list;
} IsolatedPad;

static GQuark isolated_pad_quark(void) { return g_quark_from_static_string("duo-isolated-pad"); }

static GstFlowReturn isolate_result(GstFlowReturn ret) {
    return (ret == GST_FLOW_OK || ret == GST_FLOW_FLUSHING) ? ret : GST_FLOW_OK;
}

static GstFlowReturn isolated_pad_chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
    IsolatedPad *p = g_object_get_qdata(G_OBJECT(pad), isolated_pad_quark());
    return isolate_result(p->chain(pad, parent, buffer));
}

static GstFlowReturn isolated_pad_chain_list(GstPad *pad, GstObject *parent, GstBufferList *list) {
    IsolatedPad *p = g_object_get_qdata(G_OBJECT(pad), isolated_pad_quark());
    if (p->chain_list) return isolate_result(p->chain_list(pad, parent, list));
    // No list function of its own: each buffer through the chain function, as GStreamer would.
    GstFlowReturn ret = GST_FLOW_OK;
    guint n = gst_buffer_list_length(list);
    for (guint i = 0; i < n && ret == GST_FLOW_OK; i++) {
        ret = isolate_result(p->chain(pad, parent, gst_buffer_ref(gst_buffer_list_get(list, i))));
    }
    gst_buffer_list_unref(list);
    return ret;
}

void duo_isolate_pad_errors(GstPad *sink) {
    if (!sink || !GST_PAD_CHAINFUNC(sink)) return;
    if (g_object_get_qdata(G_OBJECT(sink), isolated_pad_quark())) return;
    IsolatedPad *p = g_new0(IsolatedPad, 1);
    p->chain = GST_PAD_CHAINFUNC(sink);
    p->chain_list = GST_PAD_CHAINLISTFUNC(sink);
    g_object_set_qdata_full(G_OBJECT(sink), isolated_pad_quark(), p, g_free);
    gst_pad_set_chain_function_full(sink, isolated_pad_chain, NULL, NULL);
    gst_pad_set_chain_list_function_full(sink, isolated_pad_chain_list, NULL, NULL);
}

static int duo_add_mode(const GstStructure *st, const GValue *rate, DuoCapsMode *out, int count, int max, int w, int h) {
    if (count >= max || rate == NULL || !GST_VALUE_HOLDS_FRACTION(rate)) return count;
    DuoCapsMode *m = &out[count];
    memset(m, 0, sizeof *m);
    g_strlcpy(m->media, gst_structure_get_name(st), sizeof m->media);
    const gchar *format = gst_structure_get_string(st, "format");
    if (format) g_strlcpy(m->format, format, sizeof m->format);
    m->width = w;
    m->height = h;
    m->rate_num = gst_value_get_fraction_numerator(rate);
    m->rate_den = gst_value_get_fraction_denominator(rate);
    return m->rate_num > 0 && m->rate_den > 0 ? count + 1 : count;
}

int duo_caps_modes(const char *text, DuoCapsMode *out, int max) {
    GstCaps *caps = gst_caps_from_string(text);
    if (caps == NULL) return -1;
    int count = 0;
    for (guint i = 0; i < gst_caps_get_size(caps); i++) {
        const GstStructure *st = gst_caps_get_structure(caps, i);
        int w = 0, h = 0;
        if (!gst_structure_get_int(st, "width", &w) || !gst_structure_get_int(st, "height", &h)) continue;
        const GValue *rate = gst_structure_get_value(st, "framerate");
        if (rate == NULL) continue;
        if (GST_VALUE_HOLDS_FRACTION(rate)) {
            count = duo_add_mode(st, rate, out, count, max, w, h);
        } else if (GST_VALUE_HOLDS_LIST(rate)) {
            for (guint k = 0; k < gst_value_list_get_size(rate); k++)
                count = duo_add_mode(st, gst_value_list_get_value(rate, k), out, count, max, w, h);
        } else if (GST_VALUE_HOLDS_FRACTION_RANGE(rate)) {
            count = duo_add_mode(st, gst_value_get_fraction_range_min(rate), out, count, max, w, h);
            count = duo_add_mode(st, gst_value_get_fraction_range_max(rate), out, count, max, w, h);
        }
    }
    gst_caps_unref(caps);
    return count;
}

typedef struct {
    GstClockTime interval;
    GstClockTime last;
} DuoCadence;

static GstPadProbeReturn cadence_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    DuoCadence *c = data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    if (!GST_CLOCK_TIME_IS_VALID(pts)) return GST_PAD_PROBE_OK;
    if (GST_CLOCK_TIME_IS_VALID(c->last)) {
        GstClockTime next = c->last + c->interval;
        if (pts + c->interval / 2 < next) return GST_PAD_PROBE_DROP;   // the slot just filled, again
        if (pts != next && pts < next + c->interval / 2) {              // near the next slot: on it
            buffer = gst_buffer_make_writable(buffer);
            GST_BUFFER_PTS(buffer) = next;
            GST_BUFFER_DURATION(buffer) = c->interval;
            GST_PAD_PROBE_INFO_DATA(info) = buffer;
            pts = next;
        }
    }
    c->last = pts;
    return GST_PAD_PROBE_OK;
}

void duo_attach_cadence(GstPad *pad, GstClockTime interval) {
    DuoCadence *c = g_new0(DuoCadence, 1);
    c->interval = interval;
    c->last = GST_CLOCK_TIME_NONE;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, cadence_probe, c, g_free);
}

void duo_send_eos(GstPad *pad) { gst_pad_send_event(pad, gst_event_new_eos()); }

static GstPadProbeReturn drop_eos_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    return GST_EVENT_TYPE(event) == GST_EVENT_EOS ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
}

void duo_drop_eos(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, drop_eos_probe, NULL, NULL);
}

gboolean duo_bus_drain_device_changes(GstBus *bus) {
    gboolean any = FALSE;
    GstMessage *message;
    while ((message = gst_bus_pop_filtered(bus, GST_MESSAGE_DEVICE_ADDED | GST_MESSAGE_DEVICE_REMOVED))) {
        any = TRUE;
        gst_message_unref(message);
    }
    return any;
}

const gchar *duo_speech_hypothesis(GstMessage *message, gboolean *is_final, guint64 *timestamp) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return NULL;
    const GstStructure *s = gst_message_get_structure(message);
    if (!s || !gst_structure_has_name(s, "pocketsphinx")) return NULL;
    const gchar *text = gst_structure_get_string(s, "hypothesis");
    if (!text) return NULL;
    gboolean final = FALSE;
    guint64 ts = GST_CLOCK_TIME_NONE;
    gst_structure_get_boolean(s, "final", &final);
    gst_structure_get_uint64(s, "timestamp", &ts);
    *is_final = final;
    *timestamp = ts;
    return text;
}

#include <dlfcn.h>
#include <stdio.h>

gboolean duo_quiet_speech_log(void) {
    // sphinxbase (loaded with the pocketsphinx plugin) logs its whole configuration to stderr at every
    // initialisation; its err_set_logfp sends that to a stream of our choosing.
    // The plugin is loaded with local symbols: find the library it brought in, without loading it.
    void *library = dlopen("libsphinxbase.so.3", RTLD_NOW | RTLD_NOLOAD);
    if (!library) return FALSE;
    FILE *(*set_logfp)(FILE *) = (FILE *(*)(FILE *))dlsym(library, "err_set_logfp");
    dlclose(library);
    if (!set_logfp) return FALSE;
    static FILE *null_stream = NULL;
    if (!null_stream) null_stream = fopen("/dev/null", "w");
    if (!null_stream) return FALSE;
    set_logfp(null_stream);
    return TRUE;
}

// MARK: Frame codes (benchmarks only)

typedef struct {
    FILE *log;
    gboolean write;
    guint32 counter;
} FrameCode;

static void frame_code_free(gpointer data) {
    FrameCode *code = data;
    if (code->log) fclose(code->log);
    g_free(code);
}

static GstPadProbeReturn frame_code_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    FrameCode *code = user_data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer) return GST_PAD_PROBE_OK;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) return GST_PAD_PROBE_OK;
    GstVideoInfo vinfo;
    gboolean ok = gst_video_info_from_caps(&vinfo, caps);
    gst_caps_unref(caps);
    if (!ok || GST_VIDEO_INFO_WIDTH(&vinfo) < 16 * 16 || GST_VIDEO_INFO_HEIGHT(&vinfo) < 16) return GST_PAD_PROBE_OK;
    if (code->write) {
        buffer = gst_buffer_make_writable(buffer);
        GST_PAD_PROBE_INFO_DATA(info) = buffer;
    }
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &vinfo, buffer, code->write ? GST_MAP_READWRITE : GST_MAP_READ)) return GST_PAD_PROBE_OK;
    guint8 *y = GST_VIDEO_FRAME_COMP_DATA(&frame, 0);
    gint stride = GST_VIDEO_FRAME_COMP_STRIDE(&frame, 0);
    gint step = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, 0);
    guint32 value = 0;
    if (code->write) {
        value = ++code->counter;
        for (int bit = 0; bit < 16; bit++) {
            guint8 level = (value >> bit) & 1 ? 235 : 16;
            for (int row = 0; row < 16; row++)
                for (int col = 0; col < 16; col++) y[row * stride + (bit * 16 + col) * step] = level;
        }
    } else {
        for (int bit = 0; bit < 16; bit++)
            if (y[8 * stride + (bit * 16 + 8) * step] > 128) value |= 1u << bit;
    }
    gst_video_frame_unmap(&frame);
    if (code->log && value) fprintf(code->log, "%u %" G_GINT64_FORMAT "\n", value, g_get_monotonic_time());
    return GST_PAD_PROBE_OK;
}

void duo_attach_frame_code(GstPad *pad, const char *log_path, gboolean write) {
    FrameCode *code = g_new0(FrameCode, 1);
    code->write = write;
    code->log = fopen(log_path, "a");
    if (code->log) setvbuf(code->log, NULL, _IOLBF, 0);
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, frame_code_probe, code, frame_code_free);
}

// MARK: duo-capture's own debug category

GST_DEBUG_CATEGORY_STATIC(duo_capture_debug);

void duo_debug_init(void) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        GST_DEBUG_CATEGORY_INIT(duo_capture_debug, "duo-capture", 0, "duo-capture's own messages (log lines, decisions, events)");
        g_once_init_leave(&once, 1);
    }
}

void duo_debug_log(int level, const char *message) {
    duo_debug_init();
    GST_CAT_LEVEL_LOG(duo_capture_debug, (GstDebugLevel)level, NULL, "%s", message);
}

void duo_debug_verbose(void) {
    duo_debug_init();
    gst_debug_set_threshold_for_name("duo-capture", GST_LEVEL_DEBUG);
}

gboolean duo_debug_enabled(void) {
    duo_debug_init();
    return gst_debug_category_get_threshold(duo_capture_debug) >= GST_LEVEL_DEBUG;
}

typedef struct {
    void (*callback)(gpointer);
    gpointer data;
    GDestroyNotify destroy;
} DeviceWake;

static GstBusSyncReply device_wake_handler(GstBus *bus, GstMessage *message, gpointer user_data) {
    (void)bus;
    DeviceWake *wake = user_data;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_DEVICE_ADDED || GST_MESSAGE_TYPE(message) == GST_MESSAGE_DEVICE_REMOVED)
        wake->callback(wake->data);
    return GST_BUS_PASS;
}

static void device_wake_free(gpointer data) {
    DeviceWake *wake = data;
    if (wake->destroy) wake->destroy(wake->data);
    g_free(wake);
}

void duo_bus_wake_on_device_changes(GstBus *bus, void (*callback)(gpointer), gpointer data, GDestroyNotify destroy) {
    DeviceWake *wake = g_new0(DeviceWake, 1);
    wake->callback = callback;
    wake->data = data;
    wake->destroy = destroy;
    gst_bus_set_sync_handler(bus, device_wake_handler, wake, device_wake_free);
}
