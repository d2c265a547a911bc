#include <glib.h>
#include <gio/gio.h>
#include <glib-unix.h>
