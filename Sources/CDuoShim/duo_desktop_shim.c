#include "duo_desktop_shim.h"

gpointer duo_get_object_property(gpointer object, const gchar *name) {
    gpointer value = NULL;
    g_object_get(object, name, &value, NULL);
    return value;
}
