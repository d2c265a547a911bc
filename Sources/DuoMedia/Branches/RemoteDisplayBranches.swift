import DuoCore

//  The subject view sent to remote displays (`--subject-remote`): for each display a bin of its own
//  (Pipelines/remote-subject.gst) on the camera tee, drawing the subject view at the display's size,
//  encoding it and sending it over SRT. A display that goes (srtsink says it is reconnecting) or a branch
//  that fails drops that display's branch, and the run director asks the display again; a remote display
//  never fails the run.
//
//   camera tee "t" ─▶ remoteN_binG: queue ─▶ scale ─▶ view (drawn) ─▶ x264 ─▶ … ─▶ srtsink
//                     (one per display N; G counts the attaches, so a dropped bin is never the new one)

/// Every remote display's branch on the camera tee, by display number.
///
/// Thread: the capture session's actor (a SideBranch).
final class RemoteDisplayBranches: SideBranch {
    private let plan: GraphPlan
    private let pipeline: ElementRef
    private let tee: ElementRef
    private var branches: [Int: TeeBranch] = [:]
    private var drawers: [Int: FrameDrawerProbe] = [:]
    /// Branches attached so far: each branch's bin has a name of its own (`remote<N>_bin<G>`), so a late
    /// error from a branch already dropped is never taken for the one that replaced it.
    private var generations = 0

    init(plan: GraphPlan, pipeline: ElementRef, tee: ElementRef) {
        self.plan = plan
        self.pipeline = pipeline
        self.tee = tee
    }

    /// Sends the subject view to display `index`: a branch rendering `drawer`'s view at `width`×`height`.
    /// Replaces that display's earlier branch.
    func attach(_ index: Int, address: SRTAddress, width: Int, height: Int, passphrase: String?,
                latencyMilliseconds: Int, drawer: any I420FrameDrawer) throws(DuoError) {
        detach(index)
        generations += 1
        let name = GraphElement.remote(index)
        let description = try plan.remoteDescription(name: name, address: address, width: width, height: height,
                                                     passphrase: passphrase, latencyMilliseconds: latencyMilliseconds)
        let branch = try TeeBranch.attach(description, name: FaultRouting.remoteBin(index, attach: generations),
                                          first: GraphElement.remoteQueue.forRemote(index), to: tee, in: pipeline,
                                          what: tr("the remote display branch"), file: "remote-subject.gst")
        if let pad = branch.bin.child(named: GraphElement.remoteView.forRemote(index))?.staticPad("src") {
            drawers[index] = FrameDrawerProbe(pad: pad, drawer: drawer)
            // The test hub's benchmark probe, when registered (duo-capture-testhub).
            MediaHooks.remoteView.value?(pad.pointer)
        }
        branches[index] = branch
        _ = branch.bin.syncStateWithParent()
    }

    /// Takes display `index`'s branch out at a buffer boundary. Idempotent.
    func detach(_ index: Int) {
        guard let branch = branches.removeValue(forKey: index) else { return }
        drawers[index] = nil
        branch.detach(from: pipeline)
    }

    func owns(_ fault: GraphFault) -> Bool {
        if case .remote = fault.branchOwner { true } else { false }
    }

    /// srtsink says it is reconnecting (the display went): the display is asked again, and the branch made
    /// anew for it (its size may differ), rather than left calling on its own.
    var failsOnWarning: Bool { true }

    /// The branch attached for the display now is dropped and the run director told (it asks the display
    /// again and makes the branch anew). Anything from a branch already dropped (x264 and srtsink often
    /// say more than once) is ignored.
    func failed(_ fault: GraphFault) -> SessionEvent? {
        guard case .remote(let index) = fault.branchOwner, let branch = branches[index], fault.bins.contains(branch.bin.name) else {
            Diagnostics.debug("a dropped remote branch's later message, ignored: \(fault.described)")
            return nil
        }
        detach(index)
        return .remoteLost(index: index, reason: fault.message)
    }
}
