// libsoup 3 (Debian: libsoup-3.0-dev) for the remote control's page and WebSocket; GIO comes with it.
#include <libsoup/soup.h>
