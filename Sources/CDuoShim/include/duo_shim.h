// CDuoShim: the C glue duo-capture's GStreamer adapter needs and Swift cannot import by itself.
//
// Why it exists: GStreamer exposes many accessors as macros (GST_BUFFER_PTS, GST_MESSAGE_TYPE, cast
// macros) and several setters as variadic functions; Swift imports neither. The two probes below also
// run on streaming threads, once per buffer; keeping them in C means no Swift closure, no allocation
// and no actor hop on the per-frame path. When Swift grows macro import this file can shrink to the
// probes.
#ifndef DUO_SHIM_H
#define DUO_SHIM_H

#include <gst/gst.h>

// ---- Casts (GST_BIN, G_OBJECT, GST_ELEMENT, GST_OBJECT) -------------------------------------------------
GstBin *duo_as_bin(GstElement *element);
GObject *duo_as_object(gpointer instance);
GstObject *duo_as_gst_object(gpointer instance);
GstElement *duo_as_element(gpointer instance);

// ---- Macro accessors --------------------------------------------------------------------------------------
GstMessageType duo_message_type(GstMessage *message);
GstObject *duo_message_source(GstMessage *message);
const gchar *duo_object_name(GstObject *object);
GstClockTime duo_second(void);

/// If `message` is a GstBinForwarded element message wrapping an EOS, returns the (borrowed) object that
/// posted the EOS; otherwise NULL. Valid while `message` is alive.
GstObject *duo_forwarded_eos_source(GstMessage *message);

/// If `message` is a `level` element message, stores the first channel's rms and peak (dB) and returns TRUE.
gboolean duo_level_values(GstMessage *message, gdouble *rms_db, gdouble *peak_db);

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

// ---- Tee branch removal -----------------------------------------------------------------------------------
/// Unlinks `tee_pad` from `branch_sink` once the tee pad is idle (possibly right away, possibly on the
/// streaming thread), sends EOS into `branch_sink` so the branch's muxer finalises, and releases the
/// request pad on `tee`. Takes its own references; the caller keeps its own.
void duo_detach_branch_when_idle(GstElement *tee, GstPad *tee_pad, GstPad *branch_sink);


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

// ---- Branch fault isolation -------------------------------------------------------------------------------
/// Makes the sink ghost pad of a take's bin report success upstream whatever the branch returns (a full
/// disk, an encoder failure, a branch being torn down). Without it the error flows back through the tee
/// to the camera's streaming thread and stops the preview. The element that failed still posts its error
/// on the bus, which ends the take. Why C: it replaces the pad's chain function, called once per frame.
void duo_isolate_branch_errors(GstPad *ghost_sink);

// ---- Drawing into live frames ------------------------------------------------------------------------
/// Called once per frame on the streaming thread with the mapped, writable I420 planes and the frame's
/// running time (ns).
typedef void (*DuoI420DrawFunc)(gpointer context, guint8 *y, gint y_stride, guint8 *u, gint u_stride,
                                guint8 *v, gint v_stride, gint width, gint height, gint64 running_time);

/// Adds a buffer probe on `pad` (which must carry I420) that makes each buffer writable — a tee shares
/// buffers between branches, so drawing in place would otherwise paint the operator preview and the
/// recording too — maps it and calls `draw`. `destroy(context)` runs when the probe is removed.
gulong duo_attach_i420_drawer(GstPad *pad, DuoI420DrawFunc draw, gpointer context, GDestroyNotify destroy);

/// Frame counters can also sample the first luma byte of each raw video buffer (for tests that check a
/// branch's pixels were not touched by another branch). Off by default: it maps every buffer.
void duo_frame_counter_sample_luma(DuoFrameCounter *counter, gboolean enabled);

