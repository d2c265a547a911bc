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

static void duo_collect_chapters(GList *entries, gint64 *starts, gchar **titles, guint capacity, guint *count) {
    for (GList *l = entries; l != NULL && *count < capacity; l = l->next) {
        GstTocEntry *entry = l->data;
        if (gst_toc_entry_get_entry_type(entry) == GST_TOC_ENTRY_TYPE_CHAPTER) {
            gint64 start = 0, stop = 0;
            if (!gst_toc_entry_get_start_stop_times(entry, &start, &stop) || start < 0) start = 0;
            gchar *title = NULL;
            GstTagList *tags = gst_toc_entry_get_tags(entry);
            if (tags == NULL || !gst_tag_list_get_string(tags, GST_TAG_TITLE, &title)) title = g_strdup("");
            starts[*count] = start;
            titles[*count] = title;
            (*count)++;
        }
        duo_collect_chapters(gst_toc_entry_get_sub_entries(entry), starts, titles, capacity, count);
    }
}

guint duo_toc_message_chapters(GstMessage *message, gint64 *starts, gchar **titles, guint capacity) {
    if (message == NULL || GST_MESSAGE_TYPE(message) != GST_MESSAGE_TOC) return 0;
    GstToc *toc = NULL;
    gboolean updated = FALSE;
    gst_message_parse_toc(message, &toc, &updated);
    if (toc == NULL) return 0;
    guint count = 0;
    duo_collect_chapters(gst_toc_get_entries(toc), starts, titles, capacity, &count);
    gst_toc_unref(toc);
    return count;
}
