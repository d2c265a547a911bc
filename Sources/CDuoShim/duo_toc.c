#include "duo_toc.h"

gboolean duo_set_chapters(GstElement *element, guint count, const gint64 *starts, const char *const *titles, gint64 end) {
    if (element == NULL || !GST_IS_TOC_SETTER(element)) return FALSE;
    GstToc *toc = gst_toc_new(GST_TOC_SCOPE_GLOBAL);
    GstTocEntry *edition = gst_toc_entry_new(GST_TOC_ENTRY_TYPE_EDITION, "duo-edition");
    gst_toc_entry_set_start_stop_times(edition, 0, end);
    for (guint i = 0; i < count; i++) {
        gchar *uid = g_strdup_printf("duo-chapter-%u", i + 1);
        GstTocEntry *chapter = gst_toc_entry_new(GST_TOC_ENTRY_TYPE_CHAPTER, uid);
        g_free(uid);
        gint64 stop = i + 1 < count ? starts[i + 1] : end;
        if (stop < starts[i]) stop = starts[i];
        gst_toc_entry_set_start_stop_times(chapter, starts[i], stop);
        GstTagList *tags = gst_tag_list_new(GST_TAG_TITLE, titles[i], NULL);
        gst_toc_entry_set_tags(chapter, tags);
        gst_toc_entry_append_sub_entry(edition, chapter);
    }
    gst_toc_append_entry(toc, edition);
    gst_toc_setter_set_toc(GST_TOC_SETTER(element), toc);
    gst_toc_unref(toc);
    return TRUE;
}
