// The benchmark-only frame-code probe: see include/duo_frame_code.h for why it exists and is in C.
#include "duo_frame_code.h"
#include <stdio.h>
#include <gst/video/video.h>

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
