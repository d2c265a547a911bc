import CDuoShim
import CGStreamer
import DuoCore
import Foundation

/// What the pipeline's bus said, parsed on the bus thread into plain Sendable values so no GstMessage
/// crosses an isolation boundary.
public enum BusEvent: Sendable, Equatable {
    /// An element failed. `source` is the element's name, `sourceIdentity` its address (to tell which
    /// branch it belongs to), `domainCode` is "domain:code" of the GError.
    /// `bins` names the bins the element sits in, innermost first (the pipeline left out), read while the
    /// message still holds the element, so a late error from a branch being torn down (a take's `take<N>`,
    /// a remote display's, a recogniser's) is never mistaken for one from the live graph: `FaultRouting`
    /// tells its owner from them.
    case error(source: String, sourceIdentity: UInt, message: String, debug: String, domainCode: String, bins: [String])
    case warning(source: String, message: String, bins: [String])
    case endOfStream
    /// A child posted EOS (seen through `message-forward`); `sourceIdentity` is the element's address.
    case childEndOfStream(sourceIdentity: UInt)
    /// `level` element: first channel rms and peak in dB.
    case audioLevel(rmsDB: Double, peakDB: Double)
    /// The speech recogniser's hypothesis (voice-follow): the utterance's text so far, whether it ended,
    /// and the running time of the audio it reached (nil when the recogniser did not say).
    case speech(text: String, isFinal: Bool, audioTime: Int64?)
    /// A face detector (`facedetect`, framing hints) looked at a frame: each face as x, y, width, height
    /// in the detector's pixels, four numbers a face (empty: nobody); `detector` is its element's name.
    case faces([Int], detector: String)
    /// The top-level pipeline reached a state.
    case pipelineState(String)
}

/// Reads a pipeline's bus on a dedicated thread and hands each parsed event to `handler`. The watch runs
/// until `cancel()` or deinit; both join the thread, so no callback runs after the token is gone.
///
/// Thread: owns one background thread; `handler` is called on it, in bus order.
public final class BusWatch: Sendable {
    private let busHandle: MTSafePointer<GstBus>
    private var bus: UnsafeMutablePointer<GstBus> { busHandle.raw }
    private let pipelineIdentity: UInt
    private let handler: @Sendable (BusEvent) -> Void
    private let stopped = StopFlag(false)
    private let finished = DispatchSemaphore(value: 0)

    init(pipeline: ElementRef, handler: @escaping @Sendable (BusEvent) -> Void) {
        busHandle = MTSafePointer(gst_element_get_bus(pipeline.pointer))
        pipelineIdentity = pipeline.identity
        self.handler = handler
        let t = Thread { [unowned self] in self.run() }
        t.name = "duo-capture bus"
        t.start()
    }

    private var isStopped: Bool { stopped.value }

    private func run() {
        while !isStopped {
            // No timeout: the thread sleeps until a message comes (cancel() posts one), instead of waking
            // twenty times a second to look at a quiet bus.
            guard let message = gst_bus_timed_pop(bus, GstClockTime.max) else { continue }
            if let event = parse(message) { handler(event) }
            gst_message_unref(message)
        }
        finished.signal()
    }

    private func parse(_ message: UnsafeMutablePointer<GstMessage>) -> BusEvent? {
        let type = duo_message_type(message)
        let src = duo_message_source(message)
        let srcName = src.flatMap { duo_object_name($0) }.map { String(cString: $0) } ?? "?"
        switch type {
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>? = nil
            var debug: UnsafeMutablePointer<gchar>? = nil
            if type == GST_MESSAGE_ERROR { gst_message_parse_error(message, &error, &debug) } else { gst_message_parse_warning(message, &error, &debug) }
            defer { if let error { g_error_free(error) }; g_free(debug) }
            let text = error.flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "unknown error"
            let dbg = debug.map { String(cString: $0) } ?? ""
            let bins = src.map(Self.bins(of:)) ?? []
            if type == GST_MESSAGE_WARNING { return .warning(source: srcName, message: text, bins: bins) }
            let domain = error.flatMap { g_quark_to_string($0.pointee.domain) }.map { String(cString: $0) } ?? ""
            let code = error.map { $0.pointee.code } ?? 0
            return .error(source: srcName, sourceIdentity: UInt(bitPattern: src), message: text, debug: dbg,
                          domainCode: "\(domain):\(code)", bins: bins)
        case GST_MESSAGE_EOS:
            return .endOfStream
        case GST_MESSAGE_ELEMENT:
            if let eosSource = duo_forwarded_eos_source(message) {
                return .childEndOfStream(sourceIdentity: UInt(bitPattern: eosSource))
            }
            var rms = 0.0, peak = 0.0
            if duo_level_values(message, &rms, &peak) != 0 { return .audioLevel(rmsDB: rms, peakDB: peak) }
            var isFinal: gboolean = 0
            var timestamp: guint64 = 0
            if let text = duo_speech_hypothesis(message, &isFinal, &timestamp) {
                return .speech(text: String(cString: text), isFinal: isFinal != 0,
                               audioTime: timestamp == UInt64.max ? nil : Int64(clamping: timestamp))
            }
            var boxes = [guint](repeating: 0, count: 4 * 8)
            let count = duo_face_boxes(message, &boxes, 8)
            if count >= 0 { return .faces(boxes.prefix(Int(count) * 4).map { Int($0) }, detector: srcName) }
            return nil
        case GST_MESSAGE_STATE_CHANGED:
            guard UInt(bitPattern: src) == pipelineIdentity else { return nil }
            var old = GST_STATE_NULL, new = GST_STATE_NULL, pending = GST_STATE_NULL
            gst_message_parse_state_changed(message, &old, &new, &pending)
            return .pipelineState(String(cString: gst_element_state_get_name(new)))
        default:
            return nil
        }
    }

    /// The names of the bins `object` sits in, innermost first, without the top-level pipeline.
    private static func bins(of object: UnsafeMutablePointer<GstObject>) -> [String] {
        guard let path = gst_object_get_path_string(object) else { return [] }
        defer { g_free(path) }
        let names = String(cString: path).split(separator: "/").map { String($0.split(separator: ":").last ?? $0) }
        // The path runs pipeline … element: drop both ends.
        guard names.count > 2 else { return [] }
        return Array(names.dropFirst().dropLast().reversed())
    }

    /// Stops reading and waits for the bus thread to finish. Idempotent.
    public func cancel() {
        let first = stopped.update { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // A pipeline set to NULL leaves its bus flushing, which would drop the wake-up: the graph is over
        // by then, so the bus takes messages again for this last one.
        gst_bus_set_flushing(bus, 0)
        gst_bus_post(bus, gst_message_new_application(nil, gst_structure_new_empty("duo-bus-watch-stop")))
        finished.wait()
    }

    deinit {
        cancel()
        gst_object_unref(UnsafeMutableRawPointer(bus))
    }
}
