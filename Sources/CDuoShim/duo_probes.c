// Pad probes and chain functions that run on streaming threads: see include/duo_probes.h for why they
// are in C.
#include "duo_probes.h"
#include "duo_probe_common.h"
#include <gst/video/video.h>

static GstPadProbeReturn count_frame(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    DuoFrameCounter *c = user_data;
    GstCaps *caps;
    if (duo_probe_event_caps(info, &caps)) {
        if (c->last_caps && caps && !gst_caps_is_equal(c->last_caps, caps))
            __atomic_fetch_add(&c->caps_changes, 1, __ATOMIC_RELAXED);
        if (caps) gst_caps_replace(&c->last_caps, caps);
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

gulong duo_attach_frame_counter(GstPad *pad, DuoFrameCounter *counter) {
    return duo_add_counted_probe(pad, count_frame, counter, &counter->refcount, (GDestroyNotify)duo_frame_counter_unref);
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
    GstCaps *caps;
    if (duo_probe_event_caps(info, &caps)) {
        if (caps) d->i420 = gst_video_info_from_caps(&d->info, caps) && GST_VIDEO_INFO_FORMAT(&d->info) == GST_VIDEO_FORMAT_I420;
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

/// The segment the buffers on the pad are in now, and whether one was passed on (the single one from 0).
typedef struct {
    GstSegment segment;
    gboolean have;
    gboolean sent;
} DuoFlatten;

static GstPadProbeReturn flatten_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    DuoFlatten *f = data;
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) { f->have = FALSE; f->sent = FALSE; return GST_PAD_PROBE_OK; }
        if (GST_EVENT_TYPE(event) != GST_EVENT_SEGMENT) return GST_PAD_PROBE_OK;
        const GstSegment *segment = NULL;
        gst_event_parse_segment(event, &segment);
        if (segment->format != GST_FORMAT_TIME) return GST_PAD_PROBE_OK;
        gst_segment_copy_into(segment, &f->segment);
        f->have = TRUE;
        if (f->sent) return GST_PAD_PROBE_DROP;
        f->sent = TRUE;
        GstSegment whole;
        gst_segment_init(&whole, GST_FORMAT_TIME);
        GstEvent *replaced = gst_event_new_segment(&whole);
        gst_event_set_seqnum(replaced, gst_event_get_seqnum(event));
        gst_event_unref(event);
        GST_PAD_PROBE_INFO_DATA(info) = replaced;
        return GST_PAD_PROBE_OK;
    }
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer || !f->have || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstClockTime running = gst_segment_to_running_time(&f->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
    // Before its segment's start (a frame a decoder kept from before a cut): not part of the take.
    if (!GST_CLOCK_TIME_IS_VALID(running)) return GST_PAD_PROBE_DROP;
    buffer = gst_buffer_make_writable(buffer);
    GST_BUFFER_PTS(buffer) = running;
    GST_BUFFER_DTS(buffer) = GST_CLOCK_TIME_NONE;
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    return GST_PAD_PROBE_OK;
}

void duo_flatten_segments(GstPad *pad) {
    DuoFlatten *f = g_new0(DuoFlatten, 1);
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
                      flatten_probe, f, g_free);
}
