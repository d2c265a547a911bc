// Stream digest: a pad probe that counts an encoded stream's buffers and folds their bytes (and the
// caps' codec_data) into a 64-bit digest, so the same stream read back from a file can be proved
// byte-identical to what the encoder gave the muxer (the segment join's proof, SegmentJoiner).
//
// Why C: it runs on a streaming thread for every buffer and reads every byte of it; in C that is a
// mapped pointer and a tight loop, with no Swift closure or allocation per frame. The caps field and
// buffer accessors it needs are macros Swift cannot import.
#ifndef DUO_DIGEST_H
#define DUO_DIGEST_H

#include <gst/gst.h>

/// Written by the streaming thread with atomics; read with duo_stream_digest_snapshot from any thread.
typedef struct {
    gint64 frames;        // buffers seen
    gint64 bytes;         // their bytes
    guint64 digest;       // order-dependent hash of every buffer's size and bytes
    guint64 codec_data;   // hash of the last caps' codec_data (0: none seen)
    gint64 keyframes;     // buffers without the DELTA_UNIT flag
    gint refcount;        // the probe holds one reference, the Swift owner another
} DuoStreamDigest;

/// A new digest holding the caller's reference; release with duo_stream_digest_unref.
DuoStreamDigest *duo_stream_digest_new(void);
void duo_stream_digest_unref(DuoStreamDigest *digest);
/// Adds the probe to `pad`; it holds its own reference until removed. Returns the probe's id.
gulong duo_attach_stream_digest(GstPad *pad, DuoStreamDigest *digest);
void duo_stream_digest_snapshot(DuoStreamDigest *digest, DuoStreamDigest *out);

#endif
