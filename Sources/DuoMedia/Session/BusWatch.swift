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

/// Reads a pipeline's bus on a thread of its own (BusThread) and hands each parsed event to `handler`.
/// The watch runs until `cancel()` or deinit; both join the thread, so no callback runs after the token
/// is gone.
///
/// Thread: owns one background thread; `handler` is called on it, in bus order.
public final class BusWatch: Sendable {
    private let reader: BusThread

    init(pipeline: ElementRef, handler: @escaping @Sendable (BusEvent) -> Void) {
        let identity = pipeline.identity
        reader = BusThread(PipelineBus(pipeline), name: "duo-capture bus") { message in
            if let event = Self.parse(message, pipelineIdentity: identity) { handler(event) }
            return true
        }
    }

    private static func parse(_ message: BusMessage, pipelineIdentity: UInt) -> BusEvent? {
        let src = message.source
        let srcName = message.sourceName
        switch message.type {
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            guard let problem = message.problem else { return nil }
            let bins = src.map(Self.bins(of:)) ?? []
            if message.type == GST_MESSAGE_WARNING { return .warning(source: srcName, message: problem.message, bins: bins) }
            return .error(source: srcName, sourceIdentity: UInt(bitPattern: src), message: problem.message, debug: problem.debug,
                          domainCode: problem.domainCode, bins: bins)
        case GST_MESSAGE_EOS:
            return .endOfStream
        case GST_MESSAGE_ELEMENT:
            let message = message.pointer
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
            gst_message_parse_state_changed(message.pointer, &old, &new, &pending)
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
    public func cancel() { reader.cancel() }
}
