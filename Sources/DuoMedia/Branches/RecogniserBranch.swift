import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  Voice-follow's recogniser: a bin of its own (`voice_TAG`, Pipelines/voice-follow.gst) on the audio tee,
//  behind a leaky queue. Its model is loaded before it joins the graph (off the session: pocketsphinx
//  reads it as it leaves NULL); another script's recogniser replaces it at a buffer boundary. A model it
//  cannot load, or a failure while it runs, turns voice-follow off (the run follows time), never the
//  capture.
//
//   audio tee "at" ─▶ voice_TAG: queue (leaky) ─▶ … ─▶ pocketsphinx ─▶ fakesink

/// The recogniser's branch on the audio tee, and whether it failed.
///
/// Thread: the capture session's actor (a SideBranch).
final class RecogniserBranch: SideBranch {
    private let pipeline: ElementRef
    private let tee: ElementRef
    private var attached: TeeBranch?
    /// Set when the recogniser failed (or its model did not load at start): said once.
    private(set) var hasFailed = false

    init(pipeline: ElementRef, audioTee: ElementRef) {
        self.pipeline = pipeline
        tee = audioTee
    }

    /// Puts `loaded` into the graph, replacing the recogniser in place (detached at a buffer boundary, so
    /// the audio tee never waits); in a playing graph it starts at once.
    func attach(_ loaded: CaptureSession.LoadedRecogniser) throws(DuoError) {
        if let old = attached {
            attached = nil
            old.detach(from: pipeline)
        }
        guard loaded.take() else { throw .runtime(.text("this voice-follow recogniser is already in the graph")) }
        let branch = try TeeBranch.attach(bin: loaded.bin, first: GraphElement.voiceQueue.rawValue, to: tee, in: pipeline,
                                          what: tr("the voice-follow branch"), file: "voice-follow.gst")
        attached = branch
        hasFailed = false
        _ = branch.bin.syncStateWithParent()
    }

    /// The model did not load at start: voice-follow is off, said once (`recogniserFailed`).
    func unavailable(_ why: String) -> SessionEvent {
        hasFailed = true
        return .recogniserFailed(why)
    }

    func owns(_ fault: GraphFault) -> Bool { fault.branchOwner == .recogniser }

    /// It stops behind its leaky queue, which never holds the tee back; the sound, the preview and any
    /// take go on, and the run follows by time.
    func failed(_ fault: GraphFault) -> SessionEvent? {
        guard !hasFailed else { return nil }
        hasFailed = true
        return .recogniserFailed(fault.described)
    }
}

extension CaptureSession {
    /// A recogniser branch with its model loaded, not yet in the graph. pocketsphinx reads its model as
    /// it leaves NULL (half a second for a 2 MB script's), so this is made off the session and the run
    /// director (`loadRecogniser`); attached, it starts in a moment.
    ///
    /// Thread: Sendable; made on any thread, attached on the session actor (once).
    public final class LoadedRecogniser: PreparedRecogniser, Sendable {
        let bin: ElementRef
        public let files: VoiceModelFiles
        private let attached = Locked(false)
        init(bin: ElementRef, files: VoiceModelFiles) { self.bin = bin; self.files = files }
        /// Taken into the graph (then the graph stops it); false if it was already.
        func take() -> Bool { attached.update { attached in defer { attached = true }; return !attached } }
        /// One never attached (superseded by a newer script's) is stopped here.
        deinit { if !attached.value { bin.setState(GST_STATE_NULL) } }
    }

    /// Builds the recogniser branch for `files` and loads its model, outside any graph: a model
    /// pocketsphinx cannot load (its error goes to no bus) throws a voice-follow error and nothing else
    /// is touched. Thread: any (the voice model's builder, a detached task; the session at start).
    public nonisolated static func loadRecogniser(_ files: VoiceModelFiles, plan: GraphPlan) throws(DuoError) -> LoadedRecogniser {
        let name = FaultRouting.recogniserBin(String(UUID().uuidString.prefix(8).lowercased()))
        let bin = try TakeRecorder.parseBin(try plan.voiceDescription(files), name: name, what: tr("the voice-follow branch"),
                                            file: "voice-follow.gst")
        // sphinxbase's own log (its whole configuration, at every start) stays off stderr.
        _ = duo_quiet_speech_log()
        guard bin.setState(GST_STATE_READY) != GST_STATE_CHANGE_FAILURE else {
            bin.setState(GST_STATE_NULL)
            throw .runtime(.text("the speech recogniser could not load the voice model %s and %s", files.languageModel, files.dictionary))
        }
        return LoadedRecogniser(bin: bin, files: files)
    }
}
