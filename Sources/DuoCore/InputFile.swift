#if canImport(Glibc)
import Glibc
#endif

/// Files duo-capture reads (scripts, timelines, profiles, takes to inspect) must be regular files:
/// a FIFO would block the run forever and a device such as /dev/zero never ends.
///
/// Thread: any; one stat call.
public enum InputFile {
    /// Throws an input error naming `what` unless `path` is a regular file (symbolic links are followed).
    public static func requireRegular(_ path: String, _ what: String, hint: String) throws(DuoError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .input("\(what) \(path) does not exist; \(hint)")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .input("\(what) \(path) is a folder; \(hint)")
        default: throw .input("\(what) \(path) is not a regular file (a device, FIFO or socket); \(hint)")
        }
    }
}
