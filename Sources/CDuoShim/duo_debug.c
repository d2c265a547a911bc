// Where log lines go: see include/duo_debug.h for why this is in C.
#include "duo_debug.h"
#include <dlfcn.h>
#include <stdio.h>

// MARK: duo-capture's own debug category

GST_DEBUG_CATEGORY_STATIC(duo_capture_debug);

void duo_debug_init(void) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        GST_DEBUG_CATEGORY_INIT(duo_capture_debug, "duo-capture", 0, "duo-capture's own messages (log lines, decisions, events)");
        g_once_init_leave(&once, 1);
    }
}

void duo_debug_log(int level, const char *message) {
    duo_debug_init();
    GST_CAT_LEVEL_LOG(duo_capture_debug, (GstDebugLevel)level, NULL, "%s", message);
}

void duo_debug_verbose(void) {
    duo_debug_init();
    gst_debug_set_threshold_for_name("duo-capture", GST_LEVEL_DEBUG);
}

gboolean duo_debug_enabled(void) {
    duo_debug_init();
    return gst_debug_category_get_threshold(duo_capture_debug) >= GST_LEVEL_DEBUG;
}

// MARK: The speech recogniser's own log

gboolean duo_quiet_speech_log(void) {
    // sphinxbase (loaded with the pocketsphinx plugin) logs its whole configuration to stderr at every
    // initialisation; its err_set_logfp sends that to a stream of our choosing.
    // The plugin is loaded with local symbols: find the library it brought in, without loading it.
    void *library = dlopen("libsphinxbase.so.3", RTLD_NOW | RTLD_NOLOAD);
    if (!library) return FALSE;
    FILE *(*set_logfp)(FILE *) = (FILE *(*)(FILE *))dlsym(library, "err_set_logfp");
    dlclose(library);
    if (!set_logfp) return FALSE;
    static FILE *null_stream = NULL;
    if (!null_stream) null_stream = fopen("/dev/null", "w");
    if (!null_stream) return FALSE;
    set_logfp(null_stream);
    return TRUE;
}

void duo_quiet_opencv_log(void) {
    // OpenCV reads the variable at its first log line; FALSE keeps a level the user chose.
    g_setenv("OPENCV_LOG_LEVEL", "SILENT", FALSE);
}
