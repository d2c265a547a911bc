import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  CaptureSession: the one owner of the running GStreamer graph.
//
//   camera ─▶ normalise ─▶ tee ─┬─▶ operator branch
//                               ├─▶ subject branch
//                               └─▶ ┐ take N (bin "takeN", added with startTake, removed with stopTake):
//   audio ─▶ level ─▶ tee "at" ─┬─▶ ┘ one muxer, both pads gated and shifted to the same start
//                               └─▶ fakesink
//
//  Each take input is a tee request pad ─▶ start gate (drops what was captured before the take's start)
//  ─▶ the bin's ghost sink, whose chain function hides the branch's flow errors from the tee, so a full
//  disk ends the take and never the preview.
//
//  Every change to the graph is a serial transaction on this actor; callers (CLI, GTK, control socket)
//  send it Sendable commands and await the result, so no UI thread ever blocks on a state change.

/// Frames seen on each branch so far.
///
/// Thread: value type, Sendable; a snapshot read on the session actor.
public struct BranchCounts: Sendable, Equatable {
    public var camera: FrameCount
    public var operatorView: FrameCount
    public var subjectView: FrameCount
    public init(camera: FrameCount, operatorView: FrameCount, subjectView: FrameCount) {
        self.camera = camera; self.operatorView = operatorView; self.subjectView = subjectView
    }
}

/// One reading of the audio level meter (`level`, first channel).
///
/// Thread: value type, Sendable; parsed on the bus thread, delivered through the session actor.
public struct AudioLevel: Sendable, Equatable {
    public let rmsDB: Double
    public let peakDB: Double
    /// Pipeline running time when the session received it, ns.
    public let runningTime: Int64
}

/// A switch between the two cameras of a virtual-camera session.
///
/// Thread: value type, Sendable.
public struct CameraSwap: Sendable, Equatable {
    /// Pipeline running time of the switch, ns.
    public let runningTime: Int64
    public let from: String
    public let to: String
    /// The (unchanged) format the session runs at.
    public let format: String
    public init(runningTime: Int64, from: String, to: String, format: String) {
        self.runningTime = runningTime; self.from = from; self.to = to; self.format = format
    }
}

/// A finished take, as the session saw it.
///
/// Thread: value type, Sendable; made by the session actor when a take ends.
public struct TakeResult: Sendable {
    public let number: Int
    public let path: String
    /// Frames that entered the record branch.
    public let frames: FrameCount
    /// Audio buffers that entered the record branch (nil without audio).
    public let audio: FrameCount?
    /// Pipeline running time at which the take started (the countdown's end) and when it was detached, ns.
    public let startRunningTime: Int64
    public let endRunningTime: Int64
    /// Running time of the first video frame and first audio buffer let into the take, ns.
    public let firstFrameRunningTime: Int64?
    public let firstAudioRunningTime: Int64?
    public let startDate: Date
    public let endDate: Date
    /// Set when the take ended because of an error (disk full, encoder failure); the file holds what was
    /// written before it. A take stopped before its first frame is `empty`, not failed.
    public let failure: DuoError?
    /// Camera swaps while the take recorded.
    public var swaps: [CameraSwap] = []

    public init(number: Int, path: String, frames: FrameCount, audio: FrameCount? = nil, startRunningTime: Int64,
                endRunningTime: Int64, firstFrameRunningTime: Int64? = nil, firstAudioRunningTime: Int64? = nil,
                startDate: Date, endDate: Date, failure: DuoError? = nil, swaps: [CameraSwap] = []) {
        self.number = number; self.path = path; self.frames = frames; self.audio = audio
        self.startRunningTime = startRunningTime; self.endRunningTime = endRunningTime
        self.firstFrameRunningTime = firstFrameRunningTime; self.firstAudioRunningTime = firstAudioRunningTime
        self.startDate = startDate; self.endDate = endDate; self.failure = failure; self.swaps = swaps
    }

    /// Stopped before its first frame: no file is kept, and it is no failure.
    public var empty: Bool { frames.frames == 0 }

    /// Record-start latency: the first recorded frame's capture time after the take's start, ns.
    public var startLatency: Int64? { firstFrameRunningTime.map { $0 - startRunningTime } }
}

