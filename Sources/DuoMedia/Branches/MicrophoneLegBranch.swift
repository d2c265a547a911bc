import CDuoShim
import CGStreamer
import DuoCore

//  A named microphone's leg (`--audio NAME|id:NODE`): a bin of its own (Pipelines/microphone.gst) on the
//  audio mixer, which mixes it over a live silence. Lost, the leg is taken out and the silence goes on (the
//  take's sound track never stops, so the take decodes whole, in step with its video); back, a new leg
//  (another generation, `microphoneG`) joins the mixer. The run director decides when (MicrophoneHealth).
//
//   audiotestsrc (silence) ─▶ audio_mixer ─▶ convert ─▶ caps ─▶ level ─▶ tee "at"
//   microphoneG: pipewiresrc ─▶ … ─▶ queue ─┘  (attached, taken out, attached again)

/// The named microphone's leg on the audio mixer, while attached, and how many were attached so far.
///
/// Thread: the capture session's actor (a SideBranch).
final class MicrophoneLegBranch: SideBranch {
    /// One attached leg: its bin and the mixer's pad it feeds.
    ///
    /// Thread: value type, owned by this branch.
    private struct Leg {
        let bin: ElementRef
        /// The leg's output (a ghost of its queue's source pad), linked to `mixerPad`.
        let output: PadRef, mixerPad: PadRef
        let generation: Int
        /// The buffers it delivered.
        let counter: FrameCounter
    }

    private let plan: GraphPlan
    private let pipeline: ElementRef
    private var leg: Leg?
    private var generation = 0

    init(plan: GraphPlan, pipeline: ElementRef) {
        self.plan = plan
        self.pipeline = pipeline
    }

    /// Attaches a new leg (taking out the one in place first); in a playing graph it starts in step with
    /// it. Throws when the plan has no named microphone or the leg cannot be made.
    func attach() throws(DuoError) {
        guard let mixer = pipeline.child(.audioMixer) else { throw .runtime(.text("the capture graph has no microphone mixer (--audio NAME)")) }
        detach()
        generation += 1
        let generation = generation
        guard let description = try plan.microphoneDescription(generation: generation) else {
            throw .runtime(.text("the sound is not a named microphone"))
        }
        let bin = try TakeRecorder.parseBin(description, name: GraphElement.microphone(generation), what: tr("the microphone's leg"),
                                            file: "microphone.gst")
        let last = GraphElement.microphoneQueue.forMicrophone(generation)
        guard let queue = bin.child(named: last), let target = queue.staticPad("src"),
              let ghost = gst_ghost_pad_new("src", target.pointer) else {
            throw .input(.text("pipeline file microphone.gst must end with an element named {{name}}_queue"))
        }
        gst_element_add_pad(bin.pointer, ghost)
        let output = PadRef(adopting: gst_object_ref(UnsafeMutableRawPointer(ghost)).assumingMemoryBound(to: GstPad.self))
        _ = gst_bin_add(duo_as_bin(pipeline.pointer), bin.pointer)
        guard let mixerPadPointer = gst_element_request_pad_simple(mixer.pointer, "sink_%u") else {
            bin.setState(GST_STATE_NULL)
            _ = gst_bin_remove(duo_as_bin(pipeline.pointer), bin.pointer)
            throw .runtime(.text("the audio mixer gave no pad for the microphone"))
        }
        let mixerPad = PadRef(adopting: mixerPadPointer)
        guard gst_pad_link(output.pointer, mixerPad.pointer) == GST_PAD_LINK_OK else {
            gst_element_release_request_pad(mixer.pointer, mixerPad.pointer)
            bin.setState(GST_STATE_NULL)
            _ = gst_bin_remove(duo_as_bin(pipeline.pointer), bin.pointer)
            throw .runtime(.text("the microphone's leg does not link to the audio mixer; check Pipelines/microphone.gst"))
        }
        leg = Leg(bin: bin, output: output, mixerPad: mixerPad, generation: generation, counter: FrameCounter(pad: target))
        _ = bin.syncStateWithParent()
    }

    /// Takes the leg out (stopped first, so no buffer is in flight when it leaves the mixer); the mixer
    /// goes on with the silence. Idempotent.
    func detach() {
        guard let leg else { return }
        self.leg = nil
        leg.bin.setState(GST_STATE_NULL)
        _ = gst_pad_unlink(leg.output.pointer, leg.mixerPad.pointer)
        if let mixer = pipeline.child(.audioMixer) { gst_element_release_request_pad(mixer.pointer, leg.mixerPad.pointer) }
        _ = gst_bin_remove(duo_as_bin(pipeline.pointer), leg.bin.pointer)
    }

    /// Buffers the attached leg delivered (nil while none is attached).
    var buffers: Int64? { leg?.counter.read().frames }

    /// A leg's element (`microphoneG_…`, in its bin `microphoneG`), of this leg or an older one.
    func owns(_ fault: GraphFault) -> Bool {
        fault.branchOwner == .microphone && FaultRouting.microphoneLeg(of: fault.source, ancestors: fault.bins) != nil
    }

    /// The leg goes (an older leg's late error is ignored), the silence goes on, and the director hears
    /// of the loss.
    func failed(_ fault: GraphFault) -> SessionEvent? {
        guard FaultRouting.microphoneLeg(of: fault.source, ancestors: fault.bins) == leg?.generation else { return nil }
        detach()
        return .microphoneLost(fault.described)
    }
}
