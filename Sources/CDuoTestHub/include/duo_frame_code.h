// The frame-code probe: for Benchmarks/ only (glass-to-glass latency, DUO_BENCH_FRAME_CODE); nothing in
// an ordinary run attaches it.
//
// Why C: it runs on the streaming thread once per buffer and maps the frame with GstVideoFrame, whose
// plane accessors (GST_VIDEO_FRAME_COMP_DATA, …_STRIDE, …_PSTRIDE) are macros; in C the per-frame path
// has no Swift closure, no allocation and no actor hop, so it does not disturb the latency it measures.
#ifndef DUO_FRAME_CODE_H
#define DUO_FRAME_CODE_H

#include <gst/gst.h>

/// Benchmarks only (DUO_BENCH_FRAME_CODE): `write` stamps a 16-bit frame number into the top-left 256x16
/// pixels of each frame on `pad` (luma blocks); otherwise the number is read back. Either way each
/// number is logged with CLOCK_MONOTONIC µs to `log_path`, so two processes on one machine can be matched
/// frame by frame (glass-to-glass latency).
void duo_attach_frame_code(GstPad *pad, const char *log_path, gboolean write);

#endif
