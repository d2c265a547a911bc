import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  CaptureSession: the one owner of the running GStreamer graph.
//
//   camera A ─▶ normalise ─┐
//                          ├─▶ selector ─▶ tee ─┬─▶ operator branch
//   camera B ─▶ normalise ─┘   (Cameras)        ├─▶ subject branch (valve)
//                                               ├─▶ remote display N (Branches), attached while connected
//                                               └─▶ take N: the TakeRecorder's (TakeRecorder.swift)
//   audio ─▶ level ─▶ tee "at" ─┬─▶ take N's audio
//                               ├─▶ recogniser (Branches), replaced when the script changes
//                               └─▶ fakesink
//
//  Split by job, one actor:
//  - this file, the live graph: start, PLAYING, the bus, a fatal error, stop; the branch counters; the
//    subject valve and what it shut; every failure routed to its owner (FaultRouting in DuoCore);
//  - CaptureSession+Cameras.swift, the camera inputs: the selector and swaps, each camera's frames,
//    sources stopped and restarted (at another device node too), live rotation;
//  - CaptureSession+Branches.swift, the side branches: attach and detach at a buffer boundary, the
//    recogniser, remote displays;
//  - TakeRecorder.swift (an actor of its own), the takes.
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
    private var lastAudioLevel: AudioLevel?
    private var bus: BusWatch?
    private var busTask: Task<Void, Never>?
    var counters: [String: FrameCounter] = [:]
    var recorder: TakeRecorder?
    private var failure: DuoError?
    private var playingWaiters: [CheckedContinuation<Void, Never>] = []
    /// The start's change to PLAYING, run off this actor (StateChange.swift).
    private var stateChange: PendingStateChange?
    private var startTimeoutFired = false
    private var isPlaying = false

    private var beforePlayingHook: (@Sendable (PreparedGraph) async throws(DuoError) -> Void)?
    /// Sets what `start()` runs between building the graph and starting it, when its caller passes none.
    public func setBeforePlaying(_ hook: @escaping @Sendable (PreparedGraph) async throws(DuoError) -> Void) {
        beforePlayingHook = hook
    }

    private let subjectDrawer: (any I420FrameDrawer)?
    private var subjectProbe: FrameDrawerProbe?
    private let sampleLuma: Bool
    /// How long start-up may wait for the graph to play, seconds.
    private let startTimeout: Double
    private let initialSubjectOpen: Bool

    /// - Parameters:
    ///   - subjectDrawer: draws the subject view (teleprompter, countdown, light) into each subject frame.
    ///   - sampleLuma: frame counters also record each frame's first luma byte (tests of pixel isolation).
    ///   - subjectBranchOpen: whether the subject branch runs from the start (see `setSubjectBranchOpen`).
    public init(plan: GraphPlan, subjectDrawer: (any I420FrameDrawer)? = nil, subjectBranchOpen: Bool = true,
                sampleLuma: Bool = false, startTimeout: Double = 10) {
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
        try GStreamer.require(plan.recordElements, for: "recording takes")
        try TakeRecorder.checkRecordSink(plan)
        let p = try Self.parse(description)
        // A clip played as a camera (--camera file:PATH) plays in a pipeline of its own, started first.
        try startClipCameras()
        // Take branches post their own EOS; forward them so a take can be finalised while the preview runs.
        p.set("message-forward", true)
        useSystemClockForPipeWire(p)
        guard let t = p.child(.tee) else { throw .input("the capture graph has no tee named t; check the files in Pipelines/") }
        tee = t
        var audioTee: ElementRef?
        if plan.audio != .none {
            guard let at = p.child(.audioTee) else {
                throw .input("pipeline file audio.gst must name its tee at (duo-capture looks it up by that name)")
            }
            audioTee = at
            self.audioTee = at
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
        // Voice-follow's recogniser, a branch of its own on the audio tee (replaced when the script changes).
        // It loads its model first, on its own: a model it cannot load shuts voice-follow (the run
        // follows time), never the capture.
        if let voice = plan.voice, let at = audioTee {
            do throws(DuoError) { try attachRecogniser(try Self.loadRecogniser(voice, plan: plan), to: at, in: p) } catch {
                recogniserFailed = true
                eventSink.yield(.recogniserFailed(error.message))
            }
        }
        // Framing hints' face detector, a leaky branch of its own on the camera tee (never a take's path).
        attachFraming(to: t, in: p)
        pipeline = p
        keepSystemClock(p)
        if plan.audio.microphoneNode != nil {
            do throws(DuoError) { try attachMicrophone() } catch { await stop(); throw error }
        }
        clock.attach(p)
        recorder = TakeRecorder(plan: plan, pipeline: p, tee: t, audioTee: audioTee, clock: clock, events: eventSink)
        if !detachesFailedTakes { await recorder?.setDetachesFailedTakes(false) }
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
        p.child(.subjectValve)?.set("drop", !initialSubjectOpen)
        p.child(.subjectScale)?.setFromString("method", subjectPictureUse == .shown ? "bilinear" : "nearest-neighbour")
        applySubjectMirror()
        // The subject view must never stop the capture: its branch's flow errors stop at the valve.
        if let valveSink = p.child(.subjectValve)?.staticPad("sink") { duo_isolate_pad_errors(valveSink.pointer) }
        if let drawer = subjectDrawer, let pad = p.child(.subjectSink)?.staticPad("sink") {
            subjectProbe = FrameDrawerProbe(pad: pad, drawer: drawer)
        }

        let (stream, continuation) = AsyncStream.makeStream(of: BusEvent.self, bufferingPolicy: .unbounded)
        bus = BusWatch(pipeline: p) { continuation.yield($0) }
        busTask = Task { [weak self] in
            for await event in stream { await self?.handle(event) }
        }

        if let beforePlaying {
            do throws(DuoError) { try await beforePlaying(PreparedGraph(pipeline: p)) } catch { await stop(); throw error }
            // stop() may have run while the hook was suspended: then never start this graph.
            guard pipeline === p else { throw .runtime("the capture session was stopped before it started") }
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
        guard pipeline === p else { throw .runtime("the capture session was stopped before it started") }
        if result == GST_STATE_CHANGE_FAILURE {
            let error: DuoError
            if startTimeoutFired, let failure {
                error = failure   // the bound interrupted the change, and said why
            } else if let failure {
                error = .runtime("cannot start the capture graph: \(failure.message); check the camera with `duo-capture pipeline` and gst-launch-1.0")
            } else if plan.usesPipeWire, let camera = cameraNeverStarted(waited: nil) {
                error = camera    // pipewiresrc gives up (after 30 s) without a word on the bus
            } else {
                error = .runtime("cannot start the capture graph: the pipeline refused to start; check the camera with `duo-capture pipeline` and gst-launch-1.0")
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
        guard pipeline === p else { throw .runtime("the capture session was stopped before it started") }
    }

    private func waitUntilPlaying() async {
        if isPlaying || failure != nil { return }
        await withCheckedContinuation { playingWaiters.append($0) }
    }

    /// Start-up waits at most `startTimeout`: then the error names what never got ready, the camera
    /// (no frame at all: which camera, its mode, what it waited for; exit 69) or the sink that never
    /// started; a state change still under way is interrupted.
    private func startTimedOut() {
        guard !isPlaying, failure == nil, let p = pipeline else { return }
        startTimeoutFired = true
        let seconds = startTimeout == startTimeout.rounded() ? "\(Int(startTimeout))" : "\(startTimeout)"
        if let camera = cameraNeverStarted(waited: "within \(seconds) s") {
            failure = camera
        } else {
            let sinks: [GraphElement] = [.operatorSink, .subjectSink, .audioSink]
            let stuck = sinks.first { p.child($0).map { !$0.isPlaying } ?? false }
            failure = .runtime("the capture graph did not start within \(seconds) s: \(stuck?.rawValue ?? "the graph") never got ready; check the camera with duo-capture cameras and gst-launch-1.0, or give a longer --start-timeout")
        }
        if let change = stateChange, !change.isDone { change.interrupt(cameraSources(p)) }
        resumePlayingWaiters()
    }

    /// The first camera that gave no frame yet, as the error that says so (CameraStartWait): its mode,
    /// and for a PipeWire node whether a format was ever agreed (its source's pad has caps); nil when
    /// every camera gave frames. `waited`: "within N s", nil when the source gave up by itself.
    private func cameraNeverStarted(waited: String?) -> DuoError? {
        guard let p = pipeline else { return nil }
        let frames = plan.secondCamera == nil ? [counters["camera"]?.read().frames ?? 0]
            : [counters["camera0"]?.read().frames ?? 0, counters["camera1"]?.read().frames ?? 0]
        guard let index = frames.firstIndex(of: 0) else { return nil }
        let source = index == 0 ? plan.camera : (plan.secondCamera ?? plan.camera)
        let mode = index == 0 ? plan.cameraMode : (plan.secondCameraMode ?? plan.cameraMode)
        let agreed = p.child(named: GraphElement.cameraSource.forCamera(index))?.staticPad("src").flatMap(\.currentCapsMode)
        let wait: CameraStartWait = agreed == nil && source.isPipeWire ? .format : .frame(agreed: agreed)
        let intake = p.child(named: GraphElement.cameraRotate.forCamera(index))?.staticPad("sink").map(CameraIntake.accepted) ?? .any
        return wait.error(camera: source, mode: mode, waited: waited, graphTakes: intake.takes(mode))
    }

    /// Each camera's source element (A, and B when there is one).
    private func cameraSources(_ p: ElementRef) -> [ElementRef] {
        [0, 1].compactMap { p.child(named: GraphElement.cameraSource.forCamera($0)) }
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
        microphoneLeg = nil
        subjectProbe = nil
        framingBranch = nil
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

    /// Opens or shuts the subject branch at its valve. Shut, the branch does no work at all: no scaling,
    /// no drawing, no sink. (The valve drops buffers and, from GStreamer 1.22, re-sends sticky events
    /// when it opens again.)
    public func setSubjectBranchOpen(_ open: Bool) {
        guard let valve = pipeline?.child(.subjectValve), !subjectFailed || !open else { return }
        let now = runningTime
        if open, let since = subjectShutSince {
            subjectShutSpan += now - since
            subjectShutSince = nil
        } else if !open, subjectShutSince == nil, (counters["subject"]?.read().frames ?? 0) > 0 {
            // Only a shut span after the first subject frame lies inside the branch's count.
            subjectShutSince = now
        }
        valve.set("drop", !open)
    }
    private var subjectShutSince: Int64?

    /// How much of the subject's picture shows (`CapturePort.setSubjectPictureUse`). Headless, the view
    /// covers the frame or samples a thumbnail from it, so the picture is scaled nearest-neighbour (a
    /// bilinear downscale was 6-8% of the whole run's CPU at 720p30), and not flipped when covered.
    /// The scaler takes its method when the graph negotiates (a use given before `start`); a later change
    /// flips or unflips the picture at once, and keeps the scaler as it was (videoscale builds its
    /// converter only for new caps, and headless subject frames reach no screen).
    var subjectPictureUse = SubjectPictureUse.shown

    public func setSubjectPictureUse(_ use: SubjectPictureUse) {
        guard use != subjectPictureUse else { return }
        subjectPictureUse = use
        applySubjectMirror()
    }
    /// Set when the subject branch failed: it stays shut.
    private var subjectFailed = false
    private var subjectShutSpan: Int64 = 0

    /// The subject view's own mirror (beam-splitter glass): the subject's picture flips with it, so through
    /// the glass they still see themselves as in a mirror.
    var subjectViewMirror = MirrorFlags.none

    /// The subject view is mirrored `mirror` (for glass): its picture follows.
    public func setSubjectViewMirror(_ mirror: MirrorFlags) {
        subjectViewMirror = mirror
        applySubjectMirror()
    }

    /// Sets the subject picture's direction: the selfie mirror of the camera on the air, combined with
    /// the view's own mirror.
    func applySubjectMirror() {
        let selfie = liveMirrors().subjectPicture
        let shown = subjectPictureUse != .covered
        let h = shown && selfie != subjectViewMirror.horizontal, v = shown && subjectViewMirror.vertical
        pipeline?.child(.subjectMirror)?.setFromString("video-direction", h && v ? "180" : h ? "horiz" : v ? "vert" : "identity")
    }

    // MARK: Two cameras

    /// Which camera the selector passes: 0 for A, 1 for B.
    public internal(set) var activeCamera = 0
    /// The format the active camera delivers (the same for both in virtual mode).
    public var activeFormat: VideoFormat { plan.format(ofCamera: activeCamera) }

    var microphoneLost = false
    /// A named microphone's leg on the audio mixer, while attached, and how many were attached so far
    /// (CaptureSession+Microphone.swift).
    var microphoneLeg: MicrophoneLeg?
    var microphoneGeneration = 0
    /// Who owns a failure, from the element's name and its bins (the audio chain and each camera's
    /// chain are filled in when the graph is built).
    private var routing = FaultRouting()
    private var audioSourceName: String?
    /// Cameras whose source is stopped (unplugged, or lost to an error).
    var unpluggedCameras: Set<Int> = []
    /// Whose face each camera sees now (`setFaces`: a camera turned round); nil: the plan's.
    var liveFaces: [FacingViewer]?

    var recogniserFailed = false
    // Side branches (CaptureSession+Branches.swift).
    /// The recogniser's branch (a bin on the audio tee), while attached.
    var recogniser: AttachedBranch?
    /// The subject view's branches to remote displays, by display number.
    var remotes: [Int: AttachedBranch] = [:]
    var remoteDrawers: [Int: FrameDrawerProbe] = [:]
    /// Remote branches attached so far: each branch's bin has a name of its own (`remote<N>_bin<G>`), so
    /// a late error from a branch already dropped is never taken for the one that replaced it.
    var remoteGenerations = 0
    /// The players of cameras that are clips (`--camera file:PATH`), while the graph runs.
    var clipCameras: [ClipCamera] = []
    /// The framing detector's branch on the camera tee (CaptureSession+Framing.swift), while it runs.
    var framingBranch: AttachedBranch?
    var framingFailed = false
    /// The two detectors' faces, merged into one list a quick frame.
    var faceSightings = FaceSightings()

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

    // MARK: Takes (the TakeRecorder's, while the graph runs)

    public var isRecording: Bool { get async { await recorder?.isRecording ?? false } }
    /// Tests turn this off (before or after start) to keep a failed take attached and prove the tee is
    /// shielded from its errors rather than rescued by how fast the bus is read.
    func setDetachesFailedTakes(_ value: Bool) async {
        detachesFailedTakes = value
        await recorder?.setDetachesFailedTakes(value)
    }
    private var detachesFailedTakes = true
    /// The running take's failure, before the take has been detached.
    var runningTakeFailure: DuoError? { get async { await recorder?.runningTakeFailure } }
    /// Every take this session ended, in order, however it ended (stopTake, a failure, stop()).
    public var endedTakes: [TakeResult] { get async { await recorder?.endedTakes ?? [] } }
    /// The running take's start in pipeline running time (ns): the later of the requested start and the
    /// moment it was attached. The teleprompter's scroll and the sidecar's markers use this same instant.
    public var takeStartRunningTime: Int64? { get async { await recorder?.takeStartRunningTime } }
    /// Frames that entered the running take's branch so far (nil when not recording).
    public var takeFrames: FrameCount? { get async { await recorder?.takeFrames } }

    /// Attaches a new record branch (video, and audio when the plan has it) to the running tees. Frames
    /// captured at or after `startingAt` (pipeline running time, ns; default: now) go into `path`; earlier
    /// ones are dropped at the tee pads, so a take can be attached just before its countdown ends and
    /// still start exactly at the end. Returns the take's number (`number`, or the next one).
    @discardableResult
    public func startTake(path: String, startingAt requestedStart: Int64? = nil, number: Int? = nil) async throws(DuoError) -> Int {
        guard let recorder, failure == nil else { throw .runtime("cannot start a take: the capture session is not running") }
        return try await recorder.start(path: path, format: activeFormat, startingAt: requestedStart, number: number)
    }

    /// Detaches the record branch at a frame boundary and waits until the file is finalised; the preview
    /// keeps running. A call while a stop is in flight awaits that stop and gets its result.
    public func stopTake() async throws(DuoError) -> TakeResult {
        guard let recorder else { throw .runtime("no take is recording") }
        return try await recorder.stop()
    }

    /// Waits until `condition` holds for the counts, checking every few milliseconds. For callers that
    /// need "at least N frames have flowed" (tests, benchmarks, start-up checks).
    public func waitUntil(timeout seconds: Double = 30, _ condition: @Sendable (BranchCounts, FrameCount?) -> Bool) async throws(DuoError) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(counts, await takeFrames) {
            if let failure { throw failure }
            guard Date() < deadline else { throw .runtime("frames stopped flowing: waited \(Int(seconds)) s for the expected frames") }
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

    // MARK: Bus

    private func handle(_ event: BusEvent) async {
        switch event {
        case .pipelineState(let state):
            if state == "PLAYING" {
                dumpGraph("playing")
                isPlaying = true
                resumePlayingWaiters()
            }
        case .childEndOfStream(let id):
            await recorder?.endOfStream(from: id)
        case .error(let source, _, let message, let debug, let domainCode, let bins):
            switch routing.owner(of: source, ancestors: bins, playing: isPlaying) {
            case .take(let number):
                // An error inside a take's bin is the take's, never the graph's: the preview goes on.
                await recorder?.error(inTake: number, source: source, message: message, domainCode: domainCode)
            case .camera(let index):
                // A camera lost while the graph runs: stop its source (a re-plug restarts it); the run
                // director decides what the run does (the other camera goes on, or it waits, or ends).
                guard !unpluggedCameras.contains(index) else { return }
                unpluggedCameras.insert(index)
                pipeline?.child(named: GraphElement.cameraSource.forCamera(index))?.setState(GST_STATE_NULL)
                eventSink.yield(.cameraLost(index: index, reason: "\(source): \(message)"))
            case .remote(let index):
                remoteFailed(index, source: source, bins: bins, message: message)
            case .recogniser:
                // Voice-follow's recogniser failed (a model it cannot read, say): its branch stops behind
                // its leaky queue, which never holds the tee back; the sound, the preview and any take go
                // on, and the run follows by time.
                guard !recogniserFailed else { return }
                recogniserFailed = true
                eventSink.yield(.recogniserFailed("\(source): \(message)"))
            case .microphone:
                // A named microphone's leg: taken out, the silence goes on (CaptureSession+Microphone.swift).
                if microphoneLegFailed(source: source, bins: bins, message: message) { return }
                // The microphone's failure: end its stream, so a take's muxer stops waiting for sound and
                // the video goes on; later takes get an audio track that ends at once.
                guard !microphoneLost else { return }
                microphoneLost = true
                if let name = audioSourceName { pipeline?.child(named: name)?.setState(GST_STATE_NULL) }
                if let sink = pipeline?.child(.audioTee)?.staticPad("sink") { duo_send_eos(sink.pointer) }
                eventSink.yield(.microphoneLost("\(source): \(message)"))
            case .framing:
                framingBranchFailed(source: source, message: message)
            case .subjectView:
                // The accessory's own failure (its sink, its drawing): shut it, keep capturing.
                guard !subjectFailed else { return }
                subjectFailed = true
                pipeline?.child(.subjectValve)?.set("drop", true)
                eventSink.yield(.subjectFailed("\(source): \(message)"))
            case .graph:
                let error = DuoError.runtime("\(source): \(message)" + (debug.isEmpty ? "" : " [\(debug.split(separator: "\n").first ?? "")]"))
                failure = error
                resumePlayingWaiters()
                eventSink.yield(.failed(error))
            }
        case .warning(let source, let message, let bins):
            if case .remote(let index) = routing.owner(of: source, ancestors: bins, playing: isPlaying) {
                // srtsink says it is reconnecting (the display went): the display is asked again, and the
                // branch made anew for it (its size may differ), rather than left calling on its own.
                return remoteFailed(index, source: source, bins: bins, message: message)
            }
            eventSink.yield(.warning("\(source): \(message)"))
        case .audioLevel(let rms, let peak):
            lastAudioLevel = AudioLevel(rmsDB: rms, peakDB: peak, runningTime: runningTime)
        case .speech(let text, let isFinal, let audioTime):
            // Stamped on arrival, on the pipeline clock: a final hypothesis carries no time of its own,
            // and arrival is what the aligner's pacing was tuned with.
            _ = audioTime
            eventSink.yield(.speech(text: text, isFinal: isFinal, at: runningTime))
        case .faces(let quads, let detector):
            facesSeen(quads, detector: detector)
        case .endOfStream:
            break
        }
    }

    private func resumePlayingWaiters() {
        let waiters = playingWaiters
        playingWaiters.removeAll()
        for w in waiters { w.resume() }
    }

    /// Writes the graph as Graphviz when GST_DEBUG_DUMP_DOT_DIR is set, as gst-launch-1.0 does (no-op otherwise).
    private func dumpGraph(_ name: String) {
        guard let p = pipeline else { return }
        gst_debug_bin_to_dot_file(duo_as_bin(p.pointer), GST_DEBUG_GRAPH_SHOW_ALL, "duo-capture-\(name)")
    }

    // MARK: Parsing

    static func parse(_ description: String) throws(DuoError) -> ElementRef {
        var error: UnsafeMutablePointer<GError>? = nil
        let element = gst_parse_launch(description, &error)
        if let error {
            let text = String(cString: error.pointee.message)
            g_error_free(error)
            if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
            throw .input("the pipeline description does not parse: \(text); check the files in Pipelines/")
        }
        guard let element else { throw .input("the pipeline description does not parse; check the files in Pipelines/") }
        return ElementRef(taking: element)
    }


}
