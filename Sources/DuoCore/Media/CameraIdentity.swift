/// How a camera is known when it comes and goes: not by its `/dev/videoN` (a camera plugged back, or into
/// another port, gets another number) but by what the device says about itself.
///
/// Thread: pure functions over values.
public enum CameraIdentity {
    /// One device's facts, as the device monitor reports them.
    public struct Facts: Sendable, Equatable {
        /// `device.serial` (udev's ID_SERIAL: vendor, model and, when the device has one, its serial).
        public var serial: String?
        /// Names under `/dev/v4l/by-id/` that point at this device.
        public var byIdNames: [String]
        /// `device.bus_path` (udev's ID_PATH: the port it is plugged into), else `v4l2.device.bus_info`.
        public var busPath: String?
        /// `device.path`.
        public var path: String?
        public init(serial: String? = nil, byIdNames: [String] = [], busPath: String? = nil, path: String? = nil) {
            self.serial = serial
            self.byIdNames = byIdNames
            self.busPath = busPath
            self.path = path
        }
    }

    /// Each device's identity, in order: its serial where it has one, else its `/dev/v4l/by-id` name, else
    /// its bus path, else its device path. Two devices that would share one (two cameras of one model
    /// without serial numbers) are told apart by the port each is plugged into.
    public static func assign(_ devices: [Facts]) -> [String] {
        let base = devices.map { d in
            nonEmpty(d.serial) ?? d.byIdNames.sorted().first ?? nonEmpty(d.busPath) ?? nonEmpty(d.path) ?? "camera"
        }
        var counts: [String: Int] = [:]
        for id in base { counts[id, default: 0] += 1 }
        return zip(base, devices).map { id, d in
            guard counts[id, default: 0] > 1 else { return id }
            return "\(id)@\(nonEmpty(d.busPath) ?? nonEmpty(d.path) ?? "?")"
        }
    }

    private static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
}
