// Reading bus messages: level values, an EOS forwarded out of a bin, the speech recogniser's hypotheses,
// and the device monitor's device-added/removed messages.
//
// Why C: the message type tests are macros (GST_MESSAGE_TYPE, G_VALUE_HOLDS, GST_TYPE_MESSAGE) and
// GST_MESSAGE_DEVICE_ADDED | GST_MESSAGE_DEVICE_REMOVED are enum expressions Swift cannot import; `level`
// posts deprecated GValueArrays; and the device wake-up is a bus sync handler, called on whichever thread
// posts, where a Swift closure would need an actor hop. Each function returns plain values Swift reads.
#ifndef DUO_MESSAGES_H
#define DUO_MESSAGES_H

#include <gst/gst.h>

/// If `message` is a GstBinForwarded element message wrapping an EOS, returns the (borrowed) object that
/// posted the EOS; otherwise NULL. Valid while `message` is alive.
GstObject *duo_forwarded_eos_source(GstMessage *message);

/// If `message` is a `level` element message, stores the first channel's rms and peak (dB) and returns TRUE.
gboolean duo_level_values(GstMessage *message, gdouble *rms_db, gdouble *peak_db);

/// The recogniser's hypothesis in a `pocketsphinx` element message (voice-follow): its text (owned by
/// the message), whether it is final (the utterance ended) and the stream time of the audio it reached
/// (GST_CLOCK_TIME_NONE when absent); NULL for any other message.
const gchar *duo_speech_hypothesis(GstMessage *message, gboolean *is_final, guint64 *timestamp);

/// Takes every device-added and device-removed message off a device monitor's bus, without waiting;
/// true when there was one (GST_MESSAGE_DEVICE_* are expressions Swift cannot import).
gboolean duo_bus_drain_device_changes(GstBus *bus);

/// Calls `callback(data)` on the posting thread whenever a device-added or device-removed message is
/// posted on a device monitor's `bus` (the messages still queue, for duo_bus_drain_device_changes), so
/// a reader polling the bus can look at once. `destroy(data)` when the handler goes.
void duo_bus_wake_on_device_changes(GstBus *bus, void (*callback)(gpointer), gpointer data, GDestroyNotify destroy);

/// If `message` is a `facedetect` element message (framing hints), stores up to `capacity` faces as
/// x, y, width, height quadruples (pixels of the picture the detector saw) in `boxes` and returns how
/// many faces it lists (0: nobody); -1 for any other message. (`faces` is a GstValueList of structures.)
gint duo_face_boxes(GstMessage *message, guint *boxes, gint capacity);

#endif
