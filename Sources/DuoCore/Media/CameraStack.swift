/// The software stack a camera is reached through: the kernel's V4L2 directly, PipeWire (the desktop's
/// camera service, which a current GNOME or KDE desktop puts every camera behind), libcamera directly
/// (MIPI cameras that v4l2src cannot open), or the test hub's provider.
///
/// Thread: value type, Sendable; pure.
public enum CameraStack: String, Sendable, Equatable, CaseIterable {
    case v4l2
    case pipewire
    case libcamera
    /// The test hub's device provider (Sources/DuoTestHub): a V4L2-like camera played by a test source.
    case test = "duotest"

    /// How the stack is named to the user ("opened through PipeWire").
    public var displayName: String {
        switch self {
        case .v4l2: "V4L2"
        case .pipewire: "PipeWire"
        case .libcamera: "libcamera"
        case .test: "test provider"
        }
    }

    /// The GStreamer source element that opens a camera of this stack.
    public var sourceElement: String {
        switch self {
        case .v4l2: "v4l2src"
        case .pipewire: "pipewiresrc"
        case .libcamera: "libcamerasrc"
        case .test: "videotestsrc"
        }
    }
}

/// What the device monitor says about one camera, reduced to what duo-capture needs: its stack, the
/// identity that survives a replug, and what its source element is pointed at.
///
/// Thread: pure functions over values.
public enum CameraDeviceMapping {
    /// One device as the monitor reports it.
    public struct Device: Sendable, Equatable {
        /// The GstDevice's type name: "GstPipeWireDevice", "GstLibcameraDevice", "GstV4l2Device", ….
        public var typeName: String
        /// The name of its properties structure ("pipewire-proplist", …), nil when it has none
        /// (libcamera's devices carry no properties).
        public var propertiesName: String?
        public var properties: [String: String]
        /// The display name (libcamera: the camera's id, such as `\_SB_.PCI0.I2C2.CAM0`).
        public var displayName: String
        public init(typeName: String, propertiesName: String? = nil, properties: [String: String] = [:], displayName: String) {
            self.typeName = typeName
            self.propertiesName = propertiesName
            self.properties = properties
            self.displayName = displayName
        }
    }

    /// A device's stack, identity and target.
    public struct Mapped: Sendable, Equatable {
        public var stack: CameraStack
        /// The identity for PipeWire and libcamera cameras (`pipewire:NODE-NAME`, `libcamera:CAMERA-ID`);
        /// nil for V4L2 and test cameras, whose identity `CameraIdentity.assign` works out from udev's facts.
        public var identity: String?
        /// What the source element is pointed at: pipewiresrc's `target-object` (the node's name: the
        /// same when the camera comes back, unlike its serial) or libcamerasrc's `camera-name`.
        public var target: String?
        public init(stack: CameraStack, identity: String?, target: String?) {
            self.stack = stack
            self.identity = identity
            self.target = target
        }
    }

    /// The keys read from a device's properties (everything the mapping and `CameraIdentity` use).
    public static let propertyKeys = ["device.path", "device.serial", "device.bus_path", "v4l2.device.bus_info", "device.api",
                                      "duotest.pattern", "node.name", "object.serial", "object.path", "media.class"]

    public static func map(_ device: Device) -> Mapped {
        let p = device.properties
        // PipeWire's provider copies the node's properties, including `device.api = v4l2` for a camera
        // PipeWire itself opens with V4L2: the provider, not that key, says which stack opens it.
        if device.typeName == "GstPipeWireDevice" || device.propertiesName == "pipewire-proplist"
            || (p["device.path"] == nil && (nonEmpty(p["node.name"]) != nil || nonEmpty(p["object.serial"]) != nil)) {
            let target = nonEmpty(p["node.name"]) ?? nonEmpty(p["object.serial"])
            return Mapped(stack: .pipewire, identity: target.map { "pipewire:\($0)" } ?? "pipewire:\(device.displayName)", target: target)
        }
        if device.typeName == "GstLibcameraDevice" || p["device.api"] == "libcamera" {
            return Mapped(stack: .libcamera, identity: "libcamera:\(device.displayName)", target: device.displayName)
        }
        if p["device.api"] == CameraStack.test.rawValue { return Mapped(stack: .test, identity: nil, target: p["device.path"]) }
        return Mapped(stack: .v4l2, identity: nil, target: p["device.path"])
    }

    private static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
}

/// Which camera `--camera auto` opens: the one used last (remembered by identity), else a PipeWire
/// camera (on a current desktop every camera is there, MIPI ones included), else a V4L2 camera, else
/// one libcamera offers directly (a MIPI camera without PipeWire); with none, the caller falls back to
/// the simulated camera and says so in one line.
///
/// Thread: pure.
public enum DefaultCameraOrder {
    public struct Candidate: Sendable, Equatable {
        public var identity: String
        public var stack: CameraStack
        public init(identity: String, stack: CameraStack) {
            self.identity = identity
            self.stack = stack
        }
    }

    static let preference: [CameraStack] = [.pipewire, .v4l2, .test, .libcamera]

    /// The index of the camera to open, nil when there is none.
    public static func choose(_ cameras: [Candidate], remembered: String?) -> Int? {
        if let remembered, let i = cameras.firstIndex(where: { $0.identity == remembered }) { return i }
        for stack in preference {
            if let i = cameras.firstIndex(where: { $0.stack == stack }) { return i }
        }
        return nil
    }
}

/// Whether a PipeWire daemon can be reached, from the environment the way libpipewire finds it:
/// `$PIPEWIRE_REMOTE` (a socket name or path, default `pipewire-0`) under `$PIPEWIRE_RUNTIME_DIR`, else
/// `$XDG_RUNTIME_DIR`.
///
/// Thread: pure.
public enum PipeWireDaemonLocation {
    /// The socket a PipeWire client would connect to, nil when the environment names no runtime folder.
    public static func socketPath(_ environment: [String: String]) -> String? {
        let name = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        if name.hasPrefix("/") { return name }
        for key in ["PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR"] {
            if let dir = environment[key], !dir.isEmpty { return dir + "/" + name }
        }
        return nil
    }

    /// The one line said when PipeWire cannot be reached: what is still used and what to do.
    public static func notRunningNotice(_ environment: [String: String]) -> String {
        socketPath(environment).map {
            tr("no PipeWire daemon at %s; PipeWire cameras are not listed, V4L2 and simulated cameras still work (start pipewire and wireplumber for the desktop's cameras)", $0)
        } ?? tr("no PipeWire daemon (XDG_RUNTIME_DIR is not set); PipeWire cameras are not listed, V4L2 and simulated cameras still work (start pipewire and wireplumber for the desktop's cameras)")
    }
}

/// Which GStreamer device providers list cameras. PipeWire's and libcamera's providers in one process
/// corrupt the heap when the monitor stops (glibc: "tcache_thread_shutdown(): unaligned tcache chunk
/// detected", then abort; seen with PipeWire 0.3.65 and libcamera 0.0.3, also in gst-device-monitor-1.0).
/// So only one of them runs: PipeWire's when its daemon answers (it offers libcamera's cameras itself,
/// through WirePlumber), libcamera's when it does not.
///
/// Thread: pure.
public enum CameraProviderChoice {
    /// The device provider factories to switch off (GStreamer feature names).
    public static func providersToHide(pipeWireReachable: Bool) -> [String] {
        pipeWireReachable ? ["libcameraprovider"] : ["pipewiredeviceprovider"]
    }
}
