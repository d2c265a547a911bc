import CDuoShim
import CGStreamer

/// duo-capture's own messages through GStreamer's debug log, category `duo-capture`: the log lines at
/// INFO, the decisions and events at DEBUG. `GST_DEBUG=duo-capture:6` (or `--verbose`) shows them among
/// the pipeline's own lines, with GStreamer's timestamps and threads.
///
/// Thread: any (GStreamer's debug log is thread-safe).
public enum Diagnostics {
    public static func info(_ message: String) { GStreamer.initialize(); duo_debug_log(Int32(GST_LEVEL_INFO.rawValue), message) }
    public static func debug(_ message: String) { GStreamer.initialize(); duo_debug_log(Int32(GST_LEVEL_DEBUG.rawValue), message) }
    /// Whether DEBUG lines of the category are shown (so events are only serialised for it then).
    public static var debugging: Bool { GStreamer.initialize(); return duo_debug_enabled() != 0 }
    /// `--verbose`: the category at DEBUG level.
    public static func verbose() { GStreamer.initialize(); duo_debug_verbose() }
}
