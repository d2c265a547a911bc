// Chapters: a take's table of contents handed to its muxer (matroskamux is a GstTocSetter).
//
// Why C: a chapter's title goes in a tag list through gst_tag_list_add (variadic), and the TOC's entries
// are mini objects whose ownership passes to their parent (gst_toc_entry_append_sub_entry takes it);
// built here, the whole TOC is handed over in one call, with no reference left to get wrong in Swift.
#ifndef DUO_TOC_H
#define DUO_TOC_H

#include <gst/gst.h>

/// Sets on `element` (a GstTocSetter; anything else: returns FALSE) one edition of `count` chapters,
/// chapter i from starts[i] to the next chapter's start (the last one to `end`), titled titles[i] (UTF-8).
/// Times are ns from the file's start. Replaces any TOC set before.
gboolean duo_set_chapters(GstElement *element, guint count, const gint64 *starts, const char *const *titles, gint64 end);

#endif
