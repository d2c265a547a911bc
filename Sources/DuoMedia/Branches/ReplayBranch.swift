import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  The replay buffer (`--replay SECONDS`, issue 39): two bins of their own on the tees, from the run's
//  start to its end, with or without a take. Each encodes as a take does (Pipelines/replay.gst,
//  replay-audio.gst, behind leaky queues: the tees never wait) into an appsink; every packet goes into
//  DuoCore's ReplayRing (whole GOPs leave by time and by a byte cap). A save copies the ring's packets
//  (references, not bytes) and writes them with a short pipeline of its own (ReplayWriter.swift). A
//  failing encoder drops the buffer alone (`replayFailed`): the preview and any take go on.
//
//   camera tee "t" ─▶ replay_bin: queue (leaky) ─▶ crop ─▶ encoder ─▶ replay_sink ─┐
//   audio tee "at" ─▶ replay_audio_bin: queue (leaky) ─▶ encoder ─▶ replay_audio_sink ─┴─▶ ReplayStore (ring)

/// One encoded buffer held by the replay ring: a reference to the encoder's GstBuffer (its bytes are
/// never copied), dropped when the ring lets go of it.
///
/// Thread: any; a GstBuffer is a refcounted mini-object, only read once made (MTSafe's claim).
final class HeldBuffer: Sendable {
    private let handle: MTSafePointer<GstBuffer>
    var pointer: UnsafeMutablePointer<GstBuffer> { handle.raw }
    /// Takes one reference the caller owns.
    init(adopting buffer: UnsafeMutablePointer<GstBuffer>) { handle = MTSafePointer(buffer) }
    deinit { gst_buffer_unref(pointer) }
}

/// The ring and the caps of what is in it, filled from the appsinks' streaming threads.
///
/// Thread: any; everything behind one lock (a packet's append is a few array operations).
final class ReplayStore: Sendable {
    private struct State {
        var ring: ReplayRing<HeldBuffer>
        var videoCaps: MTSafe<UnsafeMutablePointer<GstCaps>>?
        var audioCaps: MTSafe<UnsafeMutablePointer<GstCaps>>?
    }
    private let state: Locked<State>

    init(seconds: Int, byteCap: Int) {
        state = Locked(State(ring: ReplayRing(seconds: seconds, byteCap: byteCap)))
    }

    deinit {
        let s = state.value
        if let c = s.videoCaps { gst_caps_unref(c.raw) }
        if let c = s.audioCaps { gst_caps_unref(c.raw) }
    }

    /// An appsink's new sample: its buffer into the ring at its running time. New video caps (another
    /// camera's format) start the ring again: packets of two formats never go into one file.
    fileprivate func take(_ sample: OpaquePointer, track: ReplayPacket<HeldBuffer>.Track) {
        guard let buffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample) else { return }
        let pts = buffer.pointee.pts
        guard pts != UInt64.max else { return }
        var running = pts
        if let segment = gst_sample_get_segment(sample) {
            running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)
            guard running != UInt64.max else { return }
        }
        let duration = buffer.pointee.duration == UInt64.max ? 0 : Int64(buffer.pointee.duration)
        let key = track == .audio || (buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue) == 0
        let packet = ReplayPacket(track: track, pts: Int64(running), duration: duration, size: Int(gst_buffer_get_size(buffer)),
                                  isKeyframe: key, payload: HeldBuffer(adopting: gst_buffer_ref(buffer)))
        var dropped: [UnsafeMutablePointer<GstCaps>] = []
        state.update { s in
            switch track {
            case .video:
                if let old = s.videoCaps, gst_caps_is_equal(old.raw, caps) == 0 {
                    s.ring.reset()
                    dropped.append(old.raw)
                    s.videoCaps = nil
                }
                if s.videoCaps == nil { s.videoCaps = MTSafe(gst_caps_ref(caps)!) }
            case .audio:
                if s.audioCaps == nil { s.audioCaps = MTSafe(gst_caps_ref(caps)!) }
            }
            s.ring.append(packet)
        }
        dropped.forEach { gst_caps_unref($0) }
    }

    /// What a save writes: the packets from the first keyframe, and the caps of each stream (each caps
    /// with a reference of its own for the caller).
    func snapshot() -> ReplaySnapshot? {
        state.update { s in
            guard let packets = s.ring.snapshot(), let video = s.videoCaps else { return nil }
            let audio = packets.audio.isEmpty ? nil : s.audioCaps.map { MTSafe(gst_caps_ref($0.raw)!) }
            return ReplaySnapshot(video: packets.video, audio: audio == nil ? [] : packets.audio,
                                  videoCaps: MTSafe(gst_caps_ref(video.raw)!), audioCaps: audio)
        }
    }

    var figures: ReplayFigures {
        let ring = state.value.ring
        return ReplayFigures(heldSeconds: Double(ring.heldSpan) / 1e9, bytes: ring.bytes, peakBytes: ring.peakBytes, byteCap: ring.byteCap)
    }

    /// Makes `sink` (an appsink) hand every sample to this store as `track`.
    func feed(from sink: ElementRef, track: ReplayPacket<HeldBuffer>.Track) {
        var callbacks = GstAppSinkCallbacks()
        if track == .video {
            callbacks.new_sample = { appsink, data in
                guard let appsink, let data, let sample = gst_app_sink_pull_sample(appsink) else { return GST_FLOW_OK }
                Unmanaged<ReplayStore>.fromOpaque(data).takeUnretainedValue().take(sample, track: .video)
                gst_sample_unref(sample)
                return GST_FLOW_OK
            }
        } else {
            callbacks.new_sample = { appsink, data in
                guard let appsink, let data, let sample = gst_app_sink_pull_sample(appsink) else { return GST_FLOW_OK }
                Unmanaged<ReplayStore>.fromOpaque(data).takeUnretainedValue().take(sample, track: .audio)
                gst_sample_unref(sample)
                return GST_FLOW_OK
            }
        }
        gst_app_sink_set_callbacks(UnsafeMutableRawPointer(sink.pointer).assumingMemoryBound(to: GstAppSink.self), &callbacks,
                                   Unmanaged.passRetained(self).toOpaque(), { data in
                                       if let data { Unmanaged<ReplayStore>.fromOpaque(data).release() }
                                   })
    }
}

