import CGStreamer
import DuoCore

extension CaptureSession {
    /// pipewiresrc offers its own clock, and a pipeline picks it: its running time leapt ahead at the
    /// start (a 2 s run ended after 0.2 s of frames, seen with PipeWire 0.3.65), and durations,
    /// countdowns and watchdogs all count in it. With a PipeWire camera the pipeline keeps the system
    /// clock (the monotonic one every other camera runs on); pipewiresrc timestamps against it.
    func useSystemClockForPipeWire(_ pipeline: ElementRef) {
        let cameras = [plan.camera] + (plan.secondCamera.map { [$0] } ?? [])
        guard cameras.contains(where: { if case .service(.pipewire, _, _, _, _) = $0 { true } else { false } }) else { return }
        guard let clock = gst_system_clock_obtain() else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        gst_pipeline_use_clock(UnsafeMutableRawPointer(pipeline.pointer).assumingMemoryBound(to: GstPipeline.self), clock)
    }
}
