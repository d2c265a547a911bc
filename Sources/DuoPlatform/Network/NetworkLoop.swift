import CGLib
import DuoCore
import Foundation

/// The one event loop every network listener of the process runs on: one GLib main context, run by one
/// thread ("duo-capture network"). The control socket, the remote display's handshake, OSC (GSocket
/// sources, `StreamListener` and `DatagramListener`) and the web remote's libsoup server all live here,
/// so none of them needs a thread per client, and one slow client never holds up another.
///
/// Loop-side state (a listener's sockets and clients) is kept by the loop itself (`keep`) and reached
/// from other threads only through `async`/`sync`, by its `Resident` key; `resident` checks it is asked
/// on the loop's thread. Work queued with `async` runs in the order it was queued.
///
/// Thread: `async`, `sync`, `after` and `every` from any thread; `keep`, `resident` and `evict` only on
/// the loop's thread (checked).
// Unchecked: GLib documents g_main_context_invoke/g_source_attach as callable from any thread; the
// resident table is only touched on the loop's thread, and each access checks `isCurrent`.
public final class NetworkLoop: @unchecked Sendable {
    /// The process's loop, started on first use; it runs for as long as the process does.
    public static let shared = NetworkLoop()

    /// A key to state the loop keeps (`keep`): Sendable, so other threads can name it in `async` work.
    public struct Resident: Sendable, Hashable {
        let key: Int
    }

    private let context: OpaquePointer
    private var residents: [Int: AnyObject] = [:]
    private var nextKey = 0

    private init() {
        context = g_main_context_new()
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            // The loop's context is this thread's default: libsoup and GIO's async calls made here attach
            // their sources to it.
            g_main_context_push_thread_default(context)
            let loop = g_main_loop_new(context, 0)
            ready.signal()
            g_main_loop_run(loop)
        }
        thread.name = "duo-capture network"
        thread.start()
        ready.wait()
    }

    /// Whether the caller is on the loop's thread.
    public var isCurrent: Bool { g_main_context_is_owner(context) != 0 }

    /// Runs `work` on the loop's thread, after the work queued before it (also when called there).
    public func async(_ work: @escaping @Sendable () -> Void) {
        let source = g_idle_source_new()
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        attach(source, once: work)
    }

    /// Runs `work` on the loop's thread and waits for it (at once when already there).
    public func sync<Value: Sendable>(_ work: @escaping @Sendable () -> Value) -> Value {
        if isCurrent { return work() }
        let result = Locked<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        async {
            result.set(work())
            done.signal()
        }
        done.wait()
        return result.value!
    }

    /// Runs `work` once on the loop's thread after `seconds`.
    public func after(_ seconds: Double, _ work: @escaping @Sendable () -> Void) {
        attach(g_timeout_source_new(guint(max(0, seconds * 1000).rounded())), once: work)
    }

    /// Runs `work` on the loop's thread every `seconds` for as long as it returns true.
    public func every(_ seconds: Double, _ work: @escaping @Sendable () -> Bool) {
        let source = g_timeout_source_new(guint(max(1, seconds * 1000).rounded()))
        g_source_set_callback(source, { data in CallbackBox<@Sendable () -> Bool>.value(data!)() ? 1 : 0 },
                              CallbackBox(work).retainedPointer(), { CallbackBoxes.release($0) })
        g_source_attach(source, context)
        g_source_unref(source)
    }

    private func attach(_ source: UnsafeMutablePointer<GSource>?, once work: @escaping @Sendable () -> Void) {
        g_source_set_callback(source, { data in
            CallbackBox<@Sendable () -> Void>.value(data!)()
            return 0
        }, CallbackBox(work).retainedPointer(), { CallbackBoxes.release($0) })
        g_source_attach(source, context)
        g_source_unref(source)
    }

    /// Attaches a GSocket's source (made by `SocketWatch`) to the loop's context.
    func attach(_ source: UnsafeMutablePointer<GSource>) {
        g_source_attach(source, context)
    }

    // MARK: State the loop keeps

    /// Keeps `object` until `evict`; on the loop's thread.
    public func keep(_ object: AnyObject) -> Resident {
        precondition(isCurrent, "NetworkLoop.keep off the network thread")
        nextKey += 1
        residents[nextKey] = object
        return Resident(key: nextKey)
    }

    /// The object kept under `resident`, if it is still kept and of that type; on the loop's thread.
    public func resident<Object: AnyObject>(_ resident: Resident, as _: Object.Type = Object.self) -> Object? {
        precondition(isCurrent, "NetworkLoop.resident off the network thread")
        return residents[resident.key] as? Object
    }

    /// Lets go of the object kept under `resident`; on the loop's thread.
    public func evict(_ resident: Resident) {
        precondition(isCurrent, "NetworkLoop.evict off the network thread")
        residents[resident.key] = nil
    }
}

