import CGStreamer
import DuoCore

//  The capture session's clock: with a PipeWire camera or screen, or a named microphone, the graph keeps the system
//  clock rather than the one a PipeWire source offers.

extension CaptureSession {
    /// A named microphone's graph keeps the system clock: a PipeWire source offers its own clock, and the
    /// graph must not lose its clock when the microphone's leg is taken out.
    func keepSystemClock(_ p: ElementRef) {
        guard plan.audio.microphoneNode != nil, let clock = gst_system_clock_obtain() else { return }
        gst_pipeline_use_clock(UnsafeMutableRawPointer(p.pointer).assumingMemoryBound(to: GstPipeline.self), clock)
        gst_object_unref(UnsafeMutableRawPointer(clock))
    }

    /// pipewiresrc offers its own clock, and a pipeline picks it: its running time leapt ahead at the
    /// start (a 2 s run ended after 0.2 s of frames, seen with PipeWire 0.3.65), and durations,
    /// countdowns and watchdogs all count in it. With a PipeWire camera the pipeline keeps the system
    /// clock (the monotonic one every other camera runs on); pipewiresrc timestamps against it. So does
    /// the screen track's pipewiresrc on Wayland (seen the same: 17231 camera frames in a 10 s run).
    func useSystemClockForPipeWire(_ pipeline: ElementRef) {
        guard plan.usesPipeWire || plan.screenUsesPipeWire else { return }
        guard let clock = gst_system_clock_obtain() else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        gst_pipeline_use_clock(UnsafeMutableRawPointer(pipeline.pointer).assumingMemoryBound(to: GstPipeline.self), clock)
    }
}

extension GraphPlan {
    /// Whether a camera of this graph comes through PipeWire.
    var usesPipeWire: Bool { camera.isPipeWire || secondCamera?.isPipeWire == true }
    /// Whether its screen track is the ScreenCast portal's PipeWire stream (Wayland).
    var screenUsesPipeWire: Bool { if case .pipewire = screen?.source { true } else { false } }
}

extension CameraSource {
    var isPipeWire: Bool { if case .service(.pipewire, _, _, _, _) = self { true } else { false } }
}

extension PadRef {
    /// The mode the pad's current caps state (`320x240@30 YUY2`); nil before a format was agreed.
    var currentCapsMode: String? {
        guard let caps = gst_pad_get_current_caps(pointer) else { return nil }
        defer { gst_caps_unref(caps) }
        guard let text = gst_caps_to_string(caps) else { return nil }
        defer { g_free(text) }
        return CapsDescription.modes(from: String(cString: text)).first.map { "\($0.format) \($0.pixelFormat)" } ?? String(cString: text)
    }
}
