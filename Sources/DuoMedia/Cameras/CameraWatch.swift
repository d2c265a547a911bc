import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// Cameras coming and going while a run goes on: a started GstDeviceMonitor (Video/Source), whose bus is
/// read when the run looks (no thread of its own). A change is told by identity, so a camera pulled out
/// and plugged back at another /dev/videoN is the same camera.
///
/// Thread: owned by the run director's actor; `changes()` is called from its ticks (any thread is safe).
public final class CameraWatch: Sendable {
    public enum Change: Sendable, Equatable {
        case added(DiscoveredCamera)
        case removed(DiscoveredCamera)
    }

    private let monitorHandle: MTSafePointer<GstDeviceMonitor>
    private let busHandle: MTSafePointer<GstBus>
    private var monitor: UnsafeMutablePointer<GstDeviceMonitor> { monitorHandle.raw }
    private var bus: UnsafeMutablePointer<GstBus> { busHandle.raw }
    private let seen = Locked<[String: DiscoveredCamera]>([:])
    /// The cameras present at the last look, by identity.
    public var present: [String: DiscoveredCamera] { seen.value }

    /// Starts watching; nil when no device monitor can start (then nothing comes or goes). `wake` is
    /// called (on the provider's thread) when something came or went, so the owner can look at once.
    public init?(wake: (@Sendable () -> Void)? = nil) {
        GStreamer.initialize()
        guard let monitor = gst_device_monitor_new() else { return nil }
        gst_device_monitor_add_filter(monitor, "Video/Source", nil)
        CameraDiscovery.showAllProviders(monitor)
        guard gst_device_monitor_start(monitor) != 0, let bus = gst_device_monitor_get_bus(monitor) else {
            gst_object_unref(UnsafeMutableRawPointer(monitor))
            return nil
        }
        monitorHandle = MTSafePointer(monitor)
        busHandle = MTSafePointer(bus)
        if let wake {
            let context = CallbackBox<@Sendable () -> Void>(wake).retainedPointer()
            duo_bus_wake_on_device_changes(bus, { if let p = $0 { CallbackBox<@Sendable () -> Void>.value(p)() } }, context) { CallbackBoxes.release($0) }
        }
        let cameras = current()
        seen.update { present in for camera in cameras { present[camera.identity] = camera } }
    }

    deinit {
        // The wake goes with its owner; the monitor is stopped, or parked if PipeWire's provider runs in it.
        gst_bus_set_sync_handler(bus, nil, nil, nil)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        CameraDiscovery.retire(monitor)
    }

    /// What came and went since the last look (removals first). Reads the monitor's bus without waiting.
    /// `woken`: the wake said something changed, so look even if its message is not on the bus yet (the
    /// wake runs as the message is posted, before it is queued).
    public func changes(woken: Bool = false) -> [Change] {
        guard duo_bus_drain_device_changes(bus) != 0 || woken else { return [] }
        var now: [String: DiscoveredCamera] = [:]
        for camera in current() { now[camera.identity] = camera }
        let present = seen.value
        var result: [Change] = []
        for (id, camera) in present.sorted(by: { $0.key < $1.key }) where now[id] == nil || now[id]?.devicePath != camera.devicePath {
            result.append(.removed(camera))
        }
        for (id, camera) in now.sorted(by: { $0.key < $1.key }) where present[id] == nil || present[id]?.devicePath != camera.devicePath {
            result.append(.added(camera))
        }
        seen.set(now)
        return result
    }

    private func current() -> [DiscoveredCamera] { CameraDiscovery.cameras(of: monitor) }
}
