import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// A camera the system offers (GstDeviceMonitor, class Video/Source).
///
/// Thread: value type, Sendable.
public struct DiscoveredCamera: Sendable, Equatable {
    public let name: String
    /// `device.path` (/dev/videoN) when the provider is V4L2 (the test provider's file); nil for other
    /// providers (PipeWire, libcamera).
    public let devicePath: String?
    public let modes: [CameraProfile.Mode]
    /// What the camera is known by when it comes and goes (`CameraIdentity`): serial, by-id name, port.
    public let identity: String
    /// `device.api`: "v4l2", "duotest" (the test provider), "pipewire", ….
    public let api: String?
    /// The test provider's videotestsrc pattern.
    public let testPattern: String?
    /// The stack that opens it (`CameraDeviceMapping`): V4L2, PipeWire, libcamera or the test provider.
    public var stack: CameraStack = .v4l2
    /// What the stack's source element is pointed at: PipeWire's node name, libcamera's camera id.
    public var target: String?

    public init(name: String, devicePath: String?, modes: [CameraProfile.Mode], identity: String? = nil,
                api: String? = "v4l2", testPattern: String? = nil) {
        self.name = name
        self.devicePath = devicePath
        self.modes = modes
        self.identity = identity ?? devicePath ?? name
        self.api = api
        self.testPattern = testPattern
    }

    /// The test provider's camera as the simulated camera that plays it (its element is a test source).
    public var simulatedProfile: CameraProfile {
        let id = identity.map { $0.isLetter || $0.isNumber || $0 == "-" ? String($0) : "_" }.joined()
        return CameraProfile(id: id, name: name, testPattern: testPattern ?? "smpte", modes: modes)
    }
}

/// Finds and probes real cameras. Everything here talks to devices, so it is only called at start-up or
/// from `duo-capture cameras`, never on a streaming thread.
///
/// Thread: any; each call is synchronous and self-contained.
public enum CameraDiscovery {
    /// Cameras present now, V4L2 ones (and test ones) first.
    public static func list() -> [DiscoveredCamera] {
        GStreamer.initialize()
        guard let monitor = gst_device_monitor_new() else { return [] }
        gst_device_monitor_add_filter(monitor, "Video/Source", nil)
        showAllProviders(monitor)
        guard gst_device_monitor_start(monitor) != 0 else { return [] }
        defer { retire(monitor) }
        return cameras(of: monitor).sorted { ($0.devicePath != nil ? 0 : 1) < ($1.devicePath != nil ? 0 : 1) }
    }

    /// PipeWire's and libcamera's providers hide V4L2's (the same camera twice, they say). duo-capture
    /// shows every stack, each camera with its own identity: with libcamera's plugin installed and no
    /// PipeWire running, a USB webcam would otherwise vanish from the list.
    static func showAllProviders(_ monitor: UnsafeMutablePointer<GstDeviceMonitor>) {
        gst_device_monitor_set_show_all_devices(monitor, 1)
    }

    /// Monitors running PipeWire's provider, kept started until the process ends (see `retire`); any
    /// device monitor (cameras, audio inputs) is retired here.
    private static let parked = Locked<[MTSafePointer<GstDeviceMonitor>]>([])

    /// Stops and releases a started monitor, except one running PipeWire's device provider: stopping
    /// that one (PipeWire 0.3.65) corrupts the heap as its thread ends (glibc: "tcache_thread_shutdown():
    /// unaligned tcache chunk detected", abort; seen in about one `duo-capture pipeline` in three, and
    /// never with the monitor left running). It is parked, started, until the process ends.
    static func retire(_ monitor: UnsafeMutablePointer<GstDeviceMonitor>) {
        if runsPipeWire(monitor) {
            parked.update { $0.append(MTSafePointer(monitor)) }
            return
        }
        gst_device_monitor_stop(monitor)
        gst_object_unref(UnsafeMutableRawPointer(monitor))
    }

    private static func runsPipeWire(_ monitor: UnsafeMutablePointer<GstDeviceMonitor>) -> Bool {
        guard let names = gst_device_monitor_get_providers(monitor) else { return false }
        defer { g_strfreev(names) }
        var i = 0
        while let name = names[i] {
            if String(cString: name) == "pipewiredeviceprovider" { return true }
            i += 1
        }
        return false
    }

    /// Switches device provider factories off for this process (rank NONE: a device monitor started
    /// afterwards does not use them). See `CameraProviderChoice`.
    public static func disableProviders(_ names: [String]) {
        GStreamer.initialize()
        for name in names {
            guard let factory = gst_device_provider_factory_find(name) else { continue }
            gst_plugin_feature_set_rank(factory, 0)
            gst_object_unref(UnsafeMutableRawPointer(factory))
        }
    }

