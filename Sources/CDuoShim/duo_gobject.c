// Casts, macro accessors and property setters: see include/duo_gobject.h for why they are in C.
#include "duo_gobject.h"

GstBin *duo_as_bin(GstElement *element) { return GST_BIN(element); }
GObject *duo_as_object(gpointer instance) { return G_OBJECT(instance); }
GstObject *duo_as_gst_object(gpointer instance) { return GST_OBJECT(instance); }
GstElement *duo_as_element(gpointer instance) { return GST_ELEMENT(instance); }

GstMessageType duo_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
GstObject *duo_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
const gchar *duo_object_name(GstObject *object) { return object ? GST_OBJECT_NAME(object) : NULL; }
GstClockTime duo_second(void) { return GST_SECOND; }

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

guint64 duo_get_uint64(gpointer object, const gchar *name) {
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
    if (spec == NULL || spec->value_type != G_TYPE_UINT64) return 0;
    guint64 value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}
