import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Work that must never hold the live run back (a take's segments being joined): the calling thread is
/// made nicer, and every thread it creates afterwards (GStreamer's streaming threads, the encoder's)
/// inherits that on Linux, so the capture's threads win the cores whenever they want them.
///
/// Thread: call on the background thread itself, before it starts the work.
public enum BackgroundPriority {
    /// Lowers the calling thread's priority by `niceness` (Linux: per thread).
    public static func lowerThisThread(by niceness: Int32 = 10) {
        #if os(Linux)
        // Linux keeps the nice value per thread: "who" 0 is the calling thread only (setpriority(2), NOTES).
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + niceness))
        #endif
    }
}
