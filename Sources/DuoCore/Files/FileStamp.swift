import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What identifies a saved version of a file: editors save by rewriting it or by renaming a new file
/// into place, so the inode, the size and the modification time (to the nanosecond) together. Two stamps
/// of the same path differ when it was saved in between; nil when there is no file to stamp.
///
/// Thread: value type, Sendable; one `stat` call.
public struct FileStamp: Sendable, Equatable {
    public let inode: UInt64
    public let size: Int64
    public let seconds: Int
    public let nanoseconds: Int

    public init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}

/// A file watched while a run goes on (the script, the shot list), looked at no more than twice a second
/// on the run's clock: it says when the file was saved since the version known.
///
/// Thread: value type; owned by whoever watches (a run part, on the run director's actor).
public struct FileWatch: Sendable {
    public let path: String
    /// The version known: a save after it is a change, even before the first look. nil (there was no
    /// file): the first version found is taken as known, not as a save.
    public var stamp: FileStamp?
    /// When the file was last looked at (run clock, ns).
    public var lookedAt: Int64 = 0
    /// How often the file is looked at, ns.
    public static let interval: Int64 = 500_000_000

    /// Watches `path` from the version `stamp` (by default the one on disk now, read a moment ago).
    public init(_ path: String, stamp: FileStamp?? = nil) {
        self.path = path
        self.stamp = stamp ?? FileStamp(path)
    }

    /// Whether it is time to look again at `now`.
    public func due(at now: Int64) -> Bool { now - lookedAt >= Self.interval }

    /// Looks at the file at `now`: when it was saved since the version known, that version and the saved
    /// one (which becomes the known one); else nil. A file that is gone (mid-save) is no change: the next
    /// look sees the new one.
    public mutating func look(at now: Int64) -> (previous: FileStamp, saved: FileStamp)? {
        lookedAt = now
        let current = FileStamp(path)
        guard let previous = stamp else { stamp = current; return nil }
        guard let current, current != previous else { return nil }
        stamp = current
        return (previous, current)
    }
}