/// The packets and caps a save writes.
///
/// Thread: Sendable; handed from the session's actor to the writer's thread.
struct ReplaySnapshot: Sendable {
    let video: [ReplayPacket<HeldBuffer>]
    let audio: [ReplayPacket<HeldBuffer>]
    let videoCaps: MTSafe<UnsafeMutablePointer<GstCaps>>
    let audioCaps: MTSafe<UnsafeMutablePointer<GstCaps>>?

    /// Drops the caps' references (once, when written).
    func release() {
        gst_caps_unref(videoCaps.raw)
        if let a = audioCaps { gst_caps_unref(a.raw) }
    }
}

/// The replay buffer's bins on the tees and its store.
///
/// Thread: the capture session's actor (a SideBranch).
final class ReplayBranch: SideBranch {
    let seconds: Int
    let store: ReplayStore
    private let pipeline: ElementRef
    private var attached: [TeeBranch] = []
    private(set) var hasFailed = false
    /// A save in progress (one at a time).
    var saving = false

    init(plan: GraphPlan, seconds: Int, pipeline: ElementRef) {
        self.seconds = seconds
        self.pipeline = pipeline
        store = ReplayStore(seconds: seconds, byteCap: plan.replayByteCap(seconds: seconds))
    }

    /// Attaches the video bin to `tee` and, with sound, the sound's bin to `audioTee`; in the playing
    /// graph they start at once.
    func attach(plan: GraphPlan, tee: ElementRef, audioTee: ElementRef?) throws(DuoError) {
        let what = tr("the replay buffer's branch")
        let bins = FaultRouting.replayBins
        let video = try TeeBranch.attach(try plan.replayDescription(), name: bins.video, first: GraphElement.replayQueue.rawValue,
                                         to: tee, in: pipeline, what: what, file: "replay.gst")
        attached.append(video)
        guard let sink = video.bin.child(.replaySink) else {
            throw .input(.text("pipeline file %s must keep the element named %s", "replay.gst", GraphElement.replaySink.rawValue))
        }
        store.feed(from: sink, track: .video)
        if let audioTee, let description = try plan.replayAudioDescription() {
            let audio = try TeeBranch.attach(description, name: bins.audio, first: GraphElement.replayAudioQueue.rawValue,
                                             to: audioTee, in: pipeline, what: what, file: "replay-audio.gst")
            attached.append(audio)
            guard let audioSink = audio.bin.child(.replayAudioSink) else {
                throw .input(.text("pipeline file %s must keep the element named %s", "replay-audio.gst", GraphElement.replayAudioSink.rawValue))
            }
            store.feed(from: audioSink, track: .audio)
        }
        for branch in attached { _ = branch.bin.syncStateWithParent() }
    }

    func owns(_ fault: GraphFault) -> Bool { fault.branchOwner == .replay }

    /// The buffer's branch failed (its encoder): both bins are dropped at a buffer boundary (the tees
    /// never waited), said once; the preview and any take go on, a save says the buffer is off.
    func failed(_ fault: GraphFault) -> SessionEvent? {
        guard !hasFailed else { return nil }
        hasFailed = true
        detach()
        return .replayFailed(tr("the replay buffer stopped (%s); the preview and any take go on", fault.described))
    }

    func detach() {
        let branches = attached
        attached = []
        for branch in branches { branch.detach(from: pipeline) }
    }
}
