// Chapters: a take's table of contents handed to its muxer (matroskamux is a GstTocSetter), and read
// back from a file's (a remux keeps them).
//
// Why C: a chapter's title goes in a tag list through gst_tag_list_add (variadic), and the TOC's entries
// are mini objects whose ownership passes to their parent (gst_toc_entry_append_sub_entry takes it);
// built here, the whole TOC is handed over in one call, with no reference left to get wrong in Swift.
// Read back, the entries are GLists and GST_MESSAGE_TYPE is a macro: plain arrays come out instead.
#ifndef DUO_TOC_H
#define DUO_TOC_H

#include <gst/gst.h>

/// Sets on `element` (a GstTocSetter; anything else: returns FALSE) one edition of `count` chapters,
/// chapter i from starts[i] to the next chapter's start (the last one to `end`), titled titles[i] (UTF-8).
/// Times are ns from the file's start. Replaces any TOC set before.
gboolean duo_set_chapters(GstElement *element, guint count, const gint64 *starts, const char *const *titles, gint64 end);

/// The chapters of a TOC message (what a sink posts when a demuxer's table of contents reaches it): at
/// most `capacity` chapter entries, at any depth, in order; starts[i] in ns (0 when unknown) and
/// titles[i] a UTF-8 copy the caller frees with g_free ("" without a title). 0 for any other message.
guint duo_toc_message_chapters(GstMessage *message, gint64 *starts, gchar **titles, guint capacity);

#endif
