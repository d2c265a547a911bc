import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  TakeRecorder: one take at a time on the running graph, apart from the graph's own life.
//
//   tee "t"  ─▶ request pad ─▶ start gate ─▶ ┐ bin "takeN" (Pipelines/record.gst, record-audio.gst):
//   tee "at" ─▶ request pad ─▶ start gate ─▶ ┤ ghost pads (errors isolated) ─▶ queues ─▶ encoders ─▶ mux ─▶ file
//   tee "st" ─▶ request pad ─▶ start gate ─▶ ┘ (--screen: the screen track, record-screen.gst)
//
//  start attaches the bin (shifted so the file starts at 0 at the take's start, earlier frames dropped at
//  the gates); stop detaches it at a frame boundary, sends it EOS and waits for the file to be finalised.
//  A take's own error (full disk) fails the take, never the graph: the preview goes on.

/// Thread: an actor of its own. The capture session forwards it the bus's end-of-stream and take errors
/// in order; it reports takes on the session's event stream.
actor TakeRecorder {
    /// One tee feeding a take: the tee's request pad, the bin's ghost sink and the start gate on the pad.
    ///
    /// Thread: any; immutable; the gate is written by the streaming thread with atomics.
    final class TakeInput: Sendable {
        let tee: ElementRef
        let teePad: PadRef
        let binSink: PadRef
        private let gate: MTSafePointer<DuoStartGate>
        init(tee: ElementRef, teePad: PadRef, binSink: PadRef, gate: UnsafeMutablePointer<DuoStartGate>) {
            self.tee = tee; self.teePad = teePad; self.binSink = binSink; self.gate = MTSafePointer(gate)
        }
        /// Running time of the first buffer let into the take, ns.
        var firstRunningTime: Int64? {
            let t = duo_start_gate_first_running_time(gate.raw)
            return t >= 0 ? Int64(t) : nil
        }
        deinit { duo_start_gate_unref(gate.raw) }
    }

    /// The take being recorded. Thread: the recorder's actor only (not Sendable: it never leaves it).
    final class ActiveTake {
        let number: Int
        let path: String
        /// The format the file records at (the camera on the air when the take began).
        let format: VideoFormat
        let bin: ElementRef
        let sink: ElementRef
        let video: TakeInput
        let audio: TakeInput?
        /// The screen track's leg (`--screen`), nil without one.
        var screen: TakeInput?
        var screenCounter: FrameCounter?
        let counter: FrameCounter
        let audioCounter: FrameCounter?
        let startRunningTime: Int64
        let startDate: Date
        var failure: DuoError?
        var inputs: [TakeInput] { [video] + (audio.map { [$0] } ?? []) + (screen.map { [$0] } ?? []) }
        init(number: Int, path: String, format: VideoFormat, bin: ElementRef, sink: ElementRef, video: TakeInput, audio: TakeInput?,
             counter: FrameCounter, audioCounter: FrameCounter?, startRunningTime: Int64, startDate: Date) {
            self.number = number; self.path = path; self.format = format; self.bin = bin; self.sink = sink; self.video = video
            self.audio = audio; self.counter = counter; self.audioCounter = audioCounter
            self.startRunningTime = startRunningTime; self.startDate = startDate
        }
    }


    let plan: GraphPlan
    private let pipeline: ElementRef
    private let tee: ElementRef
    private let audioTee: ElementRef?
    /// The screen track's tee "st" (`--screen`), set by the session once the graph is built.
    private var screenTee: ElementRef?
    func setScreenTee(_ tee: ElementRef?) { screenTee = tee }
    private let clock: PipelineClock
    private let eventSink: AsyncStream<SessionEvent>.Continuation

    private var take: ActiveTake?
    private var takeCount = 0
    private var eosSeen: Set<UInt> = []
    private var eosWaiters: [UInt: CheckedContinuation<Void, Never>] = [:]
    private var closed = false
    private var swaps: [CameraSwap] = []

    /// Every take this recorder ended, in order, however it ended (stop, a failure, the session's stop).
    private(set) var endedTakes: [TakeResult] = []

    init(plan: GraphPlan, pipeline: ElementRef, tee: ElementRef, audioTee: ElementRef?, clock: PipelineClock,
         events: AsyncStream<SessionEvent>.Continuation) {
        self.plan = plan; self.pipeline = pipeline; self.tee = tee; self.audioTee = audioTee; self.clock = clock
        eventSink = events
    }

    var isRecording: Bool { take != nil }
    /// Recording, or finalising a take that was stopped.
    var isBusy: Bool { take != nil || stopping != nil }
    /// The running take's start in pipeline running time (ns): the later of the requested start and the
    /// moment it was attached. The teleprompter's scroll and the sidecar's markers use this same instant.
    var takeStartRunningTime: Int64? { take?.startRunningTime }
    /// Frames that entered the running take's branch so far (nil when not recording).
    var takeFrames: FrameCount? { take?.counter.read() }
    /// The running take's failure, before the take has been detached.
    var runningTakeFailure: DuoError? { take?.failure }
    /// Tests turn this off to keep a failed take attached and prove the tee is shielded from its errors
    /// (duo_isolate_branch_errors) rather than rescued by how fast the bus is read.
    private var detachesFailedTakes = true
    func setDetachesFailedTakes(_ value: Bool) { detachesFailedTakes = value }

    func noteSwap(_ swap: CameraSwap) { swaps.append(swap) }

    /// The running take's chapters (seconds into it): handed to its muxer now and again, with the take's
    /// length, as it is finalised. matroskamux writes them when the file is finalised (a killed run's
    /// file has none: its sidecar holds the notes).
    private var chapters: [TakeChapter] = []
    func setChapters(_ list: [TakeChapter]) {
        chapters = list
        if let take { applyChapters(take, end: clock.now()) }
    }
    private func applyChapters(_ take: ActiveTake, end: Int64) {
        guard !chapters.isEmpty, let mux = take.bin.child(named: GraphElement.recordMux.rawValue) else { return }
        let starts = chapters.map { gint64(($0.atSeconds * 1e9).rounded()) }
        let length = max(gint64(end - take.startRunningTime), (starts.max() ?? 0) + 1)
        var titles = chapters.map { strdup($0.title) }
        defer { titles.forEach { free($0) } }
        titles.withUnsafeMutableBufferPointer { t in
            starts.withUnsafeBufferPointer { s in
                t.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: t.count) { titlePointers in
                    _ = duo_set_chapters(mux.pointer, guint(s.count), s.baseAddress, titlePointers, length)
                }
            }
        }
    }

    // MARK: Bus facts (forwarded by the session, in the bus's order)

    func endOfStream(from id: UInt) {
        eosSeen.insert(id)
        resumeEOSWaiter(eosAliases[id] ?? id)
    }

    /// An error posted inside take `number`'s bin.
    func error(inTake number: Int, source: String, message: String, domainCode: String) {
        // A take being torn down (or already gone) reports the consequences of its own end, such as a queue
        // told EOS after the disk filled. It has been dealt with; the preview is fine.
        guard let current = take, current.number == number else { return }
        // The take failed (disk full, encoder error): end it, keep the preview. Only the first error counts;
        // the elements behind it report their own consequences.
        guard current.failure == nil else { return }
        let directory = (current.path as NSString).deletingLastPathComponent
        current.failure = domainCode == Self.noSpaceLeft
            ? .runtime(.text("take %s stopped: the disk holding %s is full; free space or give another --record-dir (the file holds what was recorded before, the preview goes on)", current.number, directory))
            : .runtime(.text("take %s stopped: %s (%s); the file holds what was recorded before", current.number, message, source))
        if detachesFailedTakes { Task { _ = try? await self.stop() } }
    }

    /// GST_RESOURCE_ERROR_NO_SPACE_LEFT, as BusWatch spells a GError.
    static let noSpaceLeft = "gst-resource-error-quark:14"

    /// The graph is going away: a running take is finalised first (the caller awaits `stop`), and nothing
    /// waits for an end-of-stream that cannot come.
    func close() {
        closed = true
        for (_, w) in eosWaiters { w.resume() }
        eosWaiters.removeAll()
    }

    // MARK: Takes

    /// Attaches a new record branch (video, and audio when the plan has it) to the running tees. Frames
    /// captured at or after `startingAt` (pipeline running time, ns; default: now) go into `path`; earlier
    /// ones are dropped at the tee pads, so a take can be attached just before its countdown ends and
    /// still start exactly at the end. Both streams are shifted by the same amount so the file starts at
    /// zero and audio stays in sync with video.
    func start(path: String, format: VideoFormat, startingAt requestedStart: Int64?, number requestedNumber: Int?) throws(DuoError) -> Int {
        guard !closed else { throw .runtime(.text("cannot start a take: the capture session is not running")) }
        guard take == nil, stopping == nil else { throw .runtime(.text("a take is already recording; stop it first")) }
        let p = pipeline, t = tee
        takeCount = requestedNumber ?? (takeCount + 1)
        let number = takeCount
        let bin = try Self.parseBin(try plan.recordDescription(location: path, format: format), name: FaultRouting.takeBin(number))
        guard let queue = bin.child(.recordQueue), let queueSink = queue.staticPad("sink"),
              let sink = bin.child(.recordSink) else {
            throw .input(.text("pipeline file record.gst must keep the elements named record_queue and record_sink"))
        }
        let binSink = Self.addGhostSink(to: bin, target: queueSink, name: "sink")
        let counter = FrameCounter(pad: queue.staticPad("src")!)
        var audioInput: (sink: PadRef, counter: FrameCounter)?
        if plan.audio != .none {
            guard let audioQueue = bin.child(.recordAudioQueue), let audioQueueSink = audioQueue.staticPad("sink") else {
                throw .input(.text("pipeline file record-audio.gst must keep the element named record_audio_queue"))
            }
            audioInput = (Self.addGhostSink(to: bin, target: audioQueueSink, name: "audio_sink"),
                          FrameCounter(pad: audioQueue.staticPad("src")!))
        }

        var screenInput: (sink: PadRef, counter: FrameCounter)?
        if plan.screen != nil {
            guard let q = bin.child(.recordScreenQueue), let qSink = q.staticPad("sink") else {
                throw .input(.text("pipeline file record-screen.gst must keep the element named record_screen_queue"))
            }
            screenInput = (Self.addGhostSink(to: bin, target: qSink, name: "screen_sink"), FrameCounter(pad: q.staticPad("src")!))
        }

        // The pipeline takes its own reference (the bin is no longer floating); ours stays with ElementRef.
        gst_bin_add(duo_as_bin(p.pointer), bin.pointer)
        let start = max(requestedStart ?? 0, clock.now())
        // Shift the branch so its running time starts at 0 at the take's start; frames captured before
        // that moment are dropped at the tee pads (DuoStartGate), so the first frame in the file is the
        // first one captured at or after `start`, within one frame interval of it.
        gst_pad_set_offset(binSink.pointer, gint64(-start))
        if let audioInput { gst_pad_set_offset(audioInput.sink.pointer, gint64(-start)) }
        if let screenInput { gst_pad_set_offset(screenInput.sink.pointer, gint64(-start)) }
        func abandon() {
            gst_element_set_state(bin.pointer, GST_STATE_NULL)
            gst_bin_remove(duo_as_bin(p.pointer), bin.pointer)
        }
        guard gst_element_sync_state_with_parent(bin.pointer) != 0 else {
            abandon()
            throw .runtime(.text("cannot start take %s: the record branch did not start; run with GST_DEBUG=3 for details", number))
        }
        guard let video = Self.linkTee(t, to: binSink, start: start) else {
            abandon()
            throw .runtime(.text("cannot start take %s: linking the record branch failed", number))
        }
        var audio: TakeInput?
        if let audioInput {
            guard let at = audioTee, let linked = Self.linkTee(at, to: audioInput.sink, start: start) else {
                duo_detach_branch_when_idle(t.pointer, video.teePad.pointer, video.binSink.pointer)
                abandon()
                throw .runtime(.text("cannot start take %s: linking the audio branch failed", number))
            }
            audio = linked
        }
        var screen: TakeInput?
        if let screenInput {
            guard let st = screenTee, let linked = Self.linkTee(st, to: screenInput.sink, start: start) else {
                for input in [video] + (audio.map { [$0] } ?? []) {
                    duo_detach_branch_when_idle(input.tee.pointer, input.teePad.pointer, input.binSink.pointer)
                }
                abandon()
                throw .runtime(.text("cannot start take %s: linking the screen track failed", number))
            }
            screen = linked
        }
        gst_debug_bin_to_dot_file(duo_as_bin(p.pointer), GST_DEBUG_GRAPH_SHOW_ALL, "duo-capture-take\(number)")
        take = ActiveTake(number: number, path: path, format: format, bin: bin, sink: sink, video: video, audio: audio,
                          counter: counter, audioCounter: audioInput?.counter, startRunningTime: start, startDate: Date())
        take?.screen = screen
        take?.screenCounter = screenInput?.counter
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
    func stop() async throws(DuoError) -> TakeResult {
        if stopping != nil {
            return await withCheckedContinuation { stopping?.append($0) }
        }
        guard let current = take else {
            throw .runtime(.text("no take is recording"))
        }
        let p = pipeline
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
        let end = clock.now()
        applyChapters(current, end: end)
        chapters = []
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
        result.format = current.format
        result.screenFrames = current.screenCounter?.read().frames
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

    /// A take's sink must write the file it is given: a record.gst ending in fakesink (or a sink without
    /// a location) would count frames into nothing and report a take that was never written. Checked
    /// before the graph starts, on a take's bin parsed and thrown away.
    static func checkRecordSink(_ plan: GraphPlan) throws(DuoError) {
        let bin = try parseBin(try plan.recordDescription(location: "/dev/null/check.\(plan.container.rawValue)"), name: "check")
        guard let sink = bin.child(.recordSink) else {
            throw .input(.text("pipeline file record.gst must keep the element named record_sink; check Pipelines/"))
        }
        guard sink.has("location") else {
            throw .input(.text("pipeline file record.gst: record_sink writes no file (it has no location, such as a fakesink); end the branch in filesink name=record_sink location=\"{{location}}\""))
        }
    }

    static func parseBin(_ description: String, name: String, what: String = tr("the record branch"),
                         file: String = tr("record.gst and the encoder and muxer files")) throws(DuoError) -> ElementRef {
        var error: UnsafeMutablePointer<GError>? = nil
        let bin = gst_parse_bin_from_description(description, 0, &error)
        if let error {
            let text = String(cString: error.pointee.message)
            g_error_free(error)
            throw .input(.text("%s does not parse: %s; check %s in Pipelines/", what, text, file))
        }
        guard let bin else { throw .input(.text("%s does not parse; check %s in Pipelines/", what, file)) }
        let ref = ElementRef(taking: duo_as_element(UnsafeMutableRawPointer(bin)))
        gst_object_set_name(duo_as_gst_object(ref.pointer), name)
        return ref
    }
}
