#include <glib.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <locale.h>
#include <libintl.h>
#include <gio/gunixfdlist.h>
