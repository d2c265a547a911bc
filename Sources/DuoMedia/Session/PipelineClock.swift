import CGStreamer
import DuoCore
import Foundation

/// The capture graph's running time as a `RunClock`: what the run director counts countdowns, durations
/// and watchdogs in, so a take starts at the countdown's end in the same time its frames carry.
///
/// Before the graph runs (and after it stopped) the clock stands still at the last value it read.
///
/// Thread: any; the pipeline reference and the last reading sit behind a mutex (`Locked`).
public final class PipelineClock: RunClock, Sendable {
    private struct State: Sendable {
        var pipeline: ElementRef?
        var last: Int64 = 0
    }
    private let state = Locked(State())

    public init() {}

    func attach(_ pipeline: ElementRef) { state.update { $0.pipeline = pipeline } }
    func detach() { state.update { $0.pipeline = nil } }

    public func now() -> Int64 {
        var reading: Int64 = 0
        state.update { s in
            if let p = s.pipeline {
                let t = gst_element_get_current_running_time(p.pointer)
                if t != GstClockTime.max { s.last = max(s.last, Int64(t)) }
            }
            reading = s.last
        }
        return reading
    }

    /// The pipeline clock runs at wall-clock rate (the system clock, or an audio device's) or stands
    /// still, never faster, so the wait sleeps the remaining span and reads the clock again, until the
    /// deadline has passed: one wake-up for a tick. Long waits (the run's end) wake once a second, in case
    /// the graph's running time ever jumps ahead.
    public func sleep(until deadline: Int64) async {
        while !Task.isCancelled {
            let remaining = deadline - now()
            if remaining <= 0 { return }
            try? await Task.sleep(nanoseconds: UInt64(min(remaining, 1_000_000_000)))
        }
    }
}
