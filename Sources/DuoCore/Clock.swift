/// Time as duo-capture's models see it: nanoseconds on a monotonic timeline. Production code passes the
/// pipeline's running time; tests pass a `ManualClock` and step it, so models are tested without sleeping.
///
/// Thread: implementations must be safe to call from any thread.
public protocol MonotonicClock: Sendable {
    func now() -> Int64
}

/// A clock a run can also wait on: the run director's countdown, duration and watchdog deadlines.
///
/// Thread: implementations must be safe to call from any thread and any task.
public protocol RunClock: MonotonicClock {
    /// Returns once `now() >= deadline`, or early when the calling task is cancelled.
    func sleep(until deadline: Int64) async
}

/// A clock tests move by hand; sleepers wake when `advance` passes their deadline, never by themselves.
///
/// Thread: lock-protected; any thread.
public final class ManualClock: RunClock, @unchecked Sendable {
    private var value: Int64
    private var sleepers: [Int: (deadline: Int64, wake: CheckedContinuation<Void, Never>)] = [:]
    private var nextSleeper = 0
    private let lock = Lock()

    public init(_ start: Int64 = 0) { value = start }
    public func now() -> Int64 { lock.withLock { value } }
    public func advance(byNanoseconds n: Int64) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            value += n
            let ready = sleepers.filter { $0.value.deadline <= value }
            for key in ready.keys { sleepers[key] = nil }
            return ready.map(\.value.wake)
        }
        for wake in due { wake.resume() }
    }
    public func advance(bySeconds s: Double) { advance(byNanoseconds: Int64(s * 1e9)) }

    /// How many tasks are waiting on this clock.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: Int64) async {
        let id = lock.withLock { () -> Int in nextSleeper += 1; return nextSleeper }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock { () -> Bool in
                    if value >= deadline || Task.isCancelled { return true }
                    sleepers[id] = (deadline, wake)
                    return false
                }
                if resumeNow { wake.resume() }
            }
        } onCancel: {
            let wake = lock.withLock { sleepers.removeValue(forKey: id)?.wake }
            wake?.resume()
        }
    }
}

public let nanosecondsPerSecond: Int64 = 1_000_000_000
