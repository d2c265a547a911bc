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
            throw .usage("cannot open the display \(displayName); run with --headless to capture without windows")
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
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue()
            MainActor.assumeIsolated { box.body() }
            return 0  // G_SOURCE_REMOVE
        }, box, nil)
    }

    /// Runs `body` on the GTK thread and returns its result to an async caller, without blocking either.
    public static func perform<T: Sendable>(_ body: @escaping @MainActor @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            post { continuation.resume(returning: body()) }
        }
    }

    /// Calls `body` every `milliseconds` on the GTK thread for as long as it returns true.
    @MainActor
    public static func every(milliseconds: UInt32, _ body: @escaping @MainActor @Sendable () -> Bool) {
        let box = Unmanaged.passRetained(RepeatBox(body)).toOpaque()
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            let box = Unmanaged<RepeatBox>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.body() } ? 1 : 0
        }, box, { data in Unmanaged<RepeatBox>.fromOpaque(data!).release() })
    }

    private final class Box: @unchecked Sendable {
        let body: @MainActor @Sendable () -> Void
        init(_ body: @escaping @MainActor @Sendable () -> Void) { self.body = body }
    }
    private final class RepeatBox: @unchecked Sendable {
        let body: @MainActor @Sendable () -> Bool
        init(_ body: @escaping @MainActor @Sendable () -> Bool) { self.body = body }
    }
}

/// g_signal_connect for Swift: `handler` is a `@convention(c)` function that reaches its object through
/// the user-data pointer (an unretained reference; the object outlives its widgets).
///
/// Thread: GTK main thread.
@MainActor
func connect<Handler>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler, _ target: AnyObject) {
    g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self),
                          Unmanaged.passUnretained(target).toOpaque(), nil, GConnectFlags(rawValue: 0))
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The GtkWindow view of a widget created with gtk_window_new (GTK_WINDOW()).
    var asWindow: UnsafeMutablePointer<GtkWindow> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GtkWindow.self) }
    var asContainer: UnsafeMutablePointer<GtkContainer> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GtkContainer.self) }
    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}
