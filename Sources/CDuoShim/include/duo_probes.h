// Per-buffer work on pads: probes and chain functions that run on GStreamer's streaming threads, once per
// buffer (frame counter, take start gate, constant cadence, EOS drop, I420 drawer, tee branch detach,
// branch error isolation).
//
// Why C: these run on streaming threads for every frame; in C the per-frame path has no Swift closure,
// no allocation and no actor hop, and the state they share with Swift is read through atomics. Their
// buffer, event and pad accessors (GST_BUFFER_PTS, GST_PAD_PROBE_INFO_BUFFER, GST_PAD_CHAINFUNC, the
// GstVideoFrame plane macros) are macros Swift cannot import either.
#ifndef DUO_PROBES_H
#define DUO_PROBES_H

#include <gst/gst.h>

// ---- Frame counter: a buffer probe that counts frames on a pad --------------------------------------------
// Written on the streaming thread with atomics; read from any thread with duo_frame_counter_snapshot.
typedef struct {
    gint64 frames;
    gint64 first_pts;   // -1 until the first timestamped buffer
    gint64 first_arrival_us; // g_get_monotonic_time() (CLOCK_MONOTONIC, µs) at the first buffer, -1 before
    gint64 last_pts;    // -1 until the first timestamped buffer
    gint64 max_gap;     // largest PTS step between consecutive buffers, ns
    gint64 min_gap;     // smallest forward (or zero) PTS step, ns; -1 before the second buffer
    gint64 backwards;   // number of PTS steps that went backwards
    gint64 keyframe_first; // 1 if the first buffer was not a delta unit, 0 if it was, -1 unknown
    gint64 luma_sample;    // first Y byte of the last buffer when sampling is on, else -1
    gint64 luma_max;       // largest first-Y byte seen when sampling is on, else -1
    gint64 caps_changes;   // CAPS events whose caps differ from the previous ones (renegotiations)
    GstCaps *last_caps;    // streaming thread only
    gint sample_luma;
    gint refcount;         // the probe holds one reference, the Swift owner another
} DuoFrameCounter;

/// A new counter holding one reference (the caller's). Release with duo_frame_counter_unref.
DuoFrameCounter *duo_frame_counter_new(void);
void duo_frame_counter_unref(DuoFrameCounter *counter);
/// Adds a buffer probe that updates `counter`; the probe holds its own reference, dropped when the probe
/// is removed and no longer running, so removing the probe never frees memory a streaming thread uses.
gulong duo_attach_frame_counter(GstPad *pad, DuoFrameCounter *counter);
void duo_frame_counter_snapshot(DuoFrameCounter *counter, DuoFrameCounter *out);

/// Frame counters can also sample the first luma byte of each raw video buffer (for tests that check a
/// branch's pixels were not touched by another branch). Off by default: it maps every buffer.
void duo_frame_counter_sample_luma(DuoFrameCounter *counter, gboolean enabled);

// ---- Take start gate --------------------------------------------------------------------------------------
/// A buffer probe on a take's tee pad that drops buffers whose running time is before the take's start,
/// then removes itself at the first buffer at or after it, remembering that buffer's running time. A take
/// then starts with the first frame captured after its start (never one from before, which would carry a
/// negative timestamp once shifted to zero), and the record-start latency (first recorded frame against
/// the countdown's end) is measured from buffer timestamps, not from a wall clock.
/// Reference-counted like DuoFrameCounter: the probe holds one reference, the caller another.
typedef struct {
    GstClockTime threshold;
    gint64 first_running_time;  // -1 until the first buffer at or after threshold passed
    gint refcount;
} DuoStartGate;

/// Adds the dropping probe to `pad` and returns a gate holding one reference (the caller's).
DuoStartGate *duo_start_gate_attach(GstPad *pad, GstClockTime running_time);
gint64 duo_start_gate_first_running_time(DuoStartGate *gate);
void duo_start_gate_unref(DuoStartGate *gate);

// ---- Constant cadence -------------------------------------------------------------------------------------
/// Keeps a constant cadence on `pad` (the camera selector's output): a buffer for a slot already passed
/// (a swap hands over the other camera's frame of the same instant) is dropped, and one within half a
/// frame of the next slot is stamped on it, so the recording never has two frames closer than half an
/// interval nor a gap over one. The state lives with the probe (freed when the pad goes).
void duo_attach_cadence(GstPad *pad, GstClockTime interval);

// ---- End of stream ----------------------------------------------------------------------------------------
/// Sends end-of-stream into `pad` (a lost microphone's tee: every branch after it ends its stream).
void duo_send_eos(GstPad *pad);

/// Drops end-of-stream on `pad` (a camera chain's output): a camera that fails or stops sends EOS, which
/// would end the preview, the subject view and the take for good; a camera is lost and comes back instead.
void duo_drop_eos(GstPad *pad);

// ---- One timeline for a join ------------------------------------------------------------------------------
/// Makes the stream on `pad` (a join's concat output) one segment from 0: each buffer is stamped with its
/// running time and every segment event after the first is dropped. A videorate after it then paces the
/// take as one timeline: a slower segment's last frame is repeated up to the next segment's first (rather
/// than closing the segment with one copy of it), and no frame is lost or added where segments meet, so
/// the frames and the length stay in step however many segments there are.
void duo_flatten_segments(GstPad *pad);

// ---- Drawing into live frames ------------------------------------------------------------------------
/// Called once per frame on the streaming thread with the mapped, writable I420 planes and the frame's
/// running time (ns).
typedef void (*DuoI420DrawFunc)(gpointer context, guint8 *y, gint y_stride, guint8 *u, gint u_stride,
                                guint8 *v, gint v_stride, gint width, gint height, gint64 running_time);

/// Adds a buffer probe on `pad` (which must carry I420) that makes each buffer writable — a tee shares
/// buffers between branches, so drawing in place would otherwise paint the operator preview and the
/// recording too — maps it and calls `draw`. `destroy(context)` runs when the probe is removed.
gulong duo_attach_i420_drawer(GstPad *pad, DuoI420DrawFunc draw, gpointer context, GDestroyNotify destroy);

// ---- Tee branch removal -----------------------------------------------------------------------------------
/// Unlinks `tee_pad` from `branch_sink` once the tee pad is idle (possibly right away, possibly on the
/// streaming thread), sends EOS into `branch_sink` so the branch's muxer finalises, and releases the
/// request pad on `tee`. Takes its own references; the caller keeps its own.
void duo_detach_branch_when_idle(GstElement *tee, GstPad *tee_pad, GstPad *branch_sink);

// ---- Branch fault isolation -------------------------------------------------------------------------------
/// Makes the sink ghost pad of a take's bin report success upstream whatever the branch returns (a full
/// disk, an encoder failure, a branch being torn down). Without it the error flows back through the tee
/// to the camera's streaming thread and stops the preview. The element that failed still posts its error
/// on the bus, which ends the take. Why C: it replaces the pad's chain function, called once per frame.
void duo_isolate_branch_errors(GstPad *ghost_sink);

/// Wraps an ordinary element sink pad's chain functions so that a flow error downstream of it
/// (not-linked, not-negotiated, error, EOS) is never returned upstream: the branch behind it can fail
/// without stopping the tee that feeds it. Flushing still passes.
void duo_isolate_pad_errors(GstPad *sink);

#endif
