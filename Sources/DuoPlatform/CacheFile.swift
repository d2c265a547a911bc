import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files a program caches for itself and reads back (voice-follow's models): read only when they are
/// regular files of a bounded size, never through a link or a FIFO, and written beside their place then
/// renamed into it, so a half-written file never stands under its name.
///
/// Thread: any; synchronous file-system calls.
public enum CacheFile {
    public enum ReadProblem: Error { case absent, unusable(String) }

    /// The bytes of `path` if it is a regular file (not a link) of at most `limit` bytes. Opened without
    /// following links and without blocking, so a FIFO swapped in after the look is not waited on.
    public static func readRegular(_ path: String, limit: Int) -> Result<[UInt8], ReadProblem> {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return .failure(errno == ENOENT ? .absent : .unusable("cannot be read (\(String(cString: strerror(errno))))"))
        }
        func kind(_ mode: mode_t) -> String? {
            switch mode & S_IFMT {
            case S_IFREG: nil
            case S_IFLNK: "is a symbolic link"
            case S_IFDIR: "is a folder"
            case S_IFIFO: "is a FIFO"
            default: "is not a regular file"
            }
        }
        if let why = kind(info.st_mode) { return .failure(.unusable(why)) }
        guard Int(info.st_size) <= limit else { return .failure(.unusable("is too large (\(info.st_size) bytes)")) }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unusable("cannot be opened (\(String(cString: strerror(errno))))")) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, kind(info.st_mode) == nil else { return .failure(.unusable("is not a regular file")) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let n = bytes[count...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return .failure(.unusable("cannot be read (\(String(cString: strerror(errno))))")) }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { return .failure(.unusable("is too large")) }
        return .success(Array(bytes[..<count]))
    }

    /// Writes `bytes` beside `path` and renames it into place (a link, FIFO or folder there is replaced,
    /// never written through).
    public static func replace(_ path: String, with bytes: [UInt8]) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = "\(directory)/.\((path as NSString).lastPathComponent).\(getpid()).\(RandomToken.hex(bytes: 4)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                written += n
            }
            return true
        }
        guard ok, close(fd) == 0 else { unlink(temporary); throw CocoaError(.fileWriteUnknown) }
        if rename(temporary, path) != 0 {
            // A folder (or anything rename cannot replace) in the way: removed, then renamed again.
            try? FileManager.default.removeItem(atPath: path)
            guard rename(temporary, path) == 0 else { unlink(temporary); throw CocoaError(.fileWriteUnknown) }
        }
    }
}
