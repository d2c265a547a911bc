import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's CPU and memory, and a folder's free space, as /proc and statvfs give them (obs-websocket's
/// GetStats; anything else that reports the run's cost to a client).
///
/// Thread: stateless; any thread.
public enum ProcessFigures {
    /// Percent of one core used on average since the process started (0 when /proc cannot be read).
    public static var cpuPercentSinceStart: Double {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let uptime = (try? String(contentsOfFile: "/proc/uptime", encoding: .utf8))?.split(separator: " ").first.flatMap({ Double($0) }),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15, starttime 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let user = Double(fields[11]), let system = Double(fields[12]), let start = Double(fields[19]) else { return 0 }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let alive = uptime - start / ticks
        return alive > 0 ? (user + system) / ticks / alive * 100 : 0
    }

    /// Resident memory in MB (0 when /proc cannot be read).
    public static var residentMB: Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Free space for an unprivileged writer in the file system holding `path`, in MB (0 when unknown).
    public static func freeMB(at path: String) -> Double {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return 0 }
        return Double(s.f_bavail) * Double(s.f_frsize) / 1_048_576
    }
}
