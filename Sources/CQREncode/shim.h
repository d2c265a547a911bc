// libqrencode (Debian: libqrencode-dev) for the web remote's pairing QR code on the operator window.
#include <qrencode.h>
