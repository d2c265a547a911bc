import CDuoShim
import CGStreamer
import DuoCore

/// What a frame counter saw on one pad.
public struct FrameCount: Sendable, Equatable, Codable {
    public var frames: Int64
    /// PTS of the first and last buffer, ns (nil before the first buffer).
    public var firstPTS: Int64?
    public var lastPTS: Int64?
    /// Largest step between consecutive PTS, ns: more than one frame interval means frames were lost.
    public var maxGap: Int64
    public var backwardSteps: Int64
    /// Whether the first buffer was a keyframe (not a delta unit); nil before the first buffer.
    public var firstIsKeyframe: Bool?

    public static let zero = FrameCount(frames: 0, firstPTS: nil, lastPTS: nil, maxGap: 0, backwardSteps: 0, firstIsKeyframe: nil)
}

/// A buffer probe that counts frames on a pad, in C on the streaming thread (see CDuoShim). The probe
/// is removed when the token is released.
///
/// Thread: the counter is written by the streaming thread with atomics; `read()` is safe from any thread.
public final class FrameCounter: @unchecked Sendable {
    private let pad: PadRef
    private let storage: UnsafeMutablePointer<DuoFrameCounter>
    private let probeID: gulong

    init(pad: PadRef) {
        self.pad = pad
        storage = duo_frame_counter_new()
        probeID = duo_attach_frame_counter(pad.pointer, storage)
    }

    public func read() -> FrameCount {
        var s = DuoFrameCounter()
        duo_frame_counter_snapshot(storage, &s)
        return FrameCount(
            frames: Int64(s.frames),
            firstPTS: s.first_pts >= 0 ? Int64(s.first_pts) : nil,
            lastPTS: s.last_pts >= 0 ? Int64(s.last_pts) : nil,
            maxGap: Int64(s.max_gap),
            backwardSteps: Int64(s.backwards),
            firstIsKeyframe: s.keyframe_first < 0 ? nil : s.keyframe_first == 1)
    }

    deinit {
        // The probe keeps its own reference until GStreamer has finished with it.
        gst_pad_remove_probe(pad.pointer, probeID)
        duo_frame_counter_unref(storage)
    }
}
