/// Time as duo-capture's models see it: nanoseconds on a monotonic timeline. Production code passes the
/// pipeline's running time; tests pass a `ManualClock` and step it, so models are tested without sleeping.
///
/// Thread: implementations must be safe to call from any thread.
public protocol MonotonicClock: Sendable {
    func now() -> Int64
}

/// A clock tests move by hand. Thread: lock-protected; any thread.
public final class ManualClock: MonotonicClock, @unchecked Sendable {
    private var value: Int64
    private let lock = Lock()

    public init(_ start: Int64 = 0) { value = start }
    public func now() -> Int64 { lock.withLock { value } }
    public func advance(byNanoseconds n: Int64) { lock.withLock { value += n } }
    public func advance(bySeconds s: Double) { advance(byNanoseconds: Int64(s * 1e9)) }
}

public let nanosecondsPerSecond: Int64 = 1_000_000_000
