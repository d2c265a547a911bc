import DuoCore
import DuoMedia
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Events as JSON lines (`--events FILE`), one object per line with `event` and `t` (seconds since the
/// run started), written and flushed at once so tests and scripts can follow the file while it grows.
/// The other receivers (the control socket's clients, the web remote and OSC feedback) are taps that
/// get the typed event with its time (`RunEvent.Timed`) and encode or read what they need themselves.
///
/// Thread: any; the file and the tap sit behind a mutex (`Locked`), so writes are serialised.
final class EventLog: Sendable {
    /// The events file, opened for appending (-1 without one, or after a write failed), and what also
    /// receives every event (the control socket's clients).
    private struct State: Sendable {
        var fd: Int32 = -1
        var tap: (@Sendable (RunEvent.Timed) -> Void)?
        /// More receivers of every event (the web remote's pages and OSC feedback).
        var taps: [@Sendable (RunEvent.Timed) -> Void] = []
    }
    private let state = Locked(State())
    private let path: String?
    private let start = Date()
    private let warn: @Sendable (String) -> Void

    /// Opens `path` for appending with a plain open: a missing (or empty) file is created (mode 0644), an
    /// existing file is added to only when it already holds duo-capture events (its first line is a JSON
    /// object with an "event"), and anything else (another file, a device, FIFO, directory or symbolic
    /// link) is refused, never written to.
    init(path: String?, warn: @escaping @Sendable (String) -> Void = { _ in }) throws(DuoError) {
        self.path = path
        self.warn = warn
        guard let path else { return }
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw .usage(tr("--events %s exists and is not a regular file; give a new file or an events file to append to", path))
        }
        let opened = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard opened >= 0 else {
            throw .usage(tr("--events %s cannot be written (%s); give a writable file path", path, String(cString: strerror(errno))))
        }
        // Checked again on what was opened: the path may have changed between the two looks.
        guard fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(opened)
            throw .usage(tr("--events %s is not a regular file; give a new file or an events file to append to", path))
        }
        if info.st_size > 0 && !Self.holdsEvents(opened) {
            Glibc.close(opened)
            throw .usage(tr("--events %s holds something other than duo-capture events (its first line is no JSON event); give a new file or an events file to append to", path))
        }
        state.update { $0.fd = opened }
    }

    /// Whether the open file's first line (read from its start, at most 64 KiB) is a JSON object with an
    /// "event" string: what every line duo-capture writes is.
    private static func holdsEvents(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        let head = buffer[..<count]
        let first = head.prefix { $0 != 0x0A }
        guard let object = try? JSONSerialization.jsonObject(with: Data(first)) as? [String: Any] else { return false }
        return object["event"] is String
    }

    func setTap(_ tap: @escaping @Sendable (RunEvent.Timed) -> Void) { state.update { $0.tap = tap } }
    func addTap(_ tap: @escaping @Sendable (RunEvent.Timed) -> Void) { state.update { $0.taps.append(tap) } }

    /// Writes `event`, with its time since the run started, to the file and the debug log as one JSON
    /// line (`RunEvent.Timed.json`), and hands the typed value to the taps.
    func emit(_ event: RunEvent) {
        let now = state.value
        let (writing, tap, taps) = (now.fd >= 0, now.tap, now.taps)
        // Every event also goes to duo-capture's debug category (GST_DEBUG=duo-capture:5, --verbose).
        let debugging = Diagnostics.debugging
        guard writing || tap != nil || !taps.isEmpty || debugging else { return }
        let timed = RunEvent.Timed(event, t: (Date().timeIntervalSince(start) * 1000).rounded() / 1000)
        if writing || debugging {
            let data = timed.json
            if writing { append(data + Data("\n".utf8)) }
            if debugging { Diagnostics.debug("event \(String(decoding: data, as: UTF8.self))") }
        }
        tap?(timed)
        for other in taps { other(timed) }
    }

    /// One whole line per write (O_APPEND), or nothing: a line the disk had room for only part of is cut
    /// off again, so a reader never meets half an event. A failure (a full disk, a file that went away)
    /// stops the file, never the run: the events still reach the control clients.
    private func append(_ line: Data) {
        var failure: String?
        state.update { s in
            guard s.fd >= 0 else { return }
            let before = lseek(s.fd, 0, SEEK_END)
            let fd = s.fd
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written != line.count else { return }
            failure = written < 0 ? String(cString: strerror(errno)) : tr("the disk is full")
            if written > 0, before >= 0 { _ = ftruncate(fd, before) }
            Glibc.close(fd)
            s.fd = -1
        }
        if let failure {
            warn(tr("duo-capture: warning: --events %s: writing failed (%s); no more events go to the file", path ?? "", failure))
        }
    }

    func close() {
        state.update { s in
            if s.fd >= 0 { Glibc.close(s.fd) }
            s.fd = -1
        }
    }
}
