// Caps parsing: see include/duo_caps.h for why it is in C.
#include <string.h>
#include "duo_caps.h"

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
