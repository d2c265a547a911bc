import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Take files are claimed before they are written: created exclusively (O_EXCL), so two runs recording
/// into one folder in the same second never share a file; the name moves on (`-2`, `-3`, …) instead.
///
/// Thread: any; synchronous file-system calls.
public enum TakeFileClaim {
    public static func claim(_ naming: TakeNaming, take number: Int, at date: Date = Date()) -> String {
        naming.path(take: number, at: date) { candidate in
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { close(fd); return false }
            // Taken (by a file of ours, another run's, or the user's); any other failure is the take's to report.
            return errno == EEXIST
        }
    }
}
