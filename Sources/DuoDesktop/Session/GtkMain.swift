import CGtk
import DuoCore

//  The GTK main loop and the two ways across it.
//
//  gtk_main() runs inside one MainActor job, for the whole desktop run. (On Linux, with an async main,
//  the main actor's queue is drained by a dispatch worker thread once the process's first thread has
//  parked in dispatchMain; GTK only needs every call on the thread that called gtk_init, which this is.)
//  While it runs, the main dispatch queue is not drained, so `await MainActor.run` and `Task { @MainActor }`
//  would never run: other threads reach the GTK thread only through `GtkMain.post` (g_idle_add), and GTK
//  callbacks reach the rest of the program through Sendable commands (AsyncStream continuations), never
//  by blocking.

/// Process-wide GTK set-up and cross-thread posting.
///
/// Thread: `initialize`, `run` and `quit` on the main thread; `post` from any thread.
public enum GtkMain {
    /// Opens the display. Throws a usage error suggesting `--headless` when there is none.
    @MainActor
    public static func initialize() throws(DuoError) {
        if gtk_init_check(nil, nil) == 0 {
            throw .usage(tr("cannot open the display %s; run with --headless to capture without windows", displayName))
        }
    }

    static var displayName: String {
        if let d = getenv("DISPLAY") { return String(cString: d) }
        if let w = getenv("WAYLAND_DISPLAY") { return String(cString: w) }
        return "(none)"
    }

    /// Runs the GTK main loop until `quit`. Blocks the main thread (and the main actor) meanwhile.
    @MainActor
    public static func run() { gtk_main() }

    @MainActor
    public static func quit() { gtk_main_quit() }

    /// Runs `body` on the GTK main thread at the next idle moment. Safe from any thread.
    public static func post(_ body: @escaping @MainActor @Sendable () -> Void) {
        typealias Body = @MainActor @Sendable () -> Void
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { data in
            let body = CallbackBox<Body>.value(data!)
            MainActor.assumeIsolated { body() }
            return 0  // G_SOURCE_REMOVE
        }, CallbackBox<Body>(body).retainedPointer(), { CallbackBoxes.release($0) })
    }

    /// Runs `body` on the GTK thread and returns its result to an async caller, without blocking either.
    public static func perform<T: Sendable>(_ body: @escaping @MainActor @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            post { continuation.resume(returning: body()) }
        }
    }

}

/// A value GTK handed to a callback (a widget, a cairo context, a button), carried into the main actor on
/// the same call: GTK runs its signal, draw and tick callbacks on its main thread.
///
/// Thread: made and read on the GTK main thread, within the one callback that received the value.
// Unchecked: GTK calls these callbacks on its main thread, and the value never leaves that call.
private struct CallbackArgument<Value>: @unchecked Sendable { let value: Value }

/// Runs `body` on the main actor with a value GTK passed to the current main-thread callback.
func onGtkThread<Value, Result: Sendable>(with value: Value, _ body: @MainActor (Value) -> Result) -> Result {
    let argument = CallbackArgument(value: value)
    return MainActor.assumeIsolated { body(argument.value) }
}

/// One signal handler on one GObject, connected for as long as this token lives: dropping it
/// disconnects the handler (and gives back the reference it holds on the object). `handler` is a
/// `@convention(c)` function that reaches its target through the user-data pointer, an unretained
/// reference: the target owns the tokens, so it outlives every handler.
///
/// Thread: made on the GTK main thread; may be dropped anywhere (GObject's signal calls are thread-safe).
// Unchecked: a GObject signal handler id and instance pointer; g_signal_handler_disconnect is thread-safe in C.
final class SignalConnection: @unchecked Sendable {
    private let instance: UnsafeMutableRawPointer
    private let id: gulong

    /// `after`: the handler runs after the signal's own (G_CONNECT_AFTER).
    init<Handler>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler, _ target: AnyObject, after: Bool = false) {
        self.instance = g_object_ref(instance)
        id = g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self),
                                   Unmanaged.passUnretained(target).toOpaque(), nil, GConnectFlags(rawValue: after ? 1 : 0))
    }

    deinit {
        // GObject's signal tables are thread-safe; the token is dropped on the GTK thread in practice.
        if g_signal_handler_is_connected(instance, id) != 0 { g_signal_handler_disconnect(instance, id) }
        g_object_unref(instance)
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The GtkWindow view of a widget created with gtk_window_new (GTK_WINDOW()).
    var asWindow: UnsafeMutablePointer<GtkWindow> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GtkWindow.self) }
    var asContainer: UnsafeMutablePointer<GtkContainer> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GtkContainer.self) }
    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }

    /// No pointer over this window (one on the subject's monitor: it would sit in front of the text).
    /// Realizes it first when it is not yet.
    func hidePointer() {
        gtk_widget_realize(self)
        if let window = gtk_widget_get_window(self), let display = gdk_display_get_default(),
           let blank = gdk_cursor_new_for_display(display, GDK_BLANK_CURSOR) {
            gdk_window_set_cursor(window, blank)
            g_object_unref(UnsafeMutableRawPointer(blank))
        }
    }
}
