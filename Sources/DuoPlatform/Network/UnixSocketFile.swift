import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Unix stream socket's file (the control socket's): bound with mode 0600 from the start, never over
/// anything but a socket, and never over a live one (another run's). `StreamListener.unix` serves it.
///
/// Thread: call from any thread; blocking only for the probe of a socket already there.
public enum UnixSocketFile {
    /// Binds and listens at `path`, replacing a socket left over from a crash. `option` names the
    /// setting in the errors (such as `--control studio`).
    public static func listen(path: String, option: String, backlog: Int32 = 64) throws(DuoError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let pathBytes = Array(path.utf8) + [0]
        guard pathBytes.count <= capacity else {
            throw .usage(.text("%s: the socket path is longer than %s bytes; give a shorter one", option, capacity - 1))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            // Only a socket is ever removed: anything else at the path is the user's.
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw .usage(.text("%s: %s exists and is not a socket; give another path", option, path))
            }
            // A live socket belongs to another run; a dead one is left over from a crash and goes.
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { Glibc.close(probe) }
            if connectOrBind(probe, &address, bind: false) == 0 {
                throw .runtime(.text("control socket %s is in use by another duo-capture; give another --control", path))
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        // The socket's mode is set before bind, so the file is never there with the umask's wider mode
        // (Linux creates it from the socket's own mode; a test saw 0755 between bind and chmod).
        guard fd >= 0, fchmod(fd, 0o600) == 0, connectOrBind(fd, &address, bind: true) == 0, chmod(path, 0o600) == 0,
              Glibc.listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { Glibc.close(fd) }
            throw .usage(.text("%s: cannot open the socket %s (%s); give a writable path", option, path, reason))
        }
        return fd
    }

    private static func connectOrBind(_ fd: Int32, _ address: inout sockaddr_un, bind: Bool) -> Int32 {
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind ? Glibc.bind(fd, $0, length) : Glibc.connect(fd, $0, length)
            }
        }
    }
}
