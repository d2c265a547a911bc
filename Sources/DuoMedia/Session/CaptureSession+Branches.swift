import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  The capture session's side branches: bins attached to a tee while the graph plays and detached at a
//  buffer boundary (the tee never waits): voice-follow's recogniser on the audio tee, and a remote
//  display's subject view on the camera tee. Their failures are theirs alone (FaultRouting).

extension CaptureSession {
    /// A branch of its own on a tee (the recogniser, a remote display): a bin, linked through a request pad.
    ///
    /// Thread: value type, owned by the session actor.
    struct AttachedBranch {
        let bin: ElementRef, tee: ElementRef, teePad: PadRef, sink: PadRef
        /// Every element's name, for telling its errors from the graph's.
        let names: Set<String>
    }

    /// Parses `description` into a bin named `name`, its first element `first` fed from `tee`; in a
    /// playing graph it starts in step with it. Its errors never reach the tee.
    func attachBranch(_ description: String, name: String, first: String, last: String, to tee: ElementRef,
                              in pipeline: ElementRef, what: String, file: String) throws(DuoError) -> AttachedBranch {
        try attachBranch(bin: try TakeRecorder.parseBin(description, name: name, what: what, file: file), first: first, last: last,
                         to: tee, in: pipeline, what: what, file: file)
    }

    func attachBranch(bin: ElementRef, first: String, last: String, to tee: ElementRef,
                              in pipeline: ElementRef, what: String, file: String) throws(DuoError) -> AttachedBranch {
        guard let head = bin.child(named: first), let target = head.staticPad("sink"),
              let ghost = gst_ghost_pad_new("sink", target.pointer) else {
            throw .input("pipeline file \(file) must start with an element named \(first)")
        }
        gst_element_add_pad(bin.pointer, ghost)
        duo_isolate_branch_errors(ghost)
        let sink = PadRef(adopting: gst_object_ref(UnsafeMutableRawPointer(ghost)).assumingMemoryBound(to: GstPad.self))
        _ = gst_bin_add(duo_as_bin(pipeline.pointer), bin.pointer)
        gst_object_ref(UnsafeMutableRawPointer(bin.pointer))
        guard let teePadPointer = gst_element_request_pad_simple(tee.pointer, "src_%u") else {
            throw .runtime("the tee gave no pad for \(what)")
        }
        let teePad = PadRef(adopting: teePadPointer)
        guard gst_pad_link(teePad.pointer, sink.pointer) == GST_PAD_LINK_OK else {
            gst_element_release_request_pad(tee.pointer, teePad.pointer)
            throw .runtime("\(what) does not link to its tee; check Pipelines/\(file)")
        }
        let names = Set((bin.child(named: last)?.upstreamChain().map(\.name) ?? []) + [last])
        return AttachedBranch(bin: bin, tee: tee, teePad: teePad, sink: sink, names: names)
    }

    /// Detaches a branch at a buffer boundary (the tee never waits) and stops it.
    func detachBranch(_ branch: AttachedBranch) {
        duo_detach_branch_when_idle(branch.tee.pointer, branch.teePad.pointer, branch.sink.pointer)
        branch.bin.setState(GST_STATE_NULL)
        if let p = pipeline { _ = gst_bin_remove(duo_as_bin(p.pointer), branch.bin.pointer) }
    }


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
        let bin = try TakeRecorder.parseBin(try plan.voiceDescription(files), name: name, what: "the voice-follow branch",
                                            file: "voice-follow.gst")
        // sphinxbase's own log (its whole configuration, at every start) stays off stderr.
        _ = duo_quiet_speech_log()
        guard bin.setState(GST_STATE_READY) != GST_STATE_CHANGE_FAILURE else {
            bin.setState(GST_STATE_NULL)
            throw .runtime("the speech recogniser could not load the voice model \(files.languageModel) and \(files.dictionary)")
        }
        return LoadedRecogniser(bin: bin, files: files)
    }

    func attachRecogniser(_ loaded: LoadedRecogniser, to tee: ElementRef, in pipeline: ElementRef) throws(DuoError) {
        guard loaded.take() else { throw .runtime("this voice-follow recogniser is already in the graph") }
        let branch = try attachBranch(bin: loaded.bin, first: GraphElement.voiceQueue.rawValue, last: GraphElement.voiceSink.rawValue, to: tee, in: pipeline,
                                      what: "the voice-follow branch", file: "voice-follow.gst")
        recogniser = branch
        recogniserFailed = false
        _ = branch.bin.syncStateWithParent()
    }


    /// Sends the subject view to a remote display: a branch on the camera tee rendering `drawer`'s view at
    /// `width`×`height`. Replaces that display's earlier branch.
    public func attachRemote(_ index: Int, address: SRTAddress, width: Int, height: Int, passphrase: String?,
                             latencyMilliseconds: Int, drawer: any I420FrameDrawer) throws(DuoError) {
        guard let p = pipeline, let t = tee else { throw .runtime("the capture session is not running") }
        detachRemote(index)
        remoteGenerations += 1
        let name = GraphElement.remote(index)
        let branch = try attachBranch(try plan.remoteDescription(name: name, address: address, width: width, height: height,
                                                                 passphrase: passphrase, latencyMilliseconds: latencyMilliseconds),
                                      name: FaultRouting.remoteBin(index, attach: remoteGenerations), first: GraphElement.remoteQueue.forRemote(index), last: GraphElement.remoteSink.forRemote(index), to: t, in: p,
                                      what: "the remote display branch", file: "remote-subject.gst")
        if let pad = branch.bin.child(named: GraphElement.remoteView.forRemote(index))?.staticPad("src") {
            remoteDrawers[index] = FrameDrawerProbe(pad: pad, drawer: drawer)
            // The test hub's benchmark probe, when registered (duo-capture-testhub).
            MediaHooks.remoteView.value?(pad.pointer)
        }
        remotes[index] = branch
        _ = branch.bin.syncStateWithParent()
    }

    public func detachRemote(_ index: Int) {
        guard let branch = remotes.removeValue(forKey: index) else { return }
        remoteDrawers[index] = nil
        detachBranch(branch)
    }

    /// Remote display `index`'s branch failed, or its srtsink says it is reconnecting (the display went):
    /// the branch attached for it now is dropped and the run director told (it asks the display again and
    /// makes the branch anew, its size may differ). Anything from a branch already dropped (x264 and
    /// srtsink often say more than once) is ignored: a remote display never fails the run.
    func remoteFailed(_ index: Int, source: String, bins: [String], message: String) {
        guard let branch = remotes[index], bins.contains(branch.bin.name) else {
            Diagnostics.debug("a dropped remote branch's later message, ignored: \(source): \(message)")
            return
        }
        detachRemote(index)
        eventSink.yield(.remoteLost(index: index, reason: message))
    }

    /// Voice-follow for another script: a recogniser with its model (loaded off the session) replaces the
    /// old one (detached at a buffer boundary, so the audio tee never waits), while the sound, the
    /// preview and any take go on.
    public func replaceRecogniser(_ loaded: LoadedRecogniser) throws(DuoError) {
        guard let p = pipeline, let tee = audioTee else { throw .runtime("the capture session is not running") }
        if let old = recogniser {
            recogniser = nil
            detachBranch(old)
        }
        try attachRecogniser(loaded, to: tee, in: p)
    }
}
