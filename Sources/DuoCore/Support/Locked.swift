import Synchronization

/// A value shared across threads behind a mutex (the standard library's `Mutex`, so the compiler sees
/// it is safe: no `@unchecked`). The one locked-value type: flags read on streaming threads, an end that
/// arrived for the run director, anything set on one thread and read on another.
///
/// Thread: any.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    public init(_ value: Value) { mutex = Mutex(value) }
    public var value: Value { mutex.withLock { $0 } }
    public func set(_ value: Value) { mutex.withLock { $0 = value } }
    /// Reads and changes the value in one step; returns what `body` returns.
    @discardableResult
    public func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}

/// A flag set once, read from another thread.
///
/// Thread: any.
public typealias StopFlag = Locked<Bool>
extension Locked<Bool> {
    public convenience init() { self.init(false) }
    public var isSet: Bool { value }
    public func set() { set(true) }
}
