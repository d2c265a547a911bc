import CDuoShim
import CGStreamer
import DuoCore

/// The newest sample an `appsink` received, kept for a window to draw (`LatestPicture`): the operator
/// preview drawn by the operator window itself. Each sample's own caps say its size, so a size change
/// while playing (the window resized, fullscreen left, another monitor) is drawn right from its first
/// frame; gtksink in GStreamer 1.22 mapped new frames with the old video meta.
///
/// Thread: `new-sample` runs on the streaming thread; `withPicture` on the GTK thread; the slot is locked,
/// and the sample in it is a refcounted GstSample under `MTSafe`'s claim.
public final class AppSinkPicture: LatestPicture, Sendable {
    private struct Slot: Sendable {
        var sample: MTSafe<OpaquePointer>?
        var generation: UInt64 = 0
    }
    private let slot = Locked(Slot())
    private let sink: ElementRef

    init(sink: ElementRef) {
        self.sink = sink
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { appsink, data in
            guard let appsink, let data else { return GST_FLOW_OK }
            let picture = Unmanaged<AppSinkPicture>.fromOpaque(data).takeUnretainedValue()
            guard let sample = gst_app_sink_pull_sample(appsink) else { return GST_FLOW_OK }
            picture.store(sample)
            return GST_FLOW_OK
        }
        // The sink keeps an unretained pointer; the picture lives as long as the run (the face holds it).
        gst_app_sink_set_callbacks(UnsafeMutableRawPointer(sink.pointer).assumingMemoryBound(to: GstAppSink.self), &callbacks,
                                   Unmanaged.passRetained(self).toOpaque(), { data in
                                       if let data { Unmanaged<AppSinkPicture>.fromOpaque(data).release() }
                                   })
    }

    deinit {
        if let s = slot.value.sample { gst_sample_unref(s.raw) }
    }

    private func store(_ sample: OpaquePointer) {
        var old: MTSafe<OpaquePointer>?
        slot.update { s in
            old = s.sample
            s.sample = MTSafe(sample)
            s.generation &+= 1
        }
        if let old { gst_sample_unref(old.raw) }
    }

    public var generation: UInt64 { slot.value.generation }

    @discardableResult
    public func withPicture(_ body: (PictureBytes) -> Void) -> Bool {
        var held: OpaquePointer?
        slot.update { s in
            if let sample = s.sample { held = gst_sample_ref(sample.raw) }
        }
        guard let held else { return false }
        let sample = held
        defer { gst_sample_unref(sample) }
        guard let caps = gst_sample_get_caps(sample), let buffer = gst_sample_get_buffer(sample) else { return false }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0, info.finfo?.pointee.format == GST_VIDEO_FORMAT_BGRx else { return false }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else { return false }
        defer { gst_video_frame_unmap(&frame) }
        guard let data = frame.data.0 else { return false }
        let pts = buffer.pointee.pts
        body(PictureBytes(base: UnsafeRawPointer(data), width: Int(info.width), height: Int(info.height),
                          stride: Int(frame.info.stride.0), time: pts == UInt64.max ? -1 : Int64(pts)))
        return true
    }
}

extension PreparedGraph {
    /// The newest picture of the appsink named `name` (the operator preview's), for the window to draw.
    public func appSinkPicture(sink name: String) throws(DuoError) -> AppSinkPicture {
        guard let sink = pipeline.child(named: name) else {
            throw .input(.text("the desktop pipeline files must keep an appsink named %s; check Pipelines/", name))
        }
        guard sink.has("emit-signals") else {
            throw .input(.text("%s is not an appsink; check Pipelines/operator-desktop.gst", name))
        }
        return AppSinkPicture(sink: sink)
    }
}

extension CaptureSession {
    /// The operator preview's size, changed while playing (the window's new size): the branch's scaler
    /// makes every following frame that size, once, in the graph. Does nothing when the pictures have no
    /// one size (individual cameras) or there is no such capsfilter (headless).
    public func setOperatorPictureSize(width: Int, height: Int) {
        guard plan.picturesHaveOneSize, let filter = pipeline?.child(.operatorSize) else { return }
        let text = plan.operatorCaps((width, height))
        guard let caps = gst_caps_from_string(text) else { return }
        duo_set_caps(UnsafeMutableRawPointer(filter.pointer), "caps", caps)
        gst_caps_unref(caps)
    }
}
