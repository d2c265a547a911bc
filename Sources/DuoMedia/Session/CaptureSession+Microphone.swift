import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  A named microphone's leg (`--audio NAME|id:NODE`): a bin of its own (Pipelines/microphone.gst) on the
//  audio mixer, which mixes it over a live silence. Lost, the leg is taken out and the silence goes on (the
//  take's sound track never stops, so the take decodes whole, in step with its video); back, a new leg
//  (another generation, `microphoneG`) joins the mixer. The run director decides when (MicrophoneHealth).
//
//   audiotestsrc (silence) ─▶ audio_mixer ─▶ convert ─▶ caps ─▶ level ─▶ tee "at"
//   microphoneG: pipewiresrc ─▶ … ─▶ queue ─┘  (attached, taken out, attached again)

extension CaptureSession {
    /// One attached leg: its bin and the mixer's pad it feeds.
    ///
    /// Thread: value type, owned by the session actor.
    struct MicrophoneLeg {
        let bin: ElementRef
        let output: PadRef
        let mixerPad: PadRef
        let generation: Int
        let counter: FrameCounter
    }

    /// Attaches a new leg for the named microphone (taking out the one in place first); in a playing graph
    /// it starts in step with it. Throws when the plan has no named microphone or the leg cannot be made.
    public func attachMicrophone() throws(DuoError) {
        guard let p = pipeline else { throw .runtime("the capture session is not running") }
        guard let mixer = p.child(.audioMixer) else { throw .runtime("the capture graph has no microphone mixer (--audio NAME)") }
        // The sound's own chain failed (the mixer, the level meter): its stream ended for good.
        guard !microphoneLost else { throw .runtime("the sound chain failed earlier in this run; the take goes on without sound") }
        detachMicrophone()
        microphoneGeneration += 1
        let generation = microphoneGeneration
        guard let description = try plan.microphoneDescription(generation: generation) else {
            throw .runtime("the sound is not a named microphone")
        }
        let bin = try TakeRecorder.parseBin(description, name: GraphElement.microphone(generation), what: "the microphone's leg",
                                            file: "microphone.gst")
        let last = GraphElement.microphoneQueue.forMicrophone(generation)
        guard let queue = bin.child(named: last), let target = queue.staticPad("src"),
              let ghost = gst_ghost_pad_new("src", target.pointer) else {
            throw .input("pipeline file microphone.gst must end with an element named {{name}}_queue")
        }
        gst_element_add_pad(bin.pointer, ghost)
        let output = PadRef(adopting: gst_object_ref(UnsafeMutableRawPointer(ghost)).assumingMemoryBound(to: GstPad.self))
        _ = gst_bin_add(duo_as_bin(p.pointer), bin.pointer)
        guard let mixerPadPointer = gst_element_request_pad_simple(mixer.pointer, "sink_%u") else {
            bin.setState(GST_STATE_NULL)
            _ = gst_bin_remove(duo_as_bin(p.pointer), bin.pointer)
            throw .runtime("the audio mixer gave no pad for the microphone")
        }
        let mixerPad = PadRef(adopting: mixerPadPointer)
        guard gst_pad_link(output.pointer, mixerPad.pointer) == GST_PAD_LINK_OK else {
            gst_element_release_request_pad(mixer.pointer, mixerPad.pointer)
            bin.setState(GST_STATE_NULL)
            _ = gst_bin_remove(duo_as_bin(p.pointer), bin.pointer)
            throw .runtime("the microphone's leg does not link to the audio mixer; check Pipelines/microphone.gst")
        }
        microphoneLeg = MicrophoneLeg(bin: bin, output: output, mixerPad: mixerPad, generation: generation, counter: FrameCounter(pad: target))
        _ = bin.syncStateWithParent()
    }

    /// Takes the microphone's leg out (stopped first, so no buffer is in flight when it leaves the mixer);
    /// the mixer goes on with the silence. Idempotent.
    public func detachMicrophone() {
        guard let leg = microphoneLeg else { return }
        microphoneLeg = nil
        leg.bin.setState(GST_STATE_NULL)
        _ = gst_pad_unlink(leg.output.pointer, leg.mixerPad.pointer)
        if let p = pipeline {
            if let mixer = p.child(.audioMixer) { gst_element_release_request_pad(mixer.pointer, leg.mixerPad.pointer) }
            _ = gst_bin_remove(duo_as_bin(p.pointer), leg.bin.pointer)
        }
    }

    /// Buffers the attached leg delivered (nil while none is attached, or without a named microphone).
    public var microphoneBuffers: Int64? { microphoneLeg?.counter.read().frames }

    /// A named microphone's graph keeps the system clock: a PipeWire source offers its own clock, and the
    /// graph must not lose its clock when the microphone's leg is taken out.
    func keepSystemClock(_ p: ElementRef) {
        guard plan.audio.microphoneNode != nil, let clock = gst_system_clock_obtain() else { return }
        gst_pipeline_use_clock(UnsafeMutableRawPointer(p.pointer).assumingMemoryBound(to: GstPipeline.self), clock)
        gst_object_unref(UnsafeMutableRawPointer(clock))
    }

    /// An error from a named microphone's leg: the leg goes (an older leg's late error is ignored), the
    /// silence goes on, and the director hears of the loss. False when the error is not a leg's.
    func microphoneLegFailed(source: String, bins: [String], message: String) -> Bool {
        guard plan.audio.microphoneNode != nil, let generation = FaultRouting.microphoneLeg(of: source, ancestors: bins) else { return false }
        guard generation == microphoneLeg?.generation else { return true }
        detachMicrophone()
        eventSink.yield(.microphoneLost("\(source): \(message)"))
        return true
    }
}