    /// The device's GType name ("GstPipeWireDevice", "GstLibcameraDevice", …).
    private static func typeName(_ device: UnsafeMutablePointer<GstDevice>) -> String {
        let instance = UnsafeMutableRawPointer(device).assumingMemoryBound(to: GTypeInstance.self)
        guard let cls = instance.pointee.g_class, let name = g_type_name(cls.pointee.g_type) else { return "" }
        return String(cString: name)
    }

    /// The cameras a started device monitor sees now.
    static func cameras(of monitor: UnsafeMutablePointer<GstDeviceMonitor>) -> [DiscoveredCamera] {
        var devices: [UnsafeMutablePointer<GstDevice>] = []
        var node = gst_device_monitor_get_devices(monitor)
        let head = node
        while let n = node {
            devices.append(n.pointee.data.assumingMemoryBound(to: GstDevice.self))
            node = n.pointee.next
        }
        let cameras = describe(devices)
        g_list_free_full(head) { gst_object_unref($0) }
        return cameras
    }

    /// Devices as cameras, with identities assigned over all of them (so two alike are told apart).
    static func describe(_ devices: [UnsafeMutablePointer<GstDevice>]) -> [DiscoveredCamera] {
        let byId = byIdLinks()
        var facts: [CameraIdentity.Facts] = []
        var partial: [(name: String, path: String?, modes: [CameraProfile.Mode], api: String?, pattern: String?, mapped: CameraDeviceMapping.Mapped)] = []
        for device in devices {
            // A name from a USB descriptor is the device's to choose: shown escaped, never raw (an ESC in it
            // would reach the operator's terminal, the log and the HUD).
            let rawName = gst_device_get_display_name(device).map { p in defer { g_free(p) }; return String(cString: p) } ?? "camera"
            let name = TerminalText.escaped(rawName)
            var props: [String: String] = [:]
            var propertiesName: String?
            if let s = gst_device_get_properties(device) {
                propertiesName = gst_structure_get_name(s).map { String(cString: $0) }
                for key in CameraDeviceMapping.propertyKeys {
                    if let v = gst_structure_get_string(s, key) { props[key] = String(cString: v) }
                }
                gst_structure_free(s)
            }
            let mapped = CameraDeviceMapping.map(.init(typeName: typeName(device), propertiesName: propertiesName,
                                                       properties: props, displayName: rawName))
            var modes: [CameraProfile.Mode] = []
            if let caps = gst_device_get_caps(device) {
                if let s = gst_caps_to_string(caps) { modes = CapsDescription.modes(from: String(cString: s)); g_free(s) }
                gst_caps_unref(caps)
            }
            let path = mapped.stack == .pipewire || mapped.stack == .libcamera ? nil : props["device.path"]
            let real = path.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
            facts.append(CameraIdentity.Facts(serial: props["device.serial"],
                                              byIdNames: real.map { byId[$0] ?? [] } ?? [],
                                              busPath: props["device.bus_path"] ?? props["v4l2.device.bus_info"], path: path))
            partial.append((name, path, modes, mapped.stack == .v4l2 ? props["device.api"] : mapped.stack.rawValue, props["duotest.pattern"], mapped))
        }
        return zip(partial, CameraIdentity.assign(facts)).map { p, identity in
            var camera = DiscoveredCamera(name: p.name, devicePath: p.path, modes: p.modes, identity: p.mapped.identity ?? identity,
                                          api: p.api, testPattern: p.pattern)
            camera.stack = p.mapped.stack
            camera.target = p.mapped.target
            return camera
        }
    }

    /// `/dev/v4l/by-id` names by the device node each points at.
    private static func byIdLinks() -> [String: [String]] {
        let dir = "/dev/v4l/by-id"
        var links: [String: [String]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            let target = URL(fileURLWithPath: "\(dir)/\(name)").resolvingSymlinksInPath().path
            links[target, default: []].append(name)
        }
        return links
    }

    /// Opens a V4L2 device far enough (READY) to read its real caps, then closes it.
    public static func probeV4L2(_ device: String) throws(DuoError) -> [CameraProfile.Mode] {
        GStreamer.initialize()
        guard FileManager.default.fileExists(atPath: device) else {
            throw .usage(.text("camera %s does not exist; list cameras with: duo-capture cameras", device))
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
            throw .runtime(.text("cannot open camera %s; check that no other program uses it and that you may read it (group video)", device))
        }
        defer { gst_caps_unref(caps) }
        guard let text = gst_caps_to_string(caps) else { return [] }
        defer { g_free(text) }
        let modes = CapsDescription.modes(from: String(cString: text))
        guard !modes.isEmpty else {
            throw .runtime(.text("camera %s offers no raw or MJPEG video formats duo-capture can use", device))
        }
        return modes
    }
}
