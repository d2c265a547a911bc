import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  CaptureSession: the one owner of the running GStreamer graph.
//
//   camera A ─▶ normalise ─┐   (a clip: its own player feeds it, ClipCamera)
//                          ├─▶ selector ─▶ tee "t" ─┬─▶ operator branch ─▶ operator sink
//   camera B ─▶ normalise ─┘   (+Cameras)           ├─▶ subject branch: valve ─▶ scale ─▶ mirror ─▶ view drawn (+Subject)
//                                                   ├─▶ remote display N, while connected (RemoteDisplayBranches)
//                                                   ├─▶ framing detector, leaky, with --framing (FramingBranch)
//                                                   ├─▶ replay buffer, leaky, with --replay (ReplayBranch; +Replay)
//                                                   └─▶ take N: video (TakeRecorder)
//   audio source ─▶ level ─▶ audio tee "at" ─┬─▶ take N: audio (TakeRecorder)
//                                            ├─▶ recogniser, replaced when the script changes (RecogniserBranch)
//                                            └─▶ audio sink (fakesink)
//   (--audio NAME: the audio source is a silence on audio_mixer, which microphone leg G joins, taken out
//    and put back: MicrophoneLegBranch)
//
//  Side branches (Branches/, SideBranch.swift) are objects that own their bins and state and claim their
//  own failures. Split by job, one actor:
//  - this file, the live graph: start (built, counted, PLAYING within a bound), stop, the branch counts;
//  - CaptureSession+Faults.swift, the bus: every failure routed to its owner, the side branches first;
//  - CaptureSession+Branches.swift, the side branches made and dropped, and the doors to them;
//  - CaptureSession+Cameras.swift, the camera inputs: the selector and swaps, each camera's frames, sources
//    stopped and restarted (at another device node too), live rotation, clip players, a camera that never
//    started; CaptureSession+Facing.swift, whose face each camera sees, and the mirrors it sets;
//  - CaptureSession+Subject.swift, the subject branch: its valve, the picture's use and mirror, its failure;
//  - CaptureSession+Preview.swift, the operator sink's own figures;
//  - CaptureSession+PipeWire.swift, the graph's clock with a PipeWire camera or a named microphone;
//  - CaptureSession+Takes.swift, the doors to TakeRecorder.swift (an actor of its own), the takes;
//  - BusWatch.swift (the bus, read on a thread), StateChange.swift (the change to PLAYING, off this
//    actor), PipelineClock.swift, FrameCounter.swift, MediaHooks.swift.
//
//  Every change to the graph is a serial transaction on this actor; callers (the run director, tests)
//  send it Sendable commands and await the result, so no UI thread ever blocks on a state change.

