import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// A camera the system offers (GstDeviceMonitor, class Video/Source).
///
/// Thread: value type, Sendable.
public struct DiscoveredCamera: Sendable, Equatable {
    public let name: String
    /// `device.path` (/dev/videoN) when the provider is V4L2; nil for other providers (PipeWire, libcamera).
    public let devicePath: String?
    public let modes: [CameraProfile.Mode]

    public init(name: String, devicePath: String?, modes: [CameraProfile.Mode]) {
        self.name = name
        self.devicePath = devicePath
        self.modes = modes
    }
}

/// Finds and probes real cameras. Everything here talks to devices, so it is only called at start-up or
/// from `duo-capture cameras`, never on a streaming thread.
///
/// Thread: any; each call is synchronous and self-contained.
public enum CameraDiscovery {
    /// Cameras present now, V4L2 ones first.
    public static func list() -> [DiscoveredCamera] {
        GStreamer.initialize()
        guard let monitor = gst_device_monitor_new() else { return [] }
        defer { gst_object_unref(UnsafeMutableRawPointer(monitor)) }
        gst_device_monitor_add_filter(monitor, "Video/Source", nil)
        guard gst_device_monitor_start(monitor) != 0 else { return [] }
        defer { gst_device_monitor_stop(monitor) }
        var cameras: [DiscoveredCamera] = []
        var node = gst_device_monitor_get_devices(monitor)
        let head = node
        while let n = node {
            let device = n.pointee.data.assumingMemoryBound(to: GstDevice.self)
            let name = gst_device_get_display_name(device).map { p in defer { g_free(p) }; return String(cString: p) } ?? "camera"
            var path: String?
            if let props = gst_device_get_properties(device) {
                path = gst_structure_get_string(props, "device.path").map { String(cString: $0) }
                gst_structure_free(props)
            }
            var modes: [CameraProfile.Mode] = []
            if let caps = gst_device_get_caps(device) {
                if let s = gst_caps_to_string(caps) { modes = CapsDescription.modes(from: String(cString: s)); g_free(s) }
                gst_caps_unref(caps)
            }
            cameras.append(DiscoveredCamera(name: name, devicePath: path, modes: modes))
            node = n.pointee.next
        }
        g_list_free_full(head) { gst_object_unref($0) }
        return cameras.sorted { ($0.devicePath != nil ? 0 : 1) < ($1.devicePath != nil ? 0 : 1) }
    }

    /// Opens a V4L2 device far enough (READY) to read its real caps, then closes it.
    public static func probeV4L2(_ device: String) throws(DuoError) -> [CameraProfile.Mode] {
        GStreamer.initialize()
        guard FileManager.default.fileExists(atPath: device) else {
            throw .usage("camera \(device) does not exist; list cameras with: duo-capture cameras")
        }
        guard GStreamer.hasElement("v4l2src") else {
            throw ElementPackages.missingElementError("v4l2src", neededFor: "V4L2 cameras")
        }
        guard let raw = gst_element_factory_make("v4l2src", nil) else {
            throw ElementPackages.missingElementError("v4l2src", neededFor: "V4L2 cameras")
        }
        let src = ElementRef(taking: raw)
        src.set("device", device)
        defer { src.setState(GST_STATE_NULL) }
        guard src.setState(GST_STATE_READY) != GST_STATE_CHANGE_FAILURE, let pad = src.staticPad("src"),
              let caps = gst_pad_query_caps(pad.pointer, nil) else {
            throw .runtime("cannot open camera \(device); check that no other program uses it and that you may read it (group video)")
        }
        defer { gst_caps_unref(caps) }
        guard let text = gst_caps_to_string(caps) else { return [] }
        defer { g_free(text) }
        let modes = CapsDescription.modes(from: String(cString: text))
        guard !modes.isEmpty else {
            throw .runtime("camera \(device) offers no raw or MJPEG video formats duo-capture can use")
        }
        return modes
    }
}
