// CDuoShim: the C glue duo-capture's GStreamer adapter (DuoMedia) needs and Swift cannot import by itself.
//
// Why it exists: GStreamer exposes many accessors as macros (GST_BUFFER_PTS, GST_MESSAGE_TYPE, cast
// macros) and several setters and loggers as variadic functions; Swift imports neither. The pad probes
// also run on streaming threads, once per buffer; keeping them in C means no Swift closure, no allocation
// and no actor hop on the per-frame path.
//
// This umbrella header includes one header per concern; each says at its top why its part is in C:
//   duo_gobject.h      casts, macro accessors, property setters (macros, variadic g_object_set)
//   duo_messages.h     bus messages: level values, forwarded EOS, speech hypotheses, device changes
//   duo_probes.h       per-buffer pad probes and chain functions (streaming threads)
//   duo_digest.h       an encoded stream's digest (the segment join's proof that the file holds it)
//   duo_caps.h         the video modes of a caps text
//   duo_debug.h        duo-capture's GStreamer debug category; the speech recogniser's log silenced
//   duo_toc.h          a take's chapters (a GstToc) handed to its muxer
// (duo_probe_common.h, beside the .c files, is private: the caps-event and reference-holding attach
// helpers the probes of duo_probes.c and duo_digest.c share.)
// (duo_desktop_shim.h, gtksink's widget property for the desktop windows, stands apart. The test hub's C
// parts, the test camera provider and the benchmark frame-code probe, are in CDuoTestHub: they are
// linked only into duo-capture-testhub, never into duo-capture.)
#ifndef DUO_SHIM_H
#define DUO_SHIM_H

#include "duo_gobject.h"
#include "duo_messages.h"
#include "duo_probes.h"
#include "duo_digest.h"
#include "duo_caps.h"
#include "duo_debug.h"
#include "duo_toc.h"

#endif