// ---- Properties -------------------------------------------------------------------------------------------
void duo_set_bool(gpointer object, const gchar *name, gboolean value);
void duo_set_int(gpointer object, const gchar *name, gint value);
void duo_set_uint64(gpointer object, const gchar *name, guint64 value);
void duo_set_string(gpointer object, const gchar *name, const gchar *value);
void duo_set_object(gpointer object, const gchar *name, gpointer value);
void duo_set_caps(gpointer object, const gchar *name, GstCaps *caps);
/// Sets any property from its text form (enum nicks such as videoflip's "horiz"), as gst-launch does.
void duo_set_from_string(gpointer object, const gchar *name, const gchar *value);
gboolean duo_has_property(gpointer object, const gchar *name);
/// Wraps an ordinary element sink pad's chain functions so that a flow error downstream of it
/// (not-linked, not-negotiated, error, EOS) is never returned upstream: the branch behind it can fail
/// without stopping the tee that feeds it. Flushing still passes.
void duo_isolate_pad_errors(GstPad *sink);

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

/// Keeps a constant cadence on `pad` (the camera selector's output): a buffer for a slot already passed
/// (a swap hands over the other camera's frame of the same instant) is dropped, and one within half a
/// frame of the next slot is stamped on it, so the recording never has two frames closer than half an
/// interval nor a gap over one. The state lives with the probe (freed when the pad goes).
void duo_attach_cadence(GstPad *pad, GstClockTime interval);

/// Sends end-of-stream into `pad` (a lost microphone's tee: every branch after it ends its stream).
void duo_send_eos(GstPad *pad);

/// Drops end-of-stream on `pad` (a camera chain's output): a camera that fails or stops sends EOS, which
/// would end the preview, the subject view and the take for good; a camera is lost and comes back instead.
void duo_drop_eos(GstPad *pad);

/// Registers the test camera provider (duo_test_cameras.c) over `folder`: its `.camera` files are
/// Video/Source devices a GstDeviceMonitor lists and reports added and removed. Tests only (duo-capture
/// calls it when DUO_TEST_CAMERAS names a folder).
gboolean duo_register_test_cameras(const char *folder);

/// Takes every device-added and device-removed message off a device monitor's bus, without waiting;
/// true when there was one (GST_MESSAGE_DEVICE_* are expressions Swift cannot import).
gboolean duo_bus_drain_device_changes(GstBus *bus);

/// The recogniser's hypothesis in a `pocketsphinx` element message (voice-follow): its text (owned by
/// the message), whether it is final (the utterance ended) and the stream time of the audio it reached
/// (GST_CLOCK_TIME_NONE when absent); NULL for any other message.
const gchar *duo_speech_hypothesis(GstMessage *message, gboolean *is_final, guint64 *timestamp);

/// Sends the speech recogniser's own log (sphinxbase's: its whole configuration at every start) to
/// /dev/null instead of stderr; call once the pocketsphinx plugin is loaded. False when it is not.
gboolean duo_quiet_speech_log(void);

/// Benchmarks only (DUO_BENCH_FRAME_CODE): `write` stamps a 16-bit frame number into the top-left 256x16
/// pixels of each frame on `pad` (luma blocks); otherwise the number is read back. Either way each
/// number is logged with CLOCK_MONOTONIC µs to `log_path`, so two processes on one machine can be matched
/// frame by frame (glass-to-glass latency).
void duo_attach_frame_code(GstPad *pad, const char *log_path, gboolean write);

/// duo-capture's own GStreamer debug category, "duo-capture": `GST_DEBUG=duo-capture:6` shows its lines
/// interleaved with the pipeline's. `level` is a GstDebugLevel (4 INFO, 5 DEBUG).
void duo_debug_init(void);
void duo_debug_log(int level, const char *message);
/// `--verbose`: the category at DEBUG, whatever GST_DEBUG says.
void duo_debug_verbose(void);
/// Whether the category shows DEBUG lines.
gboolean duo_debug_enabled(void);

/// Calls `callback(data)` on the posting thread whenever a device-added or device-removed message is
/// posted on a device monitor's `bus` (the messages still queue, for duo_bus_drain_device_changes), so
/// a reader polling the bus can look at once. `destroy(data)` when the handler goes.
void duo_bus_wake_on_device_changes(GstBus *bus, void (*callback)(gpointer), gpointer data, GDestroyNotify destroy);

#endif
