import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit (RLIMIT_NOFILE). duo-capture raises its soft limit to the hard one at
/// start: the desktop's common soft limit of 1,024 is shared by GStreamer's polls, the take's files, the
/// remotes' sockets and the control socket, and running out loses a sidecar (issue 35).
///
/// Thread: any (called once at start, before other threads open files).
public enum DescriptorLimit {
    /// The soft and hard limits now.
    public static var current: (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one (never lowers it); returns the soft limit in force after.
    @discardableResult
    public static func raiseToHard() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }
}
