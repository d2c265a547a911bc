// The screen-sync test's clock-code probe: see include/duo_clock_code.h.
#include "duo_clock_code.h"
#include <gst/video/video.h>

#define DUO_CLOCK_BITS 24
#define DUO_CLOCK_BLOCK 32

static GstPadProbeReturn clock_code_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)user_data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;
    GstElement *element = gst_pad_get_parent_element(pad);
    if (!element) return GST_PAD_PROBE_OK;
    GstClock *clock = gst_element_get_clock(element);
    GstClockTime base = gst_element_get_base_time(element);
    gst_object_unref(element);
    if (!clock) return GST_PAD_PROBE_OK;
    // The frame's instant on the pipeline clock, carried over to CLOCK_MONOTONIC.
    gint64 clock_now = (gint64)gst_clock_get_time(clock);
    gint64 mono_now = g_get_monotonic_time() * 1000;
    gst_object_unref(clock);
    gint64 frame_clock = (gint64)(GST_BUFFER_PTS(buffer) + base);
    guint32 ms = (guint32)(((frame_clock - clock_now + mono_now) / 1000000) & ((1u << DUO_CLOCK_BITS) - 1));

    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) return GST_PAD_PROBE_OK;
    GstVideoInfo vinfo;
    gboolean ok = gst_video_info_from_caps(&vinfo, caps);
    gst_caps_unref(caps);
    if (!ok || GST_VIDEO_INFO_WIDTH(&vinfo) < DUO_CLOCK_BITS * DUO_CLOCK_BLOCK || GST_VIDEO_INFO_HEIGHT(&vinfo) < DUO_CLOCK_BLOCK)
        return GST_PAD_PROBE_OK;
    buffer = gst_buffer_make_writable(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &vinfo, buffer, GST_MAP_READWRITE)) return GST_PAD_PROBE_OK;
    guint8 *y = GST_VIDEO_FRAME_COMP_DATA(&frame, 0);
    gint stride = GST_VIDEO_FRAME_COMP_STRIDE(&frame, 0);
    gint step = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, 0);
    for (int bit = 0; bit < DUO_CLOCK_BITS; bit++) {
        guint8 level = (ms >> bit) & 1 ? 235 : 16;
        for (int row = 0; row < DUO_CLOCK_BLOCK; row++)
            for (int col = 0; col < DUO_CLOCK_BLOCK; col++) y[row * stride + (bit * DUO_CLOCK_BLOCK + col) * step] = level;
    }
    gst_video_frame_unmap(&frame);
    return GST_PAD_PROBE_OK;
}

void duo_attach_clock_code(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, clock_code_probe, NULL, NULL);
}
