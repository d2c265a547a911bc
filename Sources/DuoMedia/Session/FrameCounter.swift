import CDuoShim
import CGStreamer
import DuoCore

/// A buffer probe that counts frames on a pad, in C on the streaming thread (see CDuoShim). The probe
/// is removed when the token is released.
///
/// Thread: the counter is written by the streaming thread with atomics; `read()` is safe from any thread.
public final class FrameCounter: Sendable {
    private let pad: PadRef
    private let counter: MTSafePointer<DuoFrameCounter>
    private var storage: UnsafeMutablePointer<DuoFrameCounter> { counter.raw }
    private let probeID: gulong

    init(pad: PadRef, sampleLuma: Bool = false) {
        self.pad = pad
        let storage = duo_frame_counter_new()!
        counter = MTSafePointer(storage)
        duo_frame_counter_sample_luma(storage, sampleLuma ? 1 : 0)
        probeID = duo_attach_frame_counter(pad.pointer, storage)
    }

    public func read() -> FrameCount {
        var s = DuoFrameCounter()
        duo_frame_counter_snapshot(storage, &s)
        return FrameCount(
            frames: Int64(s.frames),
            firstPTS: s.first_pts >= 0 ? Int64(s.first_pts) : nil,
            firstArrivalMicros: s.first_arrival_us >= 0 ? Int64(s.first_arrival_us) : nil,
            lastPTS: s.last_pts >= 0 ? Int64(s.last_pts) : nil,
            maxGap: Int64(s.max_gap), minGap: s.min_gap >= 0 ? Int64(s.min_gap) : nil,
            backwardSteps: Int64(s.backwards),
            firstIsKeyframe: s.keyframe_first < 0 ? nil : s.keyframe_first == 1,
            lumaSample: s.luma_sample < 0 ? nil : Int(s.luma_sample),
            lumaMax: s.luma_max < 0 ? nil : Int(s.luma_max),
            capsChanges: Int64(s.caps_changes))
    }

    deinit {
        // The probe keeps its own reference until GStreamer has finished with it.
        gst_pad_remove_probe(pad.pointer, probeID)
        duo_frame_counter_unref(storage)
    }
}

/// A drawer attached to a pad: each I420 buffer is made writable, mapped and handed to `drawer` on the
/// streaming thread. The probe (and its retain of the drawer) goes away when the token is released.
///
/// Thread: created and released on the session actor; `drawer.draw` runs on the streaming thread.
final class FrameDrawerProbe: Sendable {
    private let pad: PadRef
    private let probeID: gulong

    init(pad: PadRef, drawer: any I420FrameDrawer) {
        self.pad = pad
        let context = CallbackBox<any I420FrameDrawer>(drawer).retainedPointer()
        probeID = duo_attach_i420_drawer(pad.pointer, { context, y, ys, u, us, v, vs, w, h, time in
            guard let context, let y, let u, let v else { return }
            CallbackBox<any I420FrameDrawer>.value(context)
                .draw(into: I420Planes(y: y, yStride: Int(ys), u: u, uStride: Int(us), v: v, vStride: Int(vs),
                                       width: Int(w), height: Int(h)), at: Int64(time))
        }, context, { CallbackBoxes.release($0) })
    }

    deinit { gst_pad_remove_probe(pad.pointer, probeID) }
}