/// Thread: an actor (the capture-session actor); its probes run on streaming threads, its bus
/// watch on a thread of its own, and both only hand Sendable values back to the actor.
public actor CaptureSession {
    public let plan: GraphPlan
    public nonisolated let events: AsyncStream<SessionEvent>
    /// The pipeline's running time, readable from any thread, and waitable (the run director's clock).
    public nonisolated let clock = PipelineClock()
    let eventSink: AsyncStream<SessionEvent>.Continuation

    private(set) var pipeline: ElementRef?
    var tee: ElementRef?
    var audioTee: ElementRef?
    var lastAudioLevel: AudioLevel?
    private var bus: BusWatch?
    private var busTask: Task<Void, Never>?
    var counters: [String: FrameCounter] = [:]
    var recorder: TakeRecorder?
    var detachesFailedTakes = true
    var failure: DuoError?
    private var playingWaiters: [CheckedContinuation<Void, Never>] = []
    /// The start's change to PLAYING, run off this actor (StateChange.swift).
    private var stateChange: PendingStateChange?
    private var startTimeoutFired = false
    var isPlaying = false

    private var beforePlayingHook: (@Sendable (PreparedGraph) async throws(DuoError) -> Void)?
    /// Sets what `start()` runs between building the graph and starting it, when its caller passes none.
    public func setBeforePlaying(_ hook: @escaping @Sendable (PreparedGraph) async throws(DuoError) -> Void) {
        beforePlayingHook = hook
    }

    private let sampleLuma: Bool
    /// How long start-up may wait for the graph to play, seconds.
    private let startTimeout: Double
    // The subject branch (CaptureSession+Subject.swift): its drawer, whether it runs from the start, how
    // much of the picture it shows, its glass mirror, whether it failed (it then stays shut), and the
    // time it was shut inside its count.
    let subjectDrawer: (any I420FrameDrawer)?
    var subjectProbe: FrameDrawerProbe?
    let initialSubjectOpen: Bool
    var subjectPictureUse = SubjectPictureUse.shown
    var subjectViewMirror = MirrorFlags.none
    var subjectFailed = false
    var subjectShutSpan: Int64 = 0
    var subjectShutSince: Int64?

    // The side branches (Branches/; CaptureSession+Branches.swift), while the graph runs.
    var recogniser: RecogniserBranch?
    var remoteDisplays: RemoteDisplayBranches?
    var framing: FramingBranch?
    var microphoneLeg: MicrophoneLegBranch?
    var replay: ReplayBranch?

    // The cameras (CaptureSession+Cameras.swift, +Facing.swift).
    /// Which camera the selector passes: 0 for A, 1 for B.
    public internal(set) var activeCamera = 0
    /// The format the active camera delivers (the same for both in virtual mode).
    public var activeFormat: VideoFormat { plan.format(ofCamera: activeCamera) }
    /// Cameras whose source is stopped (unplugged, or lost to an error).
    var unpluggedCameras: Set<Int> = []
    /// Whose face each camera sees now (`setFaces`: a camera turned round); nil: the plan's.
    var liveFaces: [FacingViewer]?
    /// The players of cameras that are clips (`--camera file:PATH`), while the graph runs.
    var clipCameras: [ClipCamera] = []

    /// Who owns a failure no side branch claims, from the element's name and its bins (the audio chain
    /// and each camera's chain are filled in when the graph is built).
    var routing = FaultRouting()
    /// The sound's own chain failed (CaptureSession+Faults.swift): its stream ended for good.
    var microphoneLost = false
    var audioSourceName: String?

    /// - Parameters:
    ///   - subjectDrawer: draws the subject view (teleprompter, countdown, light) into each subject frame.
    ///   - sampleLuma: frame counters also record each frame's first luma byte (tests of pixel isolation).
    ///   - subjectBranchOpen: whether the subject branch runs from the start (see `setSubjectBranchOpen`).
    public init(plan: GraphPlan, subjectDrawer: (any I420FrameDrawer)? = nil, subjectBranchOpen: Bool = true,
                sampleLuma: Bool = false, startTimeout: Double = 10) {
        var plan = plan
        plan.operatorPictureRead = sampleLuma   // a reader of the headless operator picture: it is mirrored
        self.plan = plan
        self.startTimeout = startTimeout
        self.initialSubjectOpen = subjectBranchOpen
        self.subjectDrawer = subjectDrawer
        self.sampleLuma = sampleLuma
        (events, eventSink) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    // MARK: Lifecycle

    /// Builds the graph and brings it to PLAYING. Throws a dependency error naming the Debian package if
    /// an element is missing, a runtime error if the camera cannot start.
    ///
    /// `beforePlaying` runs once the graph is built and before it starts: desktop mode puts the gtksink
    /// widgets into their windows there (see DesktopSinks.swift).
    public func start(beforePlaying hook: (@Sendable (PreparedGraph) async throws(DuoError) -> Void)? = nil) async throws(DuoError) {
        precondition(pipeline == nil, "CaptureSession.start called twice")
        let beforePlaying = hook ?? beforePlayingHook
        GStreamer.initialize()
        let description = try plan.liveDescription(includingVoice: false)
        for element in GStreamer.elementNames(in: description) where !GStreamer.hasElement(element) {
            throw ElementPackages.missingElementError(element, neededFor: "the capture graph")
        }
        try GStreamer.require(plan.recordElements, for: .text("recording takes"))
        try TakeRecorder.checkRecordSink(plan)
        let p = try Self.parse(description)
        // A clip played as a camera (--camera file:PATH) plays in a pipeline of its own, started first.
        try startClipCameras()
        // Take branches post their own EOS; forward them so a take can be finalised while the preview runs.
        p.set("message-forward", true)
        useSystemClockForPipeWire(p)
        guard let t = p.child(.tee) else { throw .input(.text("the capture graph has no tee named t; check the files in Pipelines/")) }
        tee = t
        if plan.audio != .none {
            guard let at = p.child(.audioTee) else {
                throw .input(.text("pipeline file audio.gst must name its tee at (duo-capture looks it up by that name)"))
            }
            audioTee = at
            // The microphone's chain, by name: an error from any of them is the microphone's.
            let chain = at.upstreamChain()
            routing.audioElements = Set(chain.map(\.name))
            routing.hasAudio = true
            audioSourceName = chain.last?.name
            counters["audio"] = p.child(.audioSink)?.staticPad("sink").map { FrameCounter(pad: $0) }
        }
        // Each camera's chain, by name: an error from any of its elements (a decoder, a converter the
        // camera file adds unnamed) is that camera's loss, not the graph's failure.
        for (index, caps) in [0, 1].map(GraphElement.cameraCaps.forCamera).enumerated() {
            if let filter = p.child(named: caps) { routing.cameraElements[index] = Set(filter.upstreamChain().map(\.name)) }
        }
        // The recogniser and the framing detector join at once; remote displays as they connect.
        makeSideBranches(p, tee: t, audioTee: audioTee)
        pipeline = p
        keepSystemClock(p)
        if plan.audio.microphoneNode != nil {
            do throws(DuoError) { try attachMicrophone() } catch { await stop(); throw error }
        }
        clock.attach(p)
        recorder = TakeRecorder(plan: plan, pipeline: p, tee: t, audioTee: audioTee, clock: clock, events: eventSink)
        if !detachesFailedTakes { await recorder?.setDetachesFailedTakes(false) }
        countBranches(p)
        prepareSubjectBranch(p)

        let (stream, continuation) = AsyncStream.makeStream(of: BusEvent.self, bufferingPolicy: .unbounded)
        bus = BusWatch(pipeline: p) { continuation.yield($0) }
        busTask = Task { [weak self] in
            for await event in stream { await self?.handle(event) }
        }

        if let beforePlaying {
            do throws(DuoError) { try await beforePlaying(PreparedGraph(pipeline: p)) } catch { await stop(); throw error }
            // stop() may have run while the hook was suspended: then never start this graph.
            guard pipeline === p else { throw .runtime(.text("the capture session was stopped before it started")) }
        }
        // The start-up bound counts over the state change too: a source may block inside it (pipewiresrc
        // waits there for PipeWire to agree a format). The change runs off this actor (StateChange.swift),
        // so the bound and a stop (a signal) are heard meanwhile, and interrupt it.
        let timer = Task { [weak self, startTimeout] in
            try? await Task.sleep(nanoseconds: UInt64(startTimeout * 1e9))
            if !Task.isCancelled { await self?.startTimedOut() }
        }
        defer { timer.cancel() }
        let change = PendingStateChange(p, to: GST_STATE_PLAYING)
        stateChange = change
        let result = await change.result()
        guard pipeline === p else { throw .runtime(.text("the capture session was stopped before it started")) }
        if result == GST_STATE_CHANGE_FAILURE {
            let error: DuoError
            if startTimeoutFired, let failure {
                error = failure   // the bound interrupted the change, and said why
            } else if let failure {
                error = .runtime(.text("cannot start the capture graph: %s; check the camera with `duo-capture pipeline` and gst-launch-1.0", failure.message))
            } else if plan.usesPipeWire, let camera = cameraNeverStarted(waited: nil) {
                error = camera    // pipewiresrc gives up (after 30 s) without a word on the bus
            } else {
                error = .runtime(.text("cannot start the capture graph: the pipeline refused to start; check the camera with `duo-capture pipeline` and gst-launch-1.0"))
            }
            await stop()
            throw error
        }
        await waitUntilPlaying()
        if let failure {
            await stop()
            throw failure
        }
        // stop() may have run meanwhile (a signal during start-up): then this graph is not running.
        guard pipeline === p else { throw .runtime(.text("the capture session was stopped before it started")) }
    }

    /// The frame counters of the main graph's branches (and each camera's, with two), and the virtual
    /// camera's one cadence; a camera's EOS stops at its chain's end.
    private func countBranches(_ p: ElementRef) {
        let sample = sampleLuma
        // With two cameras, "camera" counts what the selector lets through: the active camera's frames.
        let cameraOut = p.child(.selector)?.staticPad("src") ?? p.child(.cameraCaps)?.staticPad("src")
        // The virtual camera keeps one cadence across swaps (constant frame rate in every take); added
        // before the counter, so the counter sees what the branches get.
        if plan.secondCamera != nil, !plan.individual, let out = p.child(.selector)?.staticPad("src") {
            duo_attach_cadence(out.pointer, GstClockTime(plan.format.frameRate.frameDurationNanoseconds))
        }
        counters["camera"] = cameraOut.map { FrameCounter(pad: $0, sampleLuma: sample) }
        // A camera never ends the stream: its EOS (a failed or finished source) stops at its chain's end,
        // so the camera is lost and can come back rather than ending every branch for good.
        for name in [0, 1].map(GraphElement.cameraCaps.forCamera) {
            if let out = p.child(named: name)?.staticPad("src") { duo_drop_eos(out.pointer) }
        }
        if let selector = p.child(.selector) {
            counters["camera0"] = selector.staticPad("sink_0").map { FrameCounter(pad: $0) }
            counters["camera1"] = selector.staticPad("sink_1").map { FrameCounter(pad: $0) }
        }
        counters["operator"] = p.child(.operatorSink)?.staticPad("sink").map { FrameCounter(pad: $0, sampleLuma: sample) }
        counters["subject"] = p.child(.subjectSink)?.staticPad("sink").map { FrameCounter(pad: $0, sampleLuma: sample) }
    }

    private func waitUntilPlaying() async {
        if isPlaying || failure != nil { return }
        await withCheckedContinuation { playingWaiters.append($0) }
    }

    func resumePlayingWaiters() {
        let waiters = playingWaiters
        playingWaiters.removeAll()
        for w in waiters { w.resume() }
    }

    /// Start-up waits at most `startTimeout`: then the error names what never got ready, the camera
    /// (no frame at all: which camera, its mode, what it waited for; exit 69) or the sink that never
    /// started; a state change still under way is interrupted.
    private func startTimedOut() {
        guard !isPlaying, failure == nil, let p = pipeline else { return }
        startTimeoutFired = true
        let seconds = startTimeout == startTimeout.rounded() ? "\(Int(startTimeout))" : "\(startTimeout)"
        if let camera = cameraNeverStarted(waited: .text("within %s s", seconds)) {
            failure = camera
        } else {
            let sinks: [GraphElement] = [.operatorSink, .subjectSink, .audioSink]
            let stuck = sinks.first { p.child($0).map { !$0.isPlaying } ?? false }
            failure = .runtime(.text("the capture graph did not start within %s s: %s never got ready; check the camera with duo-capture cameras and gst-launch-1.0, or give a longer --start-timeout", seconds, stuck.map { Said(verbatim: $0.rawValue) } ?? Said.text("the graph")))
        }
        if let change = stateChange, !change.isDone { change.interrupt(cameraSources(p)) }
        resumePlayingWaiters()
    }

    /// Ends a running take (finalising its file), then stops the graph. Idempotent.
    @discardableResult
    public func stop() async -> TakeResult? {
        // A start still inside its state change: its camera sources are interrupted and the change is
        // awaited, briefly. One that does not return in time is left to end by itself (its thread then
        // stops the graph): a state change on this actor would wait for it.
        var abandoned = false
        if let change = stateChange, !change.isDone, let p = pipeline {
            change.interrupt(cameraSources(p))
            if await change.result(within: 1) == nil { abandoned = change.abandon() }
        }
        var result: TakeResult?
        if let recorder {
            if await recorder.isBusy { result = try? await recorder.stop() }
            await recorder.close()
        }
        counters.removeAll()
        dropSideBranches()
        subjectProbe = nil
        for clip in clipCameras { clip.stop() }
        clipCameras.removeAll()
        if let p = pipeline, !abandoned {
            p.setState(GST_STATE_NULL)
        }
        clock.detach()
        bus?.cancel()
        bus = nil
        busTask?.cancel()
        busTask = nil
        pipeline = nil
        resumePlayingWaiters()
        eventSink.finish()
        return result
    }

    // MARK: State

    public var counts: BranchCounts {
        BranchCounts(camera: counters["camera"]?.read() ?? .zero,
                     operatorView: { var o = counters["operator"]?.read() ?? .zero; o.sinkDropped = operatorSinkDropped; return o }(),
                     subjectView: { var s = counters["subject"]?.read() ?? .zero; s.shutSpan = subjectShutSpan; return s }())
    }

    /// Audio buffers that reached the live audio sink (nil without audio).
    public var audioCount: FrameCount? { counters["audio"]?.read() }
    /// The latest `level` reading, for the operator HUD (nil without audio or before the first one).
    public var audioLevel: AudioLevel? { lastAudioLevel }

    /// Waits until `condition` holds for the counts, checking every few milliseconds. For callers that
    /// need "at least N frames have flowed" (tests, benchmarks, start-up checks).
    public func waitUntil(timeout seconds: Double = 30, _ condition: @Sendable (BranchCounts, FrameCount?) -> Bool) async throws(DuoError) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(counts, await takeFrames) {
            if let failure { throw failure }
            guard Date() < deadline else { throw .runtime(.text("frames stopped flowing: waited %s s for the expected frames", Int(seconds))) }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }
    public var failureReason: DuoError? { failure }

    /// The pipeline's running time now, ns (0 before start).
    public var runningTime: Int64 {
        guard let p = pipeline else { return 0 }
        let t = gst_element_get_current_running_time(p.pointer)
        return t == GstClockTime.max ? 0 : Int64(t)
    }
}
