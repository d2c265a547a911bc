import CDuoShim
import CGStreamer
import DuoCore

//  The screen track's source (`--screen`, Pipelines/screen-x11.gst): part of the graph from the start, its
//  elements named `screen_…`, ending in the screen tee "st" that each take's screen leg hangs off
//  (TakeRecorder). A failure of its own (the X server gone, a capture error) is its alone: the source is
//  stopped and its stream ended, so a take's muxer stops waiting for screen frames and the camera track,
//  the sound and the preview go on. On Wayland the source is the ScreenCast portal's stream, whose end
//  (the user stopped sharing) is silence: a watchdog in the branch turns 5 s of it into this failure.
//
//   ximagesrc ─▶ videorate ─▶ caps ─▶ tee "st" ─┬─▶ fakesink
//       ▲ a failure here: source stopped,        └─▶ take N's screen leg (ends with EOS, the take goes on)
//         EOS into the tee, one warning

/// The screen track's source and whether it failed.
///
/// Thread: the capture session's actor (a SideBranch).
final class ScreenBranch: SideBranch {
    private let pipeline: ElementRef
    private(set) var hasFailed = false

    init(pipeline: ElementRef) { self.pipeline = pipeline }

    /// The screen tee takes' screen legs attach to.
    var tee: ElementRef? { pipeline.child(.screenTee) }

    func owns(_ fault: GraphFault) -> Bool {
        ([fault.source] + fault.bins).contains { $0.hasPrefix("screen_") || $0 == GraphElement.screenTee.rawValue }
    }

    func failed(_ fault: GraphFault) -> SessionEvent? {
        guard !hasFailed else { return nil }
        hasFailed = true
        pipeline.child(.screenSource)?.setState(GST_STATE_NULL)
        if let sink = tee?.staticPad("sink") { duo_send_eos(sink.pointer) }
        // The watchdog (screen-pipewire.gst) speaks for a portal stream that went silent.
        if fault.source == "screen_watchdog" {
            return .screenStopped(N_("the ScreenCast portal's stream sent no picture for 5 s: screen sharing was stopped"))
        }
        return .screenStopped(fault.described)
    }
}
