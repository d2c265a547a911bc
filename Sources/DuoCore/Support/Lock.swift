import Foundation

/// A small mutex for state shared with streaming threads, where an actor hop per frame would cost too much.
public final class Lock: Sendable {
    private let mutex = NSLock()
    public init() {}
    @inline(__always)
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}
