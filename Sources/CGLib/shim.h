#include <glib.h>
#include <gio/gio.h>
