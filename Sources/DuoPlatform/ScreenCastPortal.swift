import CGLib
import DuoCore
import Foundation

/// The desktop's screen-cast portal (`org.freedesktop.portal.ScreenCast`), the way to record a monitor on
/// Wayland (`--screen`): CreateSession → SelectSources (one monitor, the pointer drawn into the picture
/// when the portal offers it) → Start (where the desktop may ask the user which monitor) →
/// OpenPipeWireRemote, a PipeWire connection (a file descriptor) that reaches the chosen stream's node.
/// The graph then reads that node with `pipewiresrc fd=FD path=NODE` (Pipelines/screen-pipewire.gst).
///
/// The portal ends the cast when the bus connection that asked for it closes, so the connection is held
/// until the process ends (one reference kept, see `open`).
///
/// Thread: main task at start-up; it runs a private GLib main context of its own while it waits.
public enum ScreenCastPortal {
    /// The cast the portal started: a PipeWire connection and the stream's node, with the picture's size
    /// and place on the desktop when the portal says them.
    public struct Stream: Sendable, Equatable {
        public let fd: Int32
        public let node: UInt32
        public let width: Int?, height: Int?
        public let x: Int?, y: Int?
    }

    /// Why no cast could be had, in a few translated words; `missing` when there is no portal or no
    /// ScreenCast interface at all (the advice is then what to install).
    public struct Unavailable: Error, Sendable {
        public let why: String
        public let missing: Bool
        /// The user closed the portal's dialog.
        public var cancelled = false
    }


    static let interface = "org.freedesktop.portal.ScreenCast"

