import CGLib
import DuoCore
import Foundation

/// Turns SIGINT, SIGTERM and SIGHUP into callbacks on the network loop's thread, instead of the default
/// abrupt exit.
///
/// GLib's unix signal sources install their `sigaction` handler before `init` returns, so a signal that
/// comes the instant after is never lost. (A dispatch signal source is armed later, on libdispatch's
/// manager thread, after the signal was set to SIG_IGN: on a loaded machine a SIGTERM in that window was
/// dropped, and a `report` meant to stop ran to its end.)
///
/// Thread: made and cancelled on the task that runs the command (not Sendable: it never leaves it);
/// handlers run on the network loop's thread (`NetworkLoop.shared`).
public final class SignalWatch {
    /// Set by `cancel`: the handler is not called any more, and the signals stay caught, so one that
    /// comes while the command finishes (its summary written) is ignored as before, never fatal. The
    /// sources stay attached for the process's life (one per signal and watch: a few).
    private let cancelled = Locked(false)

    /// Watches `signals` (GLib handles SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2 and SIGWINCH).
    public init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let loop = NetworkLoop.shared, cancelled = self.cancelled
        for s in signals {
            guard let source = g_unix_signal_source_new(s) else { continue }
            let call: @Sendable () -> Void = { if !cancelled.value { handler(s) } }
            g_source_set_callback(source, { data in
                CallbackBox<@Sendable () -> Void>.value(data!)()
                return 1   // G_SOURCE_CONTINUE: a second Ctrl-C is heard too
            }, CallbackBox(call).retainedPointer(), { CallbackBoxes.release($0) })
            loop.attach(source)
            g_source_unref(source)
        }
    }

    public func cancel() { cancelled.set(true) }
}
