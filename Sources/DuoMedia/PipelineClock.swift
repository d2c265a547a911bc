import CGStreamer
import DuoCore
import Foundation

/// The capture graph's running time as a `RunClock`: what the run director counts countdowns, durations
/// and watchdogs in, so a take starts at the countdown's end in the same time its frames carry.
///
/// Before the graph runs (and after it stopped) the clock stands still at the last value it read.
///
/// Thread: any; a lock guards the pipeline reference and the last reading.
public final class PipelineClock: RunClock, @unchecked Sendable {
    private let lock = Lock()
    private var pipeline: ElementRef?
    private var last: Int64 = 0

    public init() {}

    func attach(_ pipeline: ElementRef) { lock.withLock { self.pipeline = pipeline } }
    func detach() { lock.withLock { pipeline = nil } }

    public func now() -> Int64 {
        lock.withLock {
            guard let p = pipeline else { return last }
            let t = gst_element_get_current_running_time(p.pointer)
            if t != GstClockTime.max { last = max(last, Int64(t)) }
            return last
        }
    }

    /// The pipeline clock runs at wall-clock rate (the system clock, or an audio device's), so the wait
    /// sleeps the remaining span and reads the clock again, until the deadline has passed.
    public func sleep(until deadline: Int64) async {
        while !Task.isCancelled {
            let remaining = deadline - now()
            if remaining <= 0 { return }
            try? await Task.sleep(nanoseconds: UInt64(min(remaining, 100_000_000)))
        }
    }
}