    /// Asks for one monitor's cast: `timeout` seconds for each step, `choiceTimeout` for Start (where the
    /// user may be picking the monitor in the portal's dialog).
    public static func open(timeout: Double = 30, choiceTimeout: Double = 120) -> Result<Stream, Unavailable> {
        let portal: DesktopPortal
        do { portal = try DesktopPortal() } catch { return .failure(Unavailable(why: error.why, missing: true)) }
        // Whether there is a ScreenCast portal at all, and which pointer modes it offers.
        let property = DesktopPortal.tuple([g_variant_new_string(interface), g_variant_new_string("AvailableCursorModes")])
        var cursorModes: UInt32 = 0
        switch portal.call("org.freedesktop.DBus.Properties", "Get", property, timeoutMs: Int32(timeout * 1000)) {
        case .failure(let failure):
            return .failure(Unavailable(why: tr("no ScreenCast portal on the session bus (%s)", failure.why), missing: true))
        case .success(let reply):
            if let boxed = g_variant_get_child_value(reply, 0) {
                if let value = g_variant_get_variant(boxed) {
                    if DesktopPortal.typeString(value) == "u" { cursorModes = g_variant_get_uint32(value) }
                    g_variant_unref(value)
                }
                g_variant_unref(boxed)
            }
            g_variant_unref(reply)
        }
        let what = tr("the ScreenCast portal")
        // CreateSession({handle_token, session_handle_token}) → {session_handle}
        let created = portal.request(interface, "CreateSession", timeout: timeout, what: what) { token in
            DesktopPortal.tuple([DesktopPortal.options([("handle_token", g_variant_new_string(token)),
                                                        ("session_handle_token", g_variant_new_string(portal.token()))])])
        }
        guard case .success(let createdResults) = created else { return .failure(unavailable(created)) }
        let handle = DesktopPortal.lookup(createdResults, "session_handle")
        g_variant_unref(createdResults)
        guard let handle, ["s", "o"].contains(DesktopPortal.typeString(handle)) else {
            if let handle { g_variant_unref(handle) }
            return .failure(Unavailable(why: tr("%s gave no session", what), missing: false))
        }
        let session = String(cString: g_variant_get_string(handle, nil))
        g_variant_unref(handle)
        // SelectSources(session, {types: monitor, multiple: false, cursor_mode: embedded when offered})
        var selection: [(String, OpaquePointer?)] = [("types", g_variant_new_uint32(1)), ("multiple", g_variant_new_boolean(0))]
        if cursorModes & 2 != 0 { selection.append(("cursor_mode", g_variant_new_uint32(2))) }
        let selected = portal.request(interface, "SelectSources", timeout: timeout, what: what) { token in
            DesktopPortal.tuple([g_variant_new_object_path(session), DesktopPortal.options(selection + [("handle_token", g_variant_new_string(token))])])
        }
        guard case .success(let selectedResults) = selected else { return .failure(unavailable(selected)) }
        g_variant_unref(selectedResults)
        // Start(session, parent_window "", {handle_token}) → {streams: a(ua{sv})}
        let started = portal.request(interface, "Start", timeout: choiceTimeout, what: what) { token in
            DesktopPortal.tuple([g_variant_new_object_path(session), g_variant_new_string(""),
                                 DesktopPortal.options([("handle_token", g_variant_new_string(token))])])
        }
        guard case .success(let startedResults) = started else { return .failure(unavailable(started)) }
        defer { g_variant_unref(startedResults) }
        guard let streams = DesktopPortal.lookup(startedResults, "streams") else {
            return .failure(Unavailable(why: tr("%s started no stream", what), missing: false))
        }
        defer { g_variant_unref(streams) }
        guard DesktopPortal.typeString(streams) == "a(ua{sv})", g_variant_n_children(streams) > 0,
              let first = g_variant_get_child_value(streams, 0) else {
            return .failure(Unavailable(why: tr("%s started no stream", what), missing: false))
        }
        defer { g_variant_unref(first) }
        let nodeValue = g_variant_get_child_value(first, 0)
        let node = nodeValue.map { g_variant_get_uint32($0) } ?? 0
        if let nodeValue { g_variant_unref(nodeValue) }
        let properties = g_variant_get_child_value(first, 1)
        defer { if let properties { g_variant_unref(properties) } }
        let size = pair(properties, "size"), position = pair(properties, "position")
        // OpenPipeWireRemote(session, {}) → (h), the descriptor in the reply's fd list.
        var error: UnsafeMutablePointer<GError>?
        var fds: UnsafeMutablePointer<GUnixFDList>?
        let arguments = DesktopPortal.tuple([g_variant_new_object_path(session), DesktopPortal.options([])])
        guard let reply = g_dbus_connection_call_with_unix_fd_list_sync(
            portal.bus, DesktopPortal.service, DesktopPortal.objectPath, interface, "OpenPipeWireRemote", arguments, nil,
            G_DBUS_CALL_FLAGS_NONE, Int32(timeout * 1000), nil, &fds, nil, &error) else {
            defer { g_clear_error(&error) }
            return .failure(Unavailable(why: tr("%1$s gave no PipeWire connection (%2$s)", what, DesktopPortal.message(error)), missing: false))
        }
        defer { g_variant_unref(reply); if let fds { g_object_unref(UnsafeMutableRawPointer(fds)) } }
        let index = g_variant_get_child_value(reply, 0).map { v in defer { g_variant_unref(v) }; return g_variant_get_handle(v) } ?? Int32(-1)
        let fd = fds.map { g_unix_fd_list_get($0, index, &error) } ?? -1
        guard fd >= 0 else {
            defer { g_clear_error(&error) }
            return .failure(Unavailable(why: tr("%1$s gave no PipeWire connection (%2$s)", what, DesktopPortal.message(error)), missing: false))
        }
        // The cast lives as long as the bus connection that asked for it: one reference to it is kept
        // for the rest of the process (never released; the process's end closes it).
        _ = g_object_ref(UnsafeMutableRawPointer(portal.bus))
        return .success(Stream(fd: fd, node: node, width: size?.0, height: size?.1, x: position?.0, y: position?.1))
    }

    private static func unavailable(_ result: Result<OpaquePointer, DesktopPortal.Failure>) -> Unavailable {
        guard case .failure(let failure) = result else { return Unavailable(why: "", missing: false) }
        return Unavailable(why: failure.why, missing: false, cancelled: failure.cancelled)
    }

    /// An `(ii)` under `key` in a stream's properties.
    private static func pair(_ properties: OpaquePointer?, _ key: String) -> (Int, Int)? {
        guard let value = DesktopPortal.lookup(properties, key) else { return nil }
        defer { g_variant_unref(value) }
        guard DesktopPortal.typeString(value) == "(ii)", let a = g_variant_get_child_value(value, 0),
              let b = g_variant_get_child_value(value, 1) else { return nil }
        defer { g_variant_unref(a); g_variant_unref(b) }
        return (Int(g_variant_get_int32(a)), Int(g_variant_get_int32(b)))
    }
}
