// Caps parsing: the video modes a caps text lists (CapsFile: a camera described by the caps
// gst-device-monitor-1.0 printed, for `duo-capture formats`).
//
// Why C: the value type tests (GST_VALUE_HOLDS_FRACTION, GST_VALUE_HOLDS_LIST,
// GST_VALUE_HOLDS_FRACTION_RANGE) are macros Swift cannot import, and walking GValues is shorter here;
// Swift gets a flat array of plain structs back.
#ifndef DUO_CAPS_H
#define DUO_CAPS_H

#include <gst/gst.h>

/// One video mode of a caps description: media type (video/x-raw, image/jpeg, video/x-h264, …), the raw
/// pixel format when given, size and one frame rate.
typedef struct {
    char media[32];
    char format[16];
    int width, height;
    int rate_num, rate_den;
} DuoCapsMode;

/// The modes a caps string describes (gst_caps_from_string's syntax: structures separated by ';', rates
/// as one fraction, a list `{ 30/1, 15/1 }` or a range, whose ends are taken). A structure without a
/// fixed width, height or rate is skipped. Returns how many modes were written, or -1 when the text
/// is not caps at all.
int duo_caps_modes(const char *text, DuoCapsMode *out, int max);

#endif
