// Where log lines go: duo-capture's own GStreamer debug category, and the speech recogniser's log
// silenced.
//
// Why C: a debug category is declared and logged to through macros (GST_DEBUG_CATEGORY_STATIC,
// GST_DEBUG_CATEGORY_INIT, GST_CAT_LEVEL_LOG, which is variadic); Swift imports none of them. The
// recogniser's log is redirected through a function of a library the pocketsphinx plugin loaded with
// local symbols, found with dlopen(RTLD_NOLOAD)/dlsym and called with a FILE *.
#ifndef DUO_DEBUG_H
#define DUO_DEBUG_H

#include <gst/gst.h>

/// duo-capture's own GStreamer debug category, "duo-capture": `GST_DEBUG=duo-capture:6` shows its lines
/// interleaved with the pipeline's. `level` is a GstDebugLevel (4 INFO, 5 DEBUG).
void duo_debug_init(void);
void duo_debug_log(int level, const char *message);
/// `--verbose`: the category at DEBUG, whatever GST_DEBUG says.
void duo_debug_verbose(void);
/// Whether the category shows DEBUG lines.
gboolean duo_debug_enabled(void);

/// Sends the speech recogniser's own log (sphinxbase's: its whole configuration at every start) to
/// /dev/null instead of stderr; call once the pocketsphinx plugin is loaded. False when it is not.
gboolean duo_quiet_speech_log(void);

/// Keeps OpenCV's own log (the facedetect element prints an error for every optional cascade it cannot
/// open, before its properties are set) off stderr, unless the user set OPENCV_LOG_LEVEL. Call before
/// the first facedetect element is made.
void duo_quiet_opencv_log(void);

#endif
