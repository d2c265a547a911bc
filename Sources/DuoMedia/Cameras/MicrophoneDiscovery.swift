import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// A sound source the system offers (GstDeviceMonitor, class Audio/Source).
///
/// Thread: value type, Sendable.
public struct DiscoveredMicrophone: Sendable, Equatable {
    /// The name people see (`node.description`), escaped for a terminal.
    public let name: String
    /// What it is known by when it comes and goes: PipeWire's `node.name` (never `object.serial`, which
    /// changes each time the node is made); another provider's device name.
    public let identity: String
    /// Whether PipeWire offers it (then `--audio NAME|id:` opens it with pipewiresrc).
    public let isPipeWire: Bool
    public init(name: String, identity: String, isPipeWire: Bool) {
        self.name = name
        self.identity = identity
        self.isPipeWire = isPipeWire
    }
}

/// Lists microphones and measures how loud each is now. Talks to devices, so only at start-up or from
/// `duo-capture microphones`, never on a streaming thread.
///
/// Thread: any; each call is synchronous and self-contained.
public enum MicrophoneDiscovery {
    /// Sound sources present now.
    public static func list() -> [DiscoveredMicrophone] {
        guard let monitor = shared.value?.raw else { return [] }
        return microphones(of: monitor)
    }

    /// One Audio/Source device monitor for the process, started at first use and never stopped: PipeWire
    /// 0.3.65's device provider corrupts the heap when it is stopped (seen as an abort in its thread's
    /// exit, at random), so duo-capture starts it once and leaves it to the process's end.
    static let shared = Locked<MTSafePointer<GstDeviceMonitor>?>({
        GStreamer.initialize()
        guard let monitor = gst_device_monitor_new() else { return nil }
        gst_device_monitor_add_filter(monitor, "Audio/Source", nil)
        guard gst_device_monitor_start(monitor) != 0 else {
            gst_object_unref(UnsafeMutableRawPointer(monitor))
            return nil
        }
        return MTSafePointer(monitor)
    }())

    static func microphones(of monitor: UnsafeMutablePointer<GstDeviceMonitor>) -> [DiscoveredMicrophone] {
        var found: [DiscoveredMicrophone] = []
        var node = gst_device_monitor_get_devices(monitor)
        let head = node
        while let n = node {
            let device = n.pointee.data.assumingMemoryBound(to: GstDevice.self)
            let name = gst_device_get_display_name(device).map { p in defer { g_free(p) }; return TerminalText.escaped(String(cString: p)) } ?? "microphone"
            var props: [String: String] = [:]
            if let s = gst_device_get_properties(device) {
                for key in ["node.name", "device.name", "alsa.card_name", "media.class"] {
                    if let v = gst_structure_get_string(s, key) { props[key] = String(cString: v) }
                }
                gst_structure_free(s)
            }
            // A monitor of an output (PipeWire lists sinks' monitors as sources) is not a microphone.
            if props["media.class"].map({ $0 != "Audio/Source" && $0.hasPrefix("Audio/Sink") }) ?? false { node = n.pointee.next; continue }
            let identity = props["node.name"] ?? props["device.name"] ?? name
            found.append(DiscoveredMicrophone(name: name, identity: identity, isPipeWire: props["node.name"] != nil))
            node = n.pointee.next
        }
        g_list_free_full(head) { gst_object_unref($0) }
        return found
    }

    /// Each PipeWire microphone's loudest peak over `seconds` (dBFS), by identity, all measured at once
    /// (`level` on each); one that delivered nothing in that time is missing from the result.
    public static func peaks(of microphones: [DiscoveredMicrophone], seconds: Double = 0.6) -> [String: Double] {
        let measured = microphones.filter(\.isPipeWire)
        guard !measured.isEmpty else { return [:] }
        GStreamer.initialize()
        let legs = measured.enumerated().map { i, m in
            "pipewiresrc target-object=\"\(AudioSource.launchQuoted(m.identity))\" client-name=duo-capture-microphones"
                + " ! audioconvert ! level name=peak\(i) interval=50000000 post-messages=true ! fakesink sync=false async=false"
        }
        var error: UnsafeMutablePointer<GError>? = nil
        guard let raw = gst_parse_launch(legs.joined(separator: "  "), &error) else { return [:] }
        if let error { g_error_free(error); gst_object_unref(UnsafeMutableRawPointer(raw)); return [:] }
        let pipeline = ElementRef(taking: raw)
        defer { pipeline.setState(GST_STATE_NULL) }
        guard pipeline.setState(GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else { return [:] }
        var peaks: [String: Double] = [:]
        PipelineBus(pipeline).read(GST_MESSAGE_ELEMENT, until: GStreamer.monotonicMicros() + Int64(seconds * 1e6)) { message in
            var rms = 0.0, peak = 0.0
            let name = message.sourceName
            guard duo_level_values(message.pointer, &rms, &peak) != 0, name.hasPrefix("peak"), let i = Int(name.dropFirst(4)),
                  i < measured.count else { return true }
            peaks[measured[i].identity] = max(peaks[measured[i].identity] ?? -.infinity, peak)
            return true
        }
        return peaks
    }
}

/// The named microphone coming and going while a run goes on: a started GstDeviceMonitor (Audio/Source),
/// read when the run looks, told by identity (`node.name`).
///
/// Thread: owned by the run director's actor; `present()` is called from its ticks (any thread is safe).
public final class MicrophoneWatch: Sendable {
    private let monitorHandle: MTSafePointer<GstDeviceMonitor>
    private let busHandle: MTSafePointer<GstBus>
    private let last = Locked<Bool?>(nil)
    public let identity: String

    /// Starts watching for `identity` (on the process's one Audio/Source monitor, MicrophoneDiscovery);
    /// nil when no device monitor can start. `wake` is called (on the provider's thread) when a source
    /// came or went, so the owner can look at once. One watch at a time: it owns the monitor's bus.
    public init?(identity: String, wake: (@Sendable () -> Void)? = nil) {
        guard let monitor = MicrophoneDiscovery.shared.value, let bus = gst_device_monitor_get_bus(monitor.raw) else { return nil }
        self.identity = identity
        monitorHandle = monitor
        busHandle = MTSafePointer(bus)
        _ = duo_bus_drain_device_changes(bus)
        if let wake {
            let context = CallbackBox<@Sendable () -> Void>(wake).retainedPointer()
            duo_bus_wake_on_device_changes(bus, { if let p = $0 { CallbackBox<@Sendable () -> Void>.value(p)() } }, context) { CallbackBoxes.release($0) }
        }
    }

    deinit {
        gst_bus_set_sync_handler(busHandle.raw, nil, nil, nil)
        gst_object_unref(UnsafeMutableRawPointer(busHandle.raw))
    }

    /// Whether the microphone is listed, when that changed since the last look (nil: no change). Reads
    /// the monitor's bus without waiting; `woken`: look even if the message is not queued yet.
    public func change(woken: Bool = false) -> Bool? {
        let changed = duo_bus_drain_device_changes(busHandle.raw) != 0
        guard changed || woken || last.value == nil else { return nil }
        let listed = MicrophoneDiscovery.microphones(of: monitorHandle.raw).contains { $0.identity == identity }
        let before = last.value
        last.set(listed)
        return before == listed ? nil : listed
    }
}
