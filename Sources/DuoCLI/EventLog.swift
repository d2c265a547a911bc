import DuoCore
import Foundation

/// Events as JSON lines (`--events FILE`), one object per line with `event` and `t` (seconds since the
/// run started), written and flushed at once so tests and scripts can follow the file while it grows.
///
/// Thread: any; writes are serialised by a lock.
final class EventLog: @unchecked Sendable {
    private let handle: FileHandle?
    private let lock = Lock()
    /// Also receives every event line (the control socket's clients).
    private var tap: (@Sendable (String) -> Void)?
    private let start = Date()
    /// The event schema's version: every event carries it as `v` (docs/events.md).
    static let version = 1

    init(path: String?) throws(DuoError) {
        guard let path else { handle = nil; return }
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw .usage("--events \(path) cannot be written; give a writable file path")
        }
        handle = h
    }

    func setTap(_ tap: @escaping @Sendable (String) -> Void) { lock.withLock { self.tap = tap } }

    func emit(_ event: String, _ fields: [String: Any] = [:]) {
        let tap = lock.withLock { self.tap }
        guard handle != nil || tap != nil else { return }
        var object = fields
        object["event"] = event
        object["v"] = Self.version
        object["t"] = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        lock.withLock {
            handle?.write(data)
            handle?.write(Data("\n".utf8))
        }
        tap?(String(decoding: data, as: UTF8.self))
    }

    func close() {
        lock.withLock { try? handle?.close() }
    }
}
