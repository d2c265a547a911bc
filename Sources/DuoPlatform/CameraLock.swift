import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One process owns a camera (the camera has one owner, as a capture session arbitrates it on the Duo): an exclusive `flock` on a file under
/// `$XDG_RUNTIME_DIR/duo-capture/`, holding the owner's pid. A second duo-capture asking for the same
/// device gets "camera X is in use by duo-capture pid N" instead of a cryptic "device busy" from V4L2.
/// The kernel drops the lock when the owner exits, even on SIGKILL, so a crash never leaves it stale.
///
/// Thread: created at start-up on the main task; released on deinit. Immutable, so Sendable as it is.
public final class CameraLock: Sendable {
    private let fd: Int32
    public let path: String

    /// The folder the locks live in (`directory`, else the runtime folder's), made when missing.
    private static func lockDirectory(_ directory: String?) throws(DuoError) -> String {
        let base = directory ?? defaultDirectory()
        do {
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .runtime(.text("cannot create %s for the camera lock; set XDG_RUNTIME_DIR to a writable folder", base))
        }
        return base
    }

    /// Takes the lock for `device`, or throws a runtime error naming the pid that holds it. `label` is how
    /// the camera is named in that error (default: the path).
    public convenience init(device: String, label: String? = nil, directory: String? = nil) throws(DuoError) {
        let base = try Self.lockDirectory(directory)
        // A camera is its device, however it is reached: a symbolic link (/dev/v4l/by-id/…), a hard link
        // or another node with the same device number all get the same lock.
        var info = stat()
        guard stat(device, &info) == 0 else {
            throw .usage(.text("camera %s does not exist; list cameras with: duo-capture cameras", label ?? device))
        }
        let kind = info.st_mode & S_IFMT
        let name = kind == S_IFCHR || kind == S_IFBLK
            ? "rdev-\(info.st_rdev)"
            : "ino-\(info.st_dev)-\(info.st_ino)"
        try self.init(lockFile: (base as NSString).appendingPathComponent("camera-\(name).lock"), label: label ?? device)
    }

    /// Takes the lock for a camera that has no device node of its own: a PipeWire node or a libcamera
    /// camera, by its identity (`pipewire:NODE-NAME`, `libcamera:ID`), which is the same in every process.
    public convenience init(identity: String, label: String? = nil, directory: String? = nil) throws(DuoError) {
        let base = try Self.lockDirectory(directory)
        // A file name from any identity: letters, digits, '-', '.' and '_' kept, every other byte as %XX.
        let safe = identity.utf8.map { b -> String in
            let c = Character(UnicodeScalar(b))
            return (c.isASCII && (c.isLetter || c.isNumber)) || c == "-" || c == "." || c == "_" ? String(c) : String(format: "%%%02X", b)
        }.joined()
        try self.init(lockFile: (base as NSString).appendingPathComponent("camera-id-\(safe.prefix(200)).lock"), label: label ?? identity)
    }

    private init(lockFile: String, label: String) throws(DuoError) {
        path = lockFile
        // The owner removes the file when it lets go, so a lock taken on a file that has just been removed
        // (or replaced) is no lock: take it again on the file that is there now.
        var attempts = 0
        while true {
            attempts += 1
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else {
                throw .runtime(.text("cannot open the camera lock %s; set XDG_RUNTIME_DIR to a writable folder", path))
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                close(fd)
                let who = holder.flatMap { Int($0) }.map { Said.text("duo-capture pid %s", $0) } ?? Said.text("another duo-capture")
                throw .runtime(.text("camera %s is in use by %s; stop it first or pick another --camera", label, who))
            }
            var held = stat(), current = stat()
            if fstat(fd, &held) == 0, stat(path, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev {
                ftruncate(fd, 0)
                let pid = "\(getpid())\n"
                _ = pid.withCString { write(fd, $0, strlen($0)) }
                self.fd = fd
                return
            }
            close(fd)
            guard attempts < 5 else {
                throw .runtime(.text("cannot take the camera lock %s: it keeps changing; try again", path))
            }
        }
    }

    /// Removes the lock file while still holding the lock, then lets go: nothing is left behind.
    deinit {
        unlink(path)
        flock(fd, LOCK_UN)
        close(fd)
    }

    static func defaultDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        let runtime = env["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/duo-capture-\(getuid())"
        return (runtime as NSString).appendingPathComponent("duo-capture")
    }
}