/// Thread: value type, Sendable; emitted by the session actor, read by any task.
public enum SessionEvent: Sendable {
    case takeStarted(number: Int, path: String)
    case takeEnded(TakeResult)
    /// The session cannot go on; the graph has been stopped.
    case failed(DuoError)
    case warning(String)
    case audioLevel(rmsDB: Double, peakDB: Double)
}

/// Thread: an actor (the capture-session actor); its probes run on streaming threads, its bus
/// watch on a thread of its own, and both only hand Sendable values back to the actor.
public actor CaptureSession {
    public let plan: GraphPlan
    public nonisolated let events: AsyncStream<SessionEvent>
    /// The pipeline's running time, readable from any thread, and waitable (the run director's clock).
    public nonisolated let clock = PipelineClock()
    private let eventSink: AsyncStream<SessionEvent>.Continuation

    private(set) var pipeline: ElementRef?
    private var tee: ElementRef?
    private var audioTee: ElementRef?
    private var lastAudioLevel: AudioLevel?
    private var bus: BusWatch?
    private var busTask: Task<Void, Never>?
    private var counters: [String: FrameCounter] = [:]
    private var take: ActiveTake?
    private var takeCount = 0
    private var failure: DuoError?
    private var playingWaiters: [CheckedContinuation<Void, Never>] = []
    private var isPlaying = false
    private var eosSeen: Set<UInt> = []
    private var eosWaiters: [UInt: CheckedContinuation<Void, Never>] = [:]

    /// One tee feeding a take: the tee's request pad, the bin's ghost sink and the start gate on the pad.
    private final class TakeInput: @unchecked Sendable {
        let tee: ElementRef
        let teePad: PadRef
        let binSink: PadRef
        private let gate: UnsafeMutablePointer<DuoStartGate>
        init(tee: ElementRef, teePad: PadRef, binSink: PadRef, gate: UnsafeMutablePointer<DuoStartGate>) {
            self.tee = tee; self.teePad = teePad; self.binSink = binSink; self.gate = gate
        }
        /// Running time of the first buffer let into the take, ns.
        var firstRunningTime: Int64? {
            let t = duo_start_gate_first_running_time(gate)
            return t >= 0 ? Int64(t) : nil
        }
        deinit { duo_start_gate_unref(gate) }
    }

    private final class ActiveTake: @unchecked Sendable {
        let number: Int
        let path: String
        let bin: ElementRef
        let sink: ElementRef
        let video: TakeInput
        let audio: TakeInput?
        let counter: FrameCounter
        let audioCounter: FrameCounter?
        let startRunningTime: Int64
        let startDate: Date
        var failure: DuoError?
        var inputs: [TakeInput] { [video] + (audio.map { [$0] } ?? []) }
        init(number: Int, path: String, bin: ElementRef, sink: ElementRef, video: TakeInput, audio: TakeInput?,
             counter: FrameCounter, audioCounter: FrameCounter?, startRunningTime: Int64, startDate: Date) {
            self.number = number; self.path = path; self.bin = bin; self.sink = sink; self.video = video
            self.audio = audio; self.counter = counter; self.audioCounter = audioCounter
            self.startRunningTime = startRunningTime; self.startDate = startDate
        }
    }

    private var beforePlayingHook: (@Sendable (PreparedGraph) async throws(DuoError) -> Void)?
    /// Sets what `start()` runs between building the graph and starting it, when its caller passes none.
    public func setBeforePlaying(_ hook: @escaping @Sendable (PreparedGraph) async throws(DuoError) -> Void) {
        beforePlayingHook = hook
    }

    private let subjectDrawer: (any I420FrameDrawer)?
    private var subjectProbe: FrameDrawerProbe?
    private let sampleLuma: Bool
    private let initialSubjectOpen: Bool

    /// - Parameters:
    ///   - subjectDrawer: draws the subject view (teleprompter, countdown, light) into each subject frame.
    ///   - sampleLuma: frame counters also record each frame's first luma byte (tests of pixel isolation).
    ///   - subjectBranchOpen: whether the subject branch runs from the start (see `setSubjectBranchOpen`).
    public init(plan: GraphPlan, subjectDrawer: (any I420FrameDrawer)? = nil, subjectBranchOpen: Bool = true,
                sampleLuma: Bool = false) {
        self.plan = plan
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
        let description = try plan.liveDescription()
        for element in GStreamer.elementNames(in: description) where !GStreamer.hasElement(element) {
            throw ElementPackages.missingElementError(element, neededFor: "the capture graph")
        }
        try GStreamer.require(plan.recordElements, for: "recording takes")
        let p = try Self.parse(description)
        // Take branches post their own EOS; forward them so a take can be finalised while the preview runs.
        p.set("message-forward", true)
        guard let t = p.child(.tee) else { throw .input("the capture graph has no tee named t; check the files in Pipelines/") }
        pipeline = p
        clock.attach(p)
        tee = t
        if plan.audio != .none {
            guard let at = p.child(.audioTee) else {
                p.setState(GST_STATE_NULL)
                pipeline = nil
                throw .input("pipeline file audio.gst must name its tee at (duo-capture looks it up by that name)")
            }
            audioTee = at
            counters["audio"] = p.child(.audioSink)?.staticPad("sink").map { FrameCounter(pad: $0) }
        }
        let sample = sampleLuma
        // With two cameras, "camera" counts what the selector lets through: the active camera's frames.
        let cameraOut = p.child(.selector)?.staticPad("src") ?? p.child(.cameraCaps)?.staticPad("src")
        counters["camera"] = cameraOut.map { FrameCounter(pad: $0, sampleLuma: sample) }
        counters["operator"] = p.child(.operatorSink)?.staticPad("sink").map { FrameCounter(pad: $0, sampleLuma: sample) }
        counters["subject"] = p.child(.subjectSink)?.staticPad("sink").map { FrameCounter(pad: $0, sampleLuma: sample) }
        p.child(.subjectValve)?.set("drop", !initialSubjectOpen)
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
        if p.setState(GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            let reason = failure?.message ?? "the pipeline refused to start"
            await stop()
            throw .runtime("cannot start the capture graph: \(reason); check the camera with `duo-capture pipeline` and gst-launch-1.0")
        }
        await waitUntilPlaying()
        if let failure {
            await stop()
            throw failure
        }
    }

    private func waitUntilPlaying() async {
        if isPlaying || failure != nil { return }
        await withCheckedContinuation { playingWaiters.append($0) }
    }

    /// Ends a running take (finalising its file), then stops the graph. Idempotent.
    @discardableResult
    public func stop() async -> TakeResult? {
        var result: TakeResult?
        if take != nil || stopping != nil { result = try? await stopTake() }
        counters.removeAll()
        subjectProbe = nil
        if let p = pipeline {
            p.setState(GST_STATE_NULL)
        }
        clock.detach()
        bus?.cancel()
        bus = nil
        busTask?.cancel()
        busTask = nil
        tee = nil
        audioTee = nil
        pipeline = nil
        resumePlayingWaiters()
        for (_, w) in eosWaiters { w.resume() }
        eosWaiters.removeAll()
        eventSink.finish()
        return result
    }

    /// Opens or shuts the subject branch at its valve. Shut, the branch does no work at all: no scaling,
    /// no drawing, no sink. (The valve drops buffers and, from GStreamer 1.22, re-sends sticky events
    /// when it opens again.)
    public func setSubjectBranchOpen(_ open: Bool) {
        pipeline?.child(.subjectValve)?.set("drop", !open)
    }

    // MARK: Two cameras

    /// Which camera the selector passes: 0 for A, 1 for B.
    public private(set) var activeCamera = 0
    /// The format the active camera delivers (the same for both in virtual mode).
    public var activeFormat: VideoFormat { plan.format(ofCamera: activeCamera) }
    private var swaps: [CameraSwap] = []

    /// Switches the virtual camera to camera `index` (0 = A, 1 = B), or to the other one. Both cameras
    /// run at the same fixed caps, so nothing downstream renegotiates and a take goes on unbroken.
    @discardableResult
    public func selectCamera(_ index: Int? = nil) throws(DuoError) -> CameraSwap? {
        guard let second = plan.secondCamera else {
            throw .usage("camera swaps need a second camera; give --camera twice")
        }
        guard let selector = pipeline?.child(.selector) else { throw .runtime("the capture session is not running") }
        let target = index ?? (1 - activeCamera)
        guard target != activeCamera else { return nil }
        guard let pad = selector.staticPad("sink_\(target)") else { throw .runtime("the camera selector has no input \(target)") }
        duo_set_object(UnsafeMutableRawPointer(selector.pointer), "active-pad", UnsafeMutableRawPointer(pad.pointer))
        let labels = [plan.camera.label, second.label]
        let swap = CameraSwap(runningTime: runningTime, from: labels[activeCamera], to: labels[target],
                              format: plan.format(ofCamera: target).description)
        activeCamera = target
        swaps.append(swap)
        return swap
    }

    // MARK: State

    public var counts: BranchCounts {
        BranchCounts(camera: counters["camera"]?.read() ?? .zero,
                     operatorView: counters["operator"]?.read() ?? .zero,
                     subjectView: counters["subject"]?.read() ?? .zero)
    }

    /// Audio buffers that reached the live audio sink (nil without audio).
    public var audioCount: FrameCount? { counters["audio"]?.read() }
    /// The latest `level` reading, for the operator HUD (nil without audio or before the first one).
    public var audioLevel: AudioLevel? { lastAudioLevel }

    public var isRecording: Bool { take != nil }
    /// Tests turn this off to keep a failed take attached and prove the tee is shielded from its errors
    /// (duo_isolate_branch_errors) rather than rescued by how fast the bus is read.
    var detachesFailedTakes = true
    func setDetachesFailedTakes(_ value: Bool) { detachesFailedTakes = value }
    /// The running take's failure, before the take has been detached.
    var runningTakeFailure: DuoError? { take?.failure }

    /// Every take this session ended, in order, however it ended (stopTake, a failure, stop()).
    public private(set) var endedTakes: [TakeResult] = []
    /// The running take's start in pipeline running time (ns): the later of the requested start and the
    /// moment it was attached. The teleprompter's scroll and the sidecar's markers use this same instant.
    public var takeStartRunningTime: Int64? { take?.startRunningTime }

    /// Frames that entered the running take's branch so far (nil when not recording).
    public var takeFrames: FrameCount? { take?.counter.read() }

    /// Waits until `condition` holds for the counts, checking every few milliseconds. For callers that
    /// need "at least N frames have flowed" (tests, benchmarks, start-up checks).
    public func waitUntil(timeout seconds: Double = 30, _ condition: @Sendable (BranchCounts, FrameCount?) -> Bool) async throws(DuoError) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(counts, takeFrames) {
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

    // MARK: Takes

    /// Attaches a new record branch (video, and audio when the plan has it) to the running tees. Frames
    /// captured at or after `startingAt` (pipeline running time, ns; default: now) go into `path`; earlier
    /// ones are dropped at the tee pads, so a take can be attached just before its countdown ends and
    /// still start exactly at the end. Both streams are shifted by the same amount so the file starts at
    /// zero and audio stays in sync with video.
    @discardableResult
    public func startTake(path: String, startingAt requestedStart: Int64? = nil, number requestedNumber: Int? = nil) throws(DuoError) -> Int {
        guard let p = pipeline, let t = tee, failure == nil else {
            throw .runtime("cannot start a take: the capture session is not running")
        }
        guard take == nil, stopping == nil else { throw .runtime("a take is already recording; stop it first") }
        takeCount = requestedNumber ?? (takeCount + 1)
        let number = takeCount
        let bin = try Self.parseBin(try plan.recordDescription(location: path, format: activeFormat), name: "take\(number)")
        guard let queue = bin.child(.recordQueue), let queueSink = queue.staticPad("sink"),
              let sink = bin.child(.recordSink) else {
            throw .input("pipeline file record.gst must keep the elements named record_queue and record_sink")
        }
        let binSink = Self.addGhostSink(to: bin, target: queueSink, name: "sink")
        let counter = FrameCounter(pad: queue.staticPad("src")!)
        var audioInput: (sink: PadRef, counter: FrameCounter)?
        if plan.audio != .none {
            guard let audioQueue = bin.child(.recordAudioQueue), let audioQueueSink = audioQueue.staticPad("sink") else {
                throw .input("pipeline file record-audio.gst must keep the element named record_audio_queue")
            }
            audioInput = (Self.addGhostSink(to: bin, target: audioQueueSink, name: "audio_sink"),
                          FrameCounter(pad: audioQueue.staticPad("src")!))
        }

        // The pipeline takes its own reference (the bin is no longer floating); ours stays with ElementRef.
        gst_bin_add(duo_as_bin(p.pointer), bin.pointer)
        let start = max(requestedStart ?? 0, runningTime)
        // Shift the branch so its running time starts at 0 at the take's start; frames captured before
        // that moment are dropped at the tee pads (DuoStartGate), so the first frame in the file is the
        // first one captured at or after `start`, within one frame interval of it.
        gst_pad_set_offset(binSink.pointer, gint64(-start))
        if let audioInput { gst_pad_set_offset(audioInput.sink.pointer, gint64(-start)) }
        func abandon() {
            gst_element_set_state(bin.pointer, GST_STATE_NULL)
            gst_bin_remove(duo_as_bin(p.pointer), bin.pointer)
        }
        guard gst_element_sync_state_with_parent(bin.pointer) != 0 else {
            abandon()
            throw .runtime("cannot start take \(number): the record branch did not start; run with GST_DEBUG=3 for details")
        }
        guard let video = Self.linkTee(t, to: binSink, start: start) else {
            abandon()
            throw .runtime("cannot start take \(number): linking the record branch failed")
        }
        var audio: TakeInput?
        if let audioInput {
            guard let at = audioTee, let linked = Self.linkTee(at, to: audioInput.sink, start: start) else {
                duo_detach_branch_when_idle(t.pointer, video.teePad.pointer, video.binSink.pointer)
                abandon()
                throw .runtime("cannot start take \(number): linking the audio branch failed")
            }
            audio = linked
        }
        dumpGraph("take\(number)")
        take = ActiveTake(number: number, path: path, bin: bin, sink: sink, video: video, audio: audio,
                          counter: counter, audioCounter: audioInput?.counter, startRunningTime: start, startDate: Date())
        eventSink.yield(.takeStarted(number: number, path: path))
        return number
    }

    private static func addGhostSink(to bin: ElementRef, target: PadRef, name: String) -> PadRef {
        let ghost = gst_ghost_pad_new(name, target.pointer)!
        gst_element_add_pad(bin.pointer, ghost)
        // A failing take (full disk) must never stop the tee, and so the preview.
        duo_isolate_branch_errors(ghost)
        return PadRef(adopting: gst_object_ref(UnsafeMutableRawPointer(ghost)).assumingMemoryBound(to: GstPad.self))
    }

    private static func linkTee(_ tee: ElementRef, to binSink: PadRef, start: Int64) -> TakeInput? {
        guard let teePadPointer = gst_element_request_pad_simple(tee.pointer, "src_%u") else { return nil }
        let teePad = PadRef(adopting: teePadPointer)
        let gate = duo_start_gate_attach(teePad.pointer, GstClockTime(start))!
        guard gst_pad_link(teePad.pointer, binSink.pointer) == GST_PAD_LINK_OK else {
            gst_element_release_request_pad(tee.pointer, teePad.pointer)
            duo_start_gate_unref(gate)
            return nil
        }
        return TakeInput(tee: tee, teePad: teePad, binSink: binSink, gate: gate)
    }

    /// Detaches the record branch at a frame boundary, sends it EOS and waits until the file is finalised.
    /// The preview keeps running throughout.
    ///
    /// A second call (or `stop()`) while the first still waits for the file to be finalised awaits the
    /// same stop and gets the same result: a take is ended exactly once, and always reported.
    public func stopTake() async throws(DuoError) -> TakeResult {
        if stopping != nil {
            return await withCheckedContinuation { stopping?.append($0) }
        }
        guard let current = take, let p = pipeline else {
            throw .runtime("no take is recording")
        }
        take = nil
        stopping = []
        let result = await finalise(current, in: p)
        let waiters = stopping ?? []
        stopping = nil
        for w in waiters { w.resume(returning: result) }
        return result
    }

    /// While a take is being finalised (detached, waiting for its end-of-stream): the calls waiting for it.
    private var stopping: [CheckedContinuation<TakeResult, Never>]?

    private func finalise(_ current: ActiveTake, in p: ElementRef) async -> TakeResult {
        let end = runningTime
        let sinkID = current.sink.identity
        let binID = current.bin.identity
        for input in current.inputs {
            duo_detach_branch_when_idle(input.tee.pointer, input.teePad.pointer, input.binSink.pointer)
        }
        if current.failure == nil {
            await waitForEOS(anyOf: [sinkID, binID], timeout: 10)
        }
        current.bin.setState(GST_STATE_NULL)
        gst_bin_remove(duo_as_bin(p.pointer), current.bin.pointer)
        eosSeen.remove(sinkID)
        eosSeen.remove(binID)
        let frames = current.counter.read()
        let failure = current.failure
        if frames.frames == 0 {
            // A file with headers and no frame does not play; leave nothing rather than a broken file.
            try? FileManager.default.removeItem(atPath: current.path)
        }
        var result = TakeResult(number: current.number, path: current.path, frames: frames,
                                audio: current.audioCounter?.read(),
                                startRunningTime: current.startRunningTime, endRunningTime: end,
                                firstFrameRunningTime: current.video.firstRunningTime,
                                firstAudioRunningTime: current.audio?.firstRunningTime,
                                startDate: current.startDate, endDate: Date(), failure: failure)
        result.swaps = swaps.filter { $0.runningTime >= current.startRunningTime && $0.runningTime <= end }
        endedTakes.append(result)
        eventSink.yield(.takeEnded(result))
        return result
    }

    private func waitForEOS(anyOf ids: [UInt], timeout seconds: Double) async {
        if ids.contains(where: eosSeen.contains) { return }
        let key = ids[0]
        let timer = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            await self?.resumeEOSWaiter(key)
        }
        await withCheckedContinuation { continuation in
            eosWaiters[key] = continuation
            for id in ids.dropFirst() { eosAliases[id] = key }
        }
        timer.cancel()
        for id in ids.dropFirst() { eosAliases[id] = nil }
    }
    private var eosAliases: [UInt: UInt] = [:]

    private func resumeEOSWaiter(_ key: UInt) {
        eosWaiters.removeValue(forKey: key)?.resume()
    }

    // MARK: Bus

    private func handle(_ event: BusEvent) {
        switch event {
        case .pipelineState(let state):
            if state == "PLAYING" {
                dumpGraph("playing")
                isPlaying = true
                resumePlayingWaiters()
            }
        case .childEndOfStream(let id):
            eosSeen.insert(id)
            resumeEOSWaiter(eosAliases[id] ?? id)
        case .error(let source, _, let message, let debug, let domainCode, let takeNumber):
            if let takeNumber, takeNumber != take?.number {
                // A take being torn down (or already gone) reports the consequences of its own end, such
                // as a queue told EOS after the disk filled. It has been dealt with; the preview is fine.
                return
            }
            if let current = take, takeNumber == current.number {
                // The take failed (disk full, encoder error): end it, keep the preview. Only the first
                // error counts; the elements behind it report their own consequences.
                guard current.failure == nil else { return }
                let directory = (current.path as NSString).deletingLastPathComponent
                current.failure = domainCode == Self.noSpaceLeft
                    ? .runtime("take \(current.number) stopped: the disk holding \(directory) is full; free space or give another --record-dir (the file holds what was recorded before, the preview goes on)")
                    : .runtime("take \(current.number) stopped: \(message) (\(source)); the file holds what was recorded before")
                if detachesFailedTakes { Task { _ = try? await self.stopTake() } }
                return
            }
            let error = DuoError.runtime("\(source): \(message)" + (debug.isEmpty ? "" : " [\(debug.split(separator: "\n").first ?? "")]"))
            failure = error
            resumePlayingWaiters()
            eventSink.yield(.failed(error))
        case .warning(let source, let message):
            eventSink.yield(.warning("\(source): \(message)"))
        case .audioLevel(let rms, let peak):
            lastAudioLevel = AudioLevel(rmsDB: rms, peakDB: peak, runningTime: runningTime)
            eventSink.yield(.audioLevel(rmsDB: rms, peakDB: peak))
        case .endOfStream:
            break
        }
    }

    /// GST_RESOURCE_ERROR_NO_SPACE_LEFT, as BusWatch spells a GError.
    static let noSpaceLeft = "gst-resource-error-quark:14"

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

    static func parseBin(_ description: String, name: String) throws(DuoError) -> ElementRef {
        var error: UnsafeMutablePointer<GError>? = nil
        let bin = gst_parse_bin_from_description(description, 0, &error)
        if let error {
            let text = String(cString: error.pointee.message)
            g_error_free(error)
            throw .input("the record branch does not parse: \(text); check record.gst and the encoder and muxer files in Pipelines/")
        }
        guard let bin else { throw .input("the record branch does not parse; check Pipelines/record.gst") }
        let ref = ElementRef(taking: duo_as_element(UnsafeMutableRawPointer(bin)))
        gst_object_set_name(duo_as_gst_object(ref.pointer), name)
        return ref
    }
}