/// A GSocket's readiness (`g_socket_create_source`) calling a Swift closure on the network loop, until
/// `cancel` (or the closure returns false).
///
/// Thread: made, called and cancelled on the network loop's thread.
final class SocketWatch {
    private let source: UnsafeMutablePointer<GSource>

    private final class Handler {
        let body: (GIOCondition) -> Bool
        init(_ body: @escaping (GIOCondition) -> Bool) { self.body = body }
    }

    init(_ socket: UnsafeMutablePointer<GSocket>, _ condition: GIOCondition, on loop: NetworkLoop,
         _ body: @escaping (GIOCondition) -> Bool) {
        source = g_socket_create_source(socket, condition, nil)
        let callback: @convention(c) (UnsafeMutablePointer<GSocket>?, GIOCondition, gpointer?) -> gboolean = { _, condition, data in
            Unmanaged<Handler>.fromOpaque(data!).takeUnretainedValue().body(condition) ? 1 : 0
        }
        g_source_set_callback(source, unsafeBitCast(callback, to: GSourceFunc.self),
                              Unmanaged.passRetained(Handler(body)).toOpaque(),
                              { Unmanaged<AnyObject>.fromOpaque($0!).release() })
        loop.attach(source)
    }

    func cancel() { g_source_destroy(source) }

    deinit {
        g_source_destroy(source)
        g_source_unref(source)
    }
}

/// GIO's conditions and errors, in Swift.
enum GIO {
    static let readable = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
    static let writable = GIOCondition(rawValue: G_IO_OUT.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)

    /// Whether `error` says the call would have blocked (frees it either way).
    static func wouldBlock(_ error: inout UnsafeMutablePointer<GError>?) -> Bool {
        defer { if let e = error { g_error_free(e); error = nil } }
        guard let e = error else { return false }
        return e.pointee.domain == g_io_error_quark() && e.pointee.code == Int32(G_IO_ERROR_WOULD_BLOCK.rawValue)
    }

    /// The message of `error`, freed.
    static func message(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { if let e = error { g_error_free(e); error = nil } }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }

    /// A socket address's host as text (an IPv4-mapped IPv6 address as IPv4), and its port.
    static func describe(_ address: UnsafeMutablePointer<GSocketAddress>?) -> (host: String, port: Int) {
        guard let address, g_type_check_instance_is_a(UnsafeMutableRawPointer(address).assumingMemoryBound(to: GTypeInstance.self),
                                                      g_inet_socket_address_get_type()) != 0 else { return ("local", 0) }
        let inet = UnsafeMutableRawPointer(address).assumingMemoryBound(to: GInetSocketAddress.self)
        let port = Int(g_inet_socket_address_get_port(inet))
        guard let host = g_inet_socket_address_get_address(inet), let text = g_inet_address_to_string(host) else { return ("?", port) }
        defer { g_free(text) }
        var name = String(cString: text)
        if name.hasPrefix("::ffff:"), name.contains(".") { name.removeFirst("::ffff:".count) }
        return (name, port)
    }
}

/// Lines for a listener's clients (the run's events), posted from any thread and handed to the loop in
/// the order posted, a batch at a time: at most one drain is queued, and while the loop is busy at most
/// `limit` lines wait (the oldest go first). Never waits.
///
/// Thread: any.
public final class LoopOutbox: Sendable {
    public let limit: Int
    private let box = Locked<(lines: [String], scheduled: Bool, closed: Bool)>(([], false, false))

    public init(limit: Int) { self.limit = limit }

    /// Adds `line`; `drain` gets it on `loop` (with the lines posted before it and not yet drained).
    public func post(_ line: String, on loop: NetworkLoop, drain: @escaping @Sendable ([String]) -> Void) {
        let limit = self.limit
        let schedule = box.update { box -> Bool in
            guard !box.closed else { return false }
            box.lines.append(line)
            if box.lines.count > limit { box.lines.removeFirst(box.lines.count - limit) }
            guard !box.scheduled else { return false }
            box.scheduled = true
            return true
        }
        guard schedule else { return }
        let box = self.box
        loop.async {
            drain(box.update { box -> [String] in
                box.scheduled = false
                defer { box.lines.removeAll() }
                return box.lines
            })
        }
    }

    /// Takes no more lines; true the first time.
    @discardableResult
    public func close() -> Bool {
        box.update { box -> Bool in
            defer { box.closed = true }
            return !box.closed
        }
    }
}
