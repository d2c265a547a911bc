import DuoCore

//  The capture session's side branches (Branches/): each an object that owns its bins and state and says
//  which failures are its own. They are made when the graph is built and dropped when it stops; these are
//  the session's doors to them (the run director's, through CapturePort and MicrophonePort).

extension CaptureSession {
    /// Every side branch this graph has, in the order the fault routing asks them.
    var sideBranches: [any SideBranch] {
        let all: [(any SideBranch)?] = [recogniser, remoteDisplays, framing, microphoneLeg, replay]
        return all.compactMap { $0 }
    }

    /// Makes the side branches of a graph just built (`p`, its camera tee `t`, its audio tee `at` when it
    /// has sound) and attaches those that run from the start: the recogniser (a model it cannot load
    /// turns voice-follow off, never the capture) and the framing detector (its absence is one event).
    /// A named microphone's leg is attached once the graph is the session's (`attachMicrophone`).
    func makeSideBranches(_ p: ElementRef, tee t: ElementRef, audioTee at: ElementRef?) {
        remoteDisplays = RemoteDisplayBranches(plan: plan, pipeline: p, tee: t)
        if plan.audio.microphoneNode != nil { microphoneLeg = MicrophoneLegBranch(plan: plan, pipeline: p) }
        if let at {
            let branch = RecogniserBranch(pipeline: p, audioTee: at)
            recogniser = branch
            if let voice = plan.voice {
                do throws(DuoError) { try branch.attach(try Self.loadRecogniser(voice, plan: plan)) } catch {
                    eventSink.yield(branch.unavailable(error.message))
                }
            }
        }
        if plan.framing != .off {
            let branch = FramingBranch(plan: plan, pipeline: p)
            framing = branch
            if let event = branch.attach(to: t) { eventSink.yield(event) }
        }
    }

    /// Drops every side branch and its probes (the graph is stopping: its NULL state stops their bins).
    func dropSideBranches() {
        recogniser = nil
        remoteDisplays = nil
        framing = nil
        microphoneLeg = nil
        replay = nil
    }

    // MARK: Voice-follow's recogniser (RecogniserBranch.swift)

    /// Voice-follow for another script: a recogniser with its model (loaded off the session) replaces the
    /// old one (detached at a buffer boundary, so the audio tee never waits), while the sound, the
    /// preview and any take go on.
    public func replaceRecogniser(_ loaded: LoadedRecogniser) throws(DuoError) {
        guard pipeline != nil, let recogniser else { throw .runtime(.text("the capture session is not running")) }
        try recogniser.attach(loaded)
    }

    // MARK: Remote displays (RemoteDisplayBranches.swift)

    /// Sends the subject view to a remote display: a branch on the camera tee rendering `drawer`'s view at
    /// `width`×`height`. Replaces that display's earlier branch.
    public func attachRemote(_ index: Int, address: SRTAddress, width: Int, height: Int, passphrase: String?,
                             latencyMilliseconds: Int, drawer: any I420FrameDrawer) throws(DuoError) {
        guard pipeline != nil, let remoteDisplays else { throw .runtime(.text("the capture session is not running")) }
        try remoteDisplays.attach(index, address: address, width: width, height: height, passphrase: passphrase,
                                  latencyMilliseconds: latencyMilliseconds, drawer: drawer)
    }

    public func detachRemote(_ index: Int) {
        remoteDisplays?.detach(index)
    }

    // MARK: A named microphone's leg (MicrophoneLegBranch.swift)

    /// Attaches a new leg for the named microphone (taking out the one in place first); in a playing graph
    /// it starts in step with it. Throws when the plan has no named microphone or the leg cannot be made.
    public func attachMicrophone() throws(DuoError) {
        guard pipeline != nil else { throw .runtime(.text("the capture session is not running")) }
        guard let microphoneLeg else { throw .runtime(.text("the capture graph has no microphone mixer (--audio NAME)")) }
        // The sound's own chain failed (the mixer, the level meter): its stream ended for good.
        guard !microphoneLost else { throw .runtime(.text("the sound chain failed earlier in this run; the take goes on without sound")) }
        try microphoneLeg.attach()
    }

    /// Takes the microphone's leg out (stopped first, so no buffer is in flight when it leaves the mixer);
    /// the mixer goes on with the silence. Idempotent.
    public func detachMicrophone() {
        microphoneLeg?.detach()
    }

    /// Buffers the attached leg delivered (nil while none is attached, or without a named microphone).
    public var microphoneBuffers: Int64? { microphoneLeg?.buffers }
}
