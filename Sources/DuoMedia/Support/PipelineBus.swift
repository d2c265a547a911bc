import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  One way to read a pipeline's bus, for every graph of this module: a message popped and released
//  (BusMessage), a bus read until a handler is done or a deadline passes (a decode, a remux, a join, the
//  microphones' levels: `PipelineBus.read`), and a bus read on a thread of its own until it is cancelled
//  (the capture graph's BusWatch, a clip camera's player, the remote display's receiver: `BusThread`).
//  (The device monitors' buses are not read but drained by a sync handler: CameraWatch, MicrophoneWatch.)

/// One message taken from a bus, released with this object.
///
/// Thread: the thread that popped it (not Sendable; never kept past the handler that sees it).
final class BusMessage {
    let pointer: UnsafeMutablePointer<GstMessage>
    init(taking pointer: UnsafeMutablePointer<GstMessage>) { self.pointer = pointer }
    deinit { gst_message_unref(pointer) }

    /// `GST_MESSAGE_TYPE`.
    var type: GstMessageType { duo_message_type(pointer) }
    /// The object that posted it (borrowed from the message).
    var source: UnsafeMutablePointer<GstObject>? { duo_message_source(pointer) }
    /// The poster's name ("?" without one).
    var sourceName: String { source.flatMap { duo_object_name($0) }.map { String(cString: $0) } ?? "?" }

    /// An ERROR's or a WARNING's GError text, its debug detail and its "domain:code"; nil for any other
    /// message (`gst_message_parse_error` / `gst_message_parse_warning`).
    var problem: (message: String, debug: String, domainCode: String)? {
        let type = self.type
        guard type == GST_MESSAGE_ERROR || type == GST_MESSAGE_WARNING else { return nil }
        var error: UnsafeMutablePointer<GError>? = nil
        var debug: UnsafeMutablePointer<gchar>? = nil
        if type == GST_MESSAGE_ERROR { gst_message_parse_error(pointer, &error, &debug) } else { gst_message_parse_warning(pointer, &error, &debug) }
        defer { if let error { g_error_free(error) }; g_free(debug) }
        let text = error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unknown error"
        let domain = error.flatMap { g_quark_to_string($0.pointee.domain) }.map { String(cString: $0) } ?? ""
        return (text, debug.map { String(cString: $0) } ?? "", "\(domain):\(error.map { $0.pointee.code } ?? 0)")
    }

    /// Whether this is a bus's wake-up (`PipelineBus.wake`), which readers skip.
    fileprivate var isWake: Bool {
        type == GST_MESSAGE_APPLICATION && gst_message_has_name(pointer, PipelineBus.wakeName) != 0
    }
}

/// A pipeline's bus (`gst_element_get_bus`), released with this object.
///
/// Thread: any; GstBus is MT-safe. One reader at a time.
final class PipelineBus: Sendable {
    private let handle: MTSafePointer<GstBus>
    fileprivate static let wakeName = "duo-bus-wake"

    init(_ pipeline: ElementRef) { handle = MTSafePointer(gst_element_get_bus(pipeline.pointer)) }
    deinit { gst_object_unref(UnsafeMutableRawPointer(handle.raw)) }

    /// The next message of `kinds`, waiting at most `seconds` (nil: until one comes; 0: only one already
    /// there). Messages of other kinds popped meanwhile are dropped (`gst_bus_timed_pop_filtered`).
    func pop(_ kinds: GstMessageType = GST_MESSAGE_ANY, within seconds: Double?) -> BusMessage? {
        let timeout = seconds.map { GstClockTime(max(0, $0) * 1e9) } ?? GstClockTime.max
        return gst_bus_timed_pop_filtered(handle.raw, timeout, kinds).map(BusMessage.init(taking:))
    }

    /// Reads messages of `kinds`, each given to `handle`, until it returns false (then true), or until
    /// `deadline` passes (monotonic µs, `GStreamer.monotonicMicros`; then false). With `poll`, a wait
    /// lasts at most that many seconds, and `idle` runs after each wait that brought nothing (progress).
    @discardableResult
    func read(_ kinds: GstMessageType, until deadline: Int64, poll: Double? = nil, idle: () -> Void = {},
              _ handle: (BusMessage) -> Bool) -> Bool {
        while true {
            let left = Double(deadline - GStreamer.monotonicMicros()) / 1e6
            guard left > 0 else { return false }
            if let message = pop(kinds, within: min(left, poll ?? left)) {
                if !message.isWake, !handle(message) { return true }
            } else {
                idle()
            }
        }
    }

    /// Wakes a reader waiting without a timeout: posts a message of its own, which readers skip. A
    /// pipeline set to NULL leaves its bus flushing, which would drop it: the bus takes messages again
    /// for this one.
    func wake() {
        gst_bus_set_flushing(handle.raw, 0)
        gst_bus_post(handle.raw, gst_message_new_application(nil, gst_structure_new_empty(Self.wakeName)))
    }
}

/// Reads a bus on a thread of its own: each message of `kinds` goes to `handler`, in bus order, until
/// `handler` returns false or the reader is cancelled. The thread sleeps until a message comes (a cancel
/// posts one), instead of waking at intervals to look at a quiet bus.
///
/// Thread: owns one background thread; `handler` runs on it. `cancel` from any other thread.
final class BusThread: Sendable {
    private let bus: PipelineBus
    private let stopped = StopFlag(false)
    private let finished = DispatchSemaphore(value: 0)

    init(_ bus: PipelineBus, name: String, kinds: GstMessageType = GST_MESSAGE_ANY,
         handler: @escaping @Sendable (BusMessage) -> Bool) {
        self.bus = bus
        // The wake-up is an application message: always let it through.
        let mask = GstMessageType(rawValue: kinds.rawValue | GST_MESSAGE_APPLICATION.rawValue)
        let stopped = stopped, finished = finished
        let thread = Thread {
            defer { finished.signal() }
            while !stopped.isSet {
                guard let message = bus.pop(mask, within: nil) else { continue }
                if message.isWake || (kinds.rawValue & message.type.rawValue) == 0 { continue }
                if !handler(message) { return }
            }
        }
        thread.name = name
        thread.start()
    }

    /// Stops reading and, with `join`, waits until the thread has finished (no handler runs after).
    /// Idempotent; never from the handler itself.
    func cancel(join: Bool = true) {
        let first = stopped.update { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        bus.wake()
        if join { finished.wait() }
    }

    deinit { cancel() }
}
