import CGLib
import DuoCore
import Foundation

/// A conversation with the desktop portal (`org.freedesktop.portal.Desktop`) on the session bus, shared
/// by the camera portal (CameraPortal) and the screen-cast portal (ScreenCastPortal): plain calls, and
/// requests whose answer comes later on the request's `Response` signal (`u` code: 0 done, 1 the user
/// cancelled, 2 otherwise ended; `a{sv}` results).
///
/// The request's object path is known before the call (the sender's unique name and a token), so the
/// answer cannot arrive before it is listened for. While waiting, the asking thread iterates a private
/// GLib main context of its own, pushed only while a request is under way (the conversation may be held
/// longer: ScreenCastPortal keeps its bus connection for the cast).
///
/// Thread: the asking thread only (made, used and released there).
final class DesktopPortal {
    /// Why the portal could not be reached or did not answer, in a few translated words.
    struct Failure: Error {
        let why: String
        /// The user said no (or closed the dialog): response code 1.
        var cancelled = false
    }

    static let service = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"

    /// The session bus (a GDBusConnection), held for this conversation.
    let bus: OpaquePointer
    private let context: OpaquePointer?
    private let sender: String
    private var requests = 0

    /// Connects to the session bus; `Failure` without one.
    init() throws(Failure) {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            defer { g_clear_error(&error) }
            throw Failure(why: tr("no session bus (%s)", Self.message(error)))
        }
        self.bus = bus
        context = g_main_context_new()
        sender = g_dbus_connection_get_unique_name(bus).map { String(cString: $0) } ?? ""
    }

    deinit {
        g_main_context_unref(context)
        g_object_unref(UnsafeMutableRawPointer(bus))
    }

    /// A fresh handle token, unique in this process.
    func token() -> String {
        requests += 1
        return "duo_capture_\(getpid())_\(requests)_\(RandomToken.hex(bytes: 4))"
    }

    /// Calls `interface.method(arguments)` on the portal and returns its reply (the caller unrefs it), or
    /// the bus's error message. `arguments` is consumed (a floating tuple).
    func call(_ interface: String, _ method: String, _ arguments: OpaquePointer?, timeoutMs: Int32 = 10_000) -> Result<OpaquePointer, Failure> {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(bus, Self.service, Self.objectPath, interface, method, arguments, nil,
                                                      G_DBUS_CALL_FLAGS_NONE, timeoutMs, nil, &error) else {
            defer { g_clear_error(&error) }
            return .failure(Failure(why: Self.message(error)))
        }
        return .success(reply)
    }

    /// Calls a method that answers through a request: `arguments(token)` builds the call's tuple (its
    /// options holding `handle_token` = token), then waits at most `timeout` seconds for the `Response`.
    /// Returns the response's results (`a{sv}`, the caller unrefs it) when its code is 0.
    func request(_ interface: String, _ method: String, timeout: Double, what: String,
                 _ arguments: (String) -> OpaquePointer?) -> Result<OpaquePointer, Failure> {
        let token = token()
        let path = "/org/freedesktop/portal/desktop/request/" + sender.dropFirst().replacingOccurrences(of: ".", with: "_") + "/" + token
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        let box = ResponseBox()
        let unmanaged = Unmanaged.passRetained(box)
        defer { unmanaged.release() }
        let subscription = g_dbus_connection_signal_subscribe(
            bus, Self.service, "org.freedesktop.portal.Request", "Response", path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                guard let parameters, let data else { return }
                let box = Unmanaged<ResponseBox>.fromOpaque(data).takeUnretainedValue()
                if let code = g_variant_get_child_value(parameters, 0) {
                    box.code = g_variant_get_uint32(code)
                    g_variant_unref(code)
                }
                box.results = g_variant_get_child_value(parameters, 1)
            }, unmanaged.toOpaque(), nil)
        defer { g_dbus_connection_signal_unsubscribe(bus, subscription) }
        switch call(interface, method, arguments(token)) {
        case .failure(let failure): return .failure(Failure(why: tr("%1$s did not answer (%2$s)", what, failure.why)))
        case .success(let reply): g_variant_unref(reply)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while box.code == nil && Date() < deadline {
            if g_main_context_iteration(context, 0) == 0 { usleep(20_000) }
        }
        switch box.code {
        case 0:
            guard let results = box.results else { return .failure(Failure(why: tr("%s gave no results", what))) }
            box.results = nil
            return .success(results)
        case 1: return .failure(Failure(why: tr("%s was cancelled", what), cancelled: true))
        case nil: return .failure(Failure(why: tr("no answer from %1$s within %2$s s", what, Int(timeout))))
        default: return .failure(Failure(why: tr("%s ended the request", what)))
        }
    }

    /// An options dictionary (`a{sv}`, floating) from keys and values (floating variants, consumed).
    static func options(_ entries: [(String, OpaquePointer?)]) -> OpaquePointer? {
        let dictType = g_variant_type_new("a{sv}")
        let builder = g_variant_builder_new(dictType)
        g_variant_type_free(dictType)
        for (key, value) in entries {
            g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        defer { g_variant_builder_unref(builder) }
        return g_variant_builder_end(builder)
    }

    /// A tuple (floating) of floating children.
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer? {
        var children = children
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// The value under `key` in an `a{sv}` dictionary (the caller unrefs it), or nil.
    static func lookup(_ dictionary: OpaquePointer?, _ key: String) -> OpaquePointer? {
        g_variant_lookup_value(dictionary, key, nil)
    }

    static func typeString(_ value: OpaquePointer?) -> String {
        value.flatMap { g_variant_get_type_string($0) }.map { String(cString: $0) } ?? ""
    }

    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
    }

    /// The answer, written by the signal callback on this thread's context. Thread: the asking thread.
    // Unchecked: the signal callback runs in the asking thread's own main context, iterated by that
    // thread while it waits; the box never reaches another thread.
    private final class ResponseBox: @unchecked Sendable {
        var code: UInt32?
        var results: OpaquePointer?
        deinit { if let results { g_variant_unref(results) } }
    }
}
