import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written, in the user's words, from the system's own reason (issue 35: a
/// sidecar lost to "too many open files" was reported as "check free space").
///
/// Thread: stateless; any thread.
public enum WriteProblem {
    /// What went wrong and what to do, for `error` thrown by Foundation while writing into `folder`.
    public static func describe(_ error: any Error, folder: String = "the record folder") -> String {
        switch errno(of: error) {
        case 24, 23: // EMFILE, ENFILE
            return "too many open files (raise the limit with `ulimit -n` or close other programs)"
        case 28: // ENOSPC
            return "no space left on the device; free space in \(folder)"
        case 122: // EDQUOT
            return "the disk quota is used up; free space in \(folder)"
        case 13, 1: // EACCES, EPERM
            return "permission denied; make \(folder) writable for this user"
        case 30: // EROFS
            return "the file system is read-only; record to another folder"
        case 2: // ENOENT
            return "the folder is gone; create \(folder) again"
        case let code?:
            return "\(String(cString: strerror(code))); check \(folder)"
        case nil:
            return "\(error.localizedDescription); check free space and permissions in \(folder)"
        }
    }

    /// The POSIX error number behind `error` (Foundation wraps it), or nil.
    public static func errno(of error: any Error) -> Int32? {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileWriteOutOfSpace: return 28
        case .fileWriteNoPermission, .fileReadNoPermission: return 13
        case .fileWriteVolumeReadOnly: return 30
        case .fileNoSuchFile, .fileReadNoSuchFile: return 2
        default: return nil
        }
    }
}
