// Casts, macro accessors and property setters for the GStreamer adapter (DuoMedia).
//
// Why C: GLib's and GStreamer's casts (GST_BIN, G_OBJECT, …) and accessors (GST_MESSAGE_TYPE,
// GST_OBJECT_NAME, GST_SECOND) are macros, and g_object_set is variadic; Swift imports neither. Each
// function here is one macro or one variadic call with a fixed signature. When Swift can import macros,
// this file can go.
#ifndef DUO_GOBJECT_H
#define DUO_GOBJECT_H

#include <gst/gst.h>

// ---- Casts (GST_BIN, G_OBJECT, GST_ELEMENT, GST_OBJECT) -------------------------------------------------
GstBin *duo_as_bin(GstElement *element);
GObject *duo_as_object(gpointer instance);
GstObject *duo_as_gst_object(gpointer instance);
GstElement *duo_as_element(gpointer instance);

// ---- Macro accessors --------------------------------------------------------------------------------------
GstMessageType duo_message_type(GstMessage *message);
GstObject *duo_message_source(GstMessage *message);
const gchar *duo_object_name(GstObject *object);
GstClockTime duo_second(void);

// ---- Properties -------------------------------------------------------------------------------------------
void duo_set_bool(gpointer object, const gchar *name, gboolean value);
void duo_set_int(gpointer object, const gchar *name, gint value);
void duo_set_uint64(gpointer object, const gchar *name, guint64 value);
void duo_set_string(gpointer object, const gchar *name, const gchar *value);
void duo_set_object(gpointer object, const gchar *name, gpointer value);
void duo_set_caps(gpointer object, const gchar *name, GstCaps *caps);
/// Sets any property from its text form (enum nicks such as videoflip's "horiz"), as gst-launch does.
void duo_set_from_string(gpointer object, const gchar *name, const gchar *value);
gboolean duo_has_property(gpointer object, const gchar *name);
/// A guint64 property's value (videorate's "duplicate" and "drop"); 0 when the object has no such property.
guint64 duo_get_uint64(gpointer object, const gchar *name);

#endif
