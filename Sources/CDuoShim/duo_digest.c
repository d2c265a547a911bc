// The stream digest probe: see include/duo_digest.h for why it is in C.
#include "duo_digest.h"
#include "duo_probe_common.h"
#include <string.h>

#define DUO_DIGEST_PRIME 0x9E3779B97F4A7C15ULL

static inline guint64 mix(guint64 h) {
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return h;
}

/// A 64-bit hash of `size` bytes, eight at a time (the tail zero-padded), seeded with the size.
static guint64 hash_bytes(const guint8 *data, gsize size) {
    guint64 h = mix((guint64)size ^ DUO_DIGEST_PRIME);
    gsize i = 0;
    for (; i + 8 <= size; i += 8) {
        guint64 w;
        memcpy(&w, data + i, 8);
        h = (h ^ w) * DUO_DIGEST_PRIME;
        h ^= h >> 32;
    }
    if (i < size) {
        guint64 w = 0;
        memcpy(&w, data + i, size - i);
        h = (h ^ w) * DUO_DIGEST_PRIME;
    }
    return mix(h);
}

static GstPadProbeReturn digest_probe(GstPad *pad, GstPadProbeInfo *info, gpointer user_data) {
    (void)pad;
    DuoStreamDigest *d = user_data;
    GstCaps *caps;
    if (duo_probe_event_caps(info, &caps)) {
        if (caps) {
            const GstStructure *s = gst_caps_get_size(caps) > 0 ? gst_caps_get_structure(caps, 0) : NULL;
            const GValue *value = s ? gst_structure_get_value(s, "codec_data") : NULL;
            guint64 h = 0;
            if (value && G_VALUE_HOLDS(value, GST_TYPE_BUFFER)) {
                GstBuffer *buffer = gst_value_get_buffer(value);
                GstMapInfo map;
                if (buffer && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
                    h = hash_bytes(map.data, map.size) | 1;
                    gst_buffer_unmap(buffer, &map);
                }
            }
            __atomic_store_n(&d->codec_data, h, __ATOMIC_RELAXED);
        }
        return GST_PAD_PROBE_OK;
    }
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer) return GST_PAD_PROBE_OK;
    GstMapInfo map;
    guint64 h = 0;
    gsize size = 0;
    if (gst_buffer_map(buffer, &map, GST_MAP_READ)) {
        h = hash_bytes(map.data, map.size);
        size = map.size;
        gst_buffer_unmap(buffer, &map);
    }
    // Only the streaming thread writes; the atomics make the snapshot safe from another thread.
    guint64 digest = __atomic_load_n(&d->digest, __ATOMIC_RELAXED);
    __atomic_store_n(&d->digest, mix((digest ^ h) * DUO_DIGEST_PRIME + size), __ATOMIC_RELAXED);
    __atomic_fetch_add(&d->bytes, (gint64)size, __ATOMIC_RELAXED);
    if (!GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT)) __atomic_fetch_add(&d->keyframes, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&d->frames, 1, __ATOMIC_RELEASE);
    return GST_PAD_PROBE_OK;
}

DuoStreamDigest *duo_stream_digest_new(void) {
    DuoStreamDigest *d = g_new0(DuoStreamDigest, 1);
    d->refcount = 1;
    return d;
}

void duo_stream_digest_unref(DuoStreamDigest *digest) {
    if (g_atomic_int_dec_and_test(&digest->refcount)) g_free(digest);
}

gulong duo_attach_stream_digest(GstPad *pad, DuoStreamDigest *digest) {
    return duo_add_counted_probe(pad, digest_probe, digest, &digest->refcount, (GDestroyNotify)duo_stream_digest_unref);
}

void duo_stream_digest_snapshot(DuoStreamDigest *d, DuoStreamDigest *out) {
    out->frames = __atomic_load_n(&d->frames, __ATOMIC_ACQUIRE);
    out->bytes = __atomic_load_n(&d->bytes, __ATOMIC_RELAXED);
    out->digest = __atomic_load_n(&d->digest, __ATOMIC_RELAXED);
    out->codec_data = __atomic_load_n(&d->codec_data, __ATOMIC_RELAXED);
    out->keyframes = __atomic_load_n(&d->keyframes, __ATOMIC_RELAXED);
    out->refcount = 0;
}
