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
/// Thread: any; its state is behind a mutex (`Locked`).
public final class ManualClock: RunClock, Sendable {
    private struct State: Sendable {
        var value: Int64
        var sleepers: [Int: (deadline: Int64, wake: CheckedContinuation<Void, Never>)] = [:]
        var nextSleeper = 0
    }
    private let state: Locked<State>

    public init(_ start: Int64 = 0) { state = Locked(State(value: start)) }
    public func now() -> Int64 { state.value.value }
    public func advance(byNanoseconds n: Int64) {
        var due: [CheckedContinuation<Void, Never>] = []
        state.update { s in
            s.value += n
            let ready = s.sleepers.filter { $0.value.deadline <= s.value }
            for key in ready.keys { s.sleepers[key] = nil }
            due = ready.map(\.value.wake)
        }
        for wake in due { wake.resume() }
    }
    public func advance(bySeconds s: Double) { advance(byNanoseconds: Int64(s * 1e9)) }

    /// How many tasks are waiting on this clock.
    public var sleeperCount: Int { state.value.sleepers.count }

    public func sleep(until deadline: Int64) async {
        var id = 0
        state.update { s in s.nextSleeper += 1; id = s.nextSleeper }
        let sleeper = id
        await withTaskCancellationHandler {
            await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
                var resumeNow = false
                state.update { s in
                    if s.value >= deadline || Task.isCancelled { resumeNow = true } else { s.sleepers[sleeper] = (deadline, wake) }
                }
                if resumeNow { wake.resume() }
            }
        } onCancel: {
            var wake: CheckedContinuation<Void, Never>?
            state.update { s in wake = s.sleepers.removeValue(forKey: sleeper)?.wake }
            wake?.resume()
        }
    }
}

public let nanosecondsPerSecond: Int64 = 1_000_000_000
