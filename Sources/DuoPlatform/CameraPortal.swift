import CGLib
import DuoCore
import Foundation

/// The desktop's camera portal (`org.freedesktop.portal.Camera`), asked only inside a sandbox (Flatpak),
/// where it is the only way to the cameras: `AccessCamera`, then the user's answer on the request's
/// `Response` signal (0 granted, 1 refused, 2 otherwise ended).
///
/// Kept small and synchronous: one call at start-up, before cameras are listed. Not tested end to end
/// here (no portal service runs on the test machine); a session bus without a portal answers
/// `.unavailable`, which the tests see.
///
/// Thread: main task at start-up; it runs a private GLib main context of its own while it waits.
public enum CameraPortal {
    public enum Answer: Sendable, Equatable {
        case granted
        /// The user said no (or closed the dialog).
        case refused
        /// No portal, no session bus, or the request failed: why, in a few words.
        case unavailable(String)
    }

    /// Whether duo-capture runs in a sandbox whose cameras only the portal gives (Flatpak writes
    /// /.flatpak-info into every sandbox).
    public static var sandboxed: Bool { FileManager.default.fileExists(atPath: "/.flatpak-info") }

    /// Asks for the cameras and waits (at most `timeout` seconds) for the user's answer.
    public static func requestAccess(timeout: Double = 120) -> Answer {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            defer { g_clear_error(&error) }
            return .unavailable(tr("no session bus (%s)", message(error)))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        // The request's object path is known before the call (sender and token), so the answer cannot
        // arrive before we listen for it.
        let token = "duo_capture_\(getpid())_\(RandomToken.hex(bytes: 4))"
        let sender = g_dbus_connection_get_unique_name(bus).map { String(cString: $0) } ?? ""
        let path = "/org/freedesktop/portal/desktop/request/"
            + sender.dropFirst().replacingOccurrences(of: ".", with: "_") + "/" + token
        let box = ResponseBox()
        let unmanaged = Unmanaged.passRetained(box)
        defer { unmanaged.release() }
        let subscription = g_dbus_connection_signal_subscribe(
            bus, "org.freedesktop.portal.Desktop", "org.freedesktop.portal.Request", "Response", path, nil,
            G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                guard let parameters, let data else { return }
                let code = g_variant_get_child_value(parameters, 0)
                Unmanaged<ResponseBox>.fromOpaque(data).takeUnretainedValue().code = code.map { v in
                    defer { g_variant_unref(v) }
                    return g_variant_get_uint32(v)
                }
            }, unmanaged.toOpaque(), nil)
        defer { g_dbus_connection_signal_unsubscribe(bus, subscription) }
        // AccessCamera({"handle_token": <token>})
        let dictType = g_variant_type_new("a{sv}")
        let builder = g_variant_builder_new(dictType)
        g_variant_type_free(dictType)
        g_variant_builder_add_value(builder, g_variant_new_dict_entry(g_variant_new_string("handle_token"),
                                                                      g_variant_new_variant(g_variant_new_string(token))))
        var options: OpaquePointer? = g_variant_builder_end(builder)
        g_variant_builder_unref(builder)
        let arguments = g_variant_new_tuple(&options, 1)
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                                      "org.freedesktop.portal.Camera", "AccessCamera", arguments, nil,
                                                      G_DBUS_CALL_FLAGS_NONE, 10_000, nil, &error) else {
            defer { g_clear_error(&error) }
            return .unavailable(tr("the camera portal did not answer (%s)", message(error)))
        }
        g_variant_unref(reply)
        let deadline = Date().addingTimeInterval(timeout)
        while box.code == nil && Date() < deadline {
            if g_main_context_iteration(context, 0) == 0 { usleep(20_000) }
        }
        switch box.code {
        case 0: return .granted
        case 1: return .refused
        case nil: return .unavailable(tr("no answer from the camera portal within %s s", Int(timeout)))
        default: return .unavailable(tr("the camera portal ended the request"))
        }
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
    }

    /// The answer, written by the signal callback on this thread's context. Thread: the asking thread.
    // Unchecked: the signal callback runs in the asking thread's own main context, iterated by that
    // thread while it waits; the box never reaches another thread.
    private final class ResponseBox: @unchecked Sendable {
        var code: UInt32?
    }
}
