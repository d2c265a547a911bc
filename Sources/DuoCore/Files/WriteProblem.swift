import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written, in the user's words, from the system's own reason (issue 35: a
/// sidecar lost to "too many open files" was reported as "check free space").
///
/// Thread: stateless; any thread.
public enum WriteProblem {
    /// What went wrong and what to do, for `error` thrown by Foundation while writing into `folder`, in
    /// the operator's language (`folder` as given; the record folder by default).
    public static func describe(_ error: any Error) -> String { said(error).text }

    public static func describe(_ error: any Error, folder: String) -> String { said(error, folder: Said(verbatim: folder)).text }

    /// The same in English and in the operator's language, to quote in a DuoError (its event stays English).
    public static func said(_ error: any Error, folder: Said = .text("the record folder")) -> Said {
        switch errno(of: error) {
        case 24, 23: // EMFILE, ENFILE
            return .text("too many open files (raise the limit with `ulimit -n` or close other programs)")
        case 28: // ENOSPC
            return .text("no space left on the device; free space in %s", folder)
        case 122: // EDQUOT
            return .text("the disk quota is used up; free space in %s", folder)
        case 13, 1: // EACCES, EPERM
            return .text("permission denied; make %s writable for this user", folder)
        case 30: // EROFS
            return .text("the file system is read-only; record to another folder")
        case 2: // ENOENT
            return .text("the folder is gone; create %s again", folder)
        case let code?:
            return .text("%s; check %s", String(cString: strerror(code)), folder)
        case nil:
            return .text("%s; check free space and permissions in %s", error.localizedDescription, folder)
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
