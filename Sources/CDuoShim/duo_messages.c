// Reading bus messages: see include/duo_messages.h for why this is in C.
#include "duo_messages.h"

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

gint duo_face_boxes(GstMessage *message, guint *boxes, gint capacity) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return -1;
    const GstStructure *s = gst_message_get_structure(message);
    if (!s || !gst_structure_has_name(s, "facedetect")) return -1;
    const GValue *faces = gst_structure_get_value(s, "faces");
    if (!faces || !GST_VALUE_HOLDS_LIST(faces)) return 0;
    guint n = gst_value_list_get_size(faces);
    gint stored = 0;
    for (guint i = 0; i < n && stored < capacity; i++) {
        const GValue *v = gst_value_list_get_value(faces, i);
        if (!v || !GST_VALUE_HOLDS_STRUCTURE(v)) continue;
        const GstStructure *face = gst_value_get_structure(v);
        guint x = 0, y = 0, w = 0, h = 0;
        if (!gst_structure_get_uint(face, "x", &x) || !gst_structure_get_uint(face, "y", &y) ||
            !gst_structure_get_uint(face, "width", &w) || !gst_structure_get_uint(face, "height", &h)) continue;
        boxes[stored * 4] = x; boxes[stored * 4 + 1] = y; boxes[stored * 4 + 2] = w; boxes[stored * 4 + 3] = h;
        stored++;
    }
    return stored;
}
