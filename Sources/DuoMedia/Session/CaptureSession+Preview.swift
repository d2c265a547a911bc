import CGStreamer
import DuoCore

//  The operator preview's own figures: frames its sink dropped too late to draw (GstBaseSink's stats).
//
//  Thread: the capture session's actor.

extension CaptureSession {
    /// Frames the operator sink dropped itself (late: never drawn), from its `stats`; 0 without a sink
    /// that keeps them (fakesink counts none).
    var operatorSinkDropped: Int64 {
        guard let sink = pipeline?.child(.operatorSink), sink.has("stats") else { return 0 }
        var value = GValue()
        g_value_init(&value, gst_structure_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(sink.pointer).assumingMemoryBound(to: GObject.self), "stats", &value)
        guard let stats = gst_value_get_structure(&value) else { return 0 }
        var dropped: guint64 = 0
        guard gst_structure_get_uint64(stats, "dropped", &dropped) != 0 else { return 0 }
        return Int64(dropped)
    }
}
