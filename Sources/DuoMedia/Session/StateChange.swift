import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  A state change that may block, off the actor that asked for it.
//
//   session actor ──start──▶ thread: gst_element_set_state(PLAYING) ── may block (pipewiresrc: ≤ 30 s)
//        │                                   │
//        ├── start-up bound, or stop() ──▶ interrupt: FLUSH_START up each camera source's pad
//        │                                   │        (its unlock: the source's wait ends, the change fails)
//        └──────────── awaits ◀──────────── result
//
//  pipewiresrc waits inside READY→PAUSED until PipeWire has agreed a format and started the stream, up to
//  30 s (PipeWire 0.3.65), and a node in a format the graph cannot take never gets there. Called on the
//  session actor, that wait held every stop (a signal) and the start-up bound until it ended.

/// One `gst_element_set_state` run on a thread of its own, awaited by the session actor, which stays
/// free meanwhile to time it out or stop.
///
/// Thread: made on the session actor; the change runs on its own thread; `result` may be awaited from
/// any task, `interrupt` called from any thread.
final class PendingStateChange: Sendable {
    private struct State: Sendable {
        var result: UInt32?
        /// Given up on (`abandon`): the thread stops the element when the change returns.
        var abandoned = false
        var waiters: [UInt64: CheckedContinuation<UInt32?, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }
    private let state = Locked(State())

    /// Starts changing `element` to `target` on a new thread.
    init(_ element: ElementRef, to target: GstState) {
        let thread = Thread { [state] in
            let result = element.setState(target).rawValue
            let (waiters, abandoned) = state.update { s in
                s.result = result
                defer { s.waiters = [:] }
                return (Array(s.waiters.values), s.abandoned)
            }
            for waiter in waiters { waiter.resume(returning: result) }
            if abandoned { element.setState(GST_STATE_NULL) }
        }
        thread.name = "duo-state-change"
        thread.start()
    }

    /// Gives up on a change that has not returned: its thread stops the element (NULL) when it does.
    /// False when it had returned meanwhile (then nothing is given up: the caller stops the element).
    func abandon() -> Bool {
        state.update { s in
            guard s.result == nil else { return false }
            s.abandoned = true
            return true
        }
    }

    /// Whether the change has returned.
    var isDone: Bool { state.value.result != nil }

    /// The change's result once it returns; nil if it has not returned within `seconds` (nil: no bound).
    func result(within seconds: Double? = nil) async -> GstStateChangeReturn? {
        let raw: UInt32? = await withCheckedContinuation { continuation in
            let id: UInt64? = state.update { s in
                if s.result != nil { return nil }
                s.nextWaiter += 1
                s.waiters[s.nextWaiter] = continuation
                return s.nextWaiter
            }
            guard let id else { return continuation.resume(returning: state.value.result) }
            guard let seconds else { return }
            Task { [state] in
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                state.update { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
            }
        }
        return raw.map { GstStateChangeReturn(rawValue: $0) }
    }

    /// Ends a source's wait inside the change: a FLUSH_START sent up each source's `src` pad is its
    /// base class's unlock (pipewiresrc's wait for a format and for its stream both end on it), so the
    /// change fails at once instead of at the source's own timeout. A source still on its way to
    /// PAUSED clears that flag as it activates, so the event is sent again every 50 ms until the change
    /// returns (at most `seconds`). Sent from a thread of its own, as the unlock takes the source's locks.
    func interrupt(_ sources: [ElementRef], for seconds: Double = 3) {
        let thread = Thread { [state] in
            let deadline = Date().addingTimeInterval(seconds)
            while state.value.result == nil, Date() < deadline {
                for source in sources {
                    guard let pad = source.staticPad("src") else { continue }
                    _ = gst_pad_send_event(pad.pointer, gst_event_new_flush_start())
                }
                usleep(50_000)
            }
        }
        thread.name = "duo-interrupt"
        thread.start()
    }
}
