import CDuoShim
import CGStreamer
import DuoCore

//  The capture session's bus (BusWatch.swift reads it on a thread of its own): the graph reaching PLAYING,
//  a take's end, the sound's level, speech and faces, and every failure routed to its owner, so that each
//  part fails alone. Each side branch is asked first whether a failure is its own (Branches/SideBranch.swift);
//  what none claims goes to DuoCore's FaultRouting: a take ends, a camera is lost, the sound ends, the
//  subject view shuts, and only the graph's own failure fails the run.

extension CaptureSession {
    func handle(_ event: BusEvent) async {
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
            let fault = GraphFault(source: source, bins: bins, message: message)
            if let branch = sideBranches.first(where: { $0.owns(fault) }) {
                if let event = branch.failed(fault) { eventSink.yield(event) }
                return
            }
            await mainGraphFailed(fault, debug: debug, domainCode: domainCode)
        case .warning(let source, let message, let bins):
            let fault = GraphFault(source: source, bins: bins, message: message)
            if let branch = sideBranches.first(where: { $0.owns(fault) }), branch.failsOnWarning {
                if let event = branch.failed(fault) { eventSink.yield(event) }
                return
            }
            eventSink.yield(.warning(fault.described))
        case .audioLevel(let rms, let peak):
            lastAudioLevel = AudioLevel(rmsDB: rms, peakDB: peak, runningTime: runningTime)
        case .speech(let text, let isFinal, let audioTime):
            // Stamped on arrival, on the pipeline clock: a final hypothesis carries no time of its own,
            // and arrival is what the aligner's pacing was tuned with.
            _ = audioTime
            eventSink.yield(.speech(text: text, isFinal: isFinal, at: runningTime))
        case .faces(let quads, let detector):
            if let faces = framing?.seen(quads, detector: detector, at: runningTime) { eventSink.yield(faces) }
        case .endOfStream:
            break
        }
    }

    /// An error no side branch claims: its owner in the main graph (FaultRouting).
    private func mainGraphFailed(_ fault: GraphFault, debug: String, domainCode: String) async {
        let source = fault.source, message = fault.message
        switch routing.owner(of: source, ancestors: fault.bins, playing: isPlaying) {
        case .take(let number):
            // An error inside a take's bin is the take's, never the graph's: the preview goes on.
            await recorder?.error(inTake: number, source: source, message: message, domainCode: domainCode)
        case .camera(let index):
            // A camera lost while the graph runs: stop its source (a re-plug restarts it); the run
            // director decides what the run does (the other camera goes on, or it waits, or ends).
            guard !unpluggedCameras.contains(index) else { return }
            unpluggedCameras.insert(index)
            pipeline?.child(named: GraphElement.cameraSource.forCamera(index))?.setState(GST_STATE_NULL)
            eventSink.yield(.cameraLost(index: index, reason: fault.described))
        case .microphone:
            // The sound's own chain failed (the source, the level meter): end its stream, so a take's muxer
            // stops waiting for sound and the video goes on; later takes get an audio track that ends at once.
            guard !microphoneLost else { return }
            microphoneLost = true
            if let name = audioSourceName { pipeline?.child(named: name)?.setState(GST_STATE_NULL) }
            if let sink = pipeline?.child(.audioTee)?.staticPad("sink") { duo_send_eos(sink.pointer) }
            eventSink.yield(.microphoneLost(fault.described))
        case .subjectView:
            subjectViewFailed(fault)
        case .remote, .recogniser, .framing, .replay:
            // A side branch this graph never had (its owner would have claimed it): nothing to take down.
            Diagnostics.debug("a message from a side branch this graph does not have, ignored: \(fault.described)")
        case .graph:
            let error = DuoError.runtime(fault.described + (debug.isEmpty ? "" : " [\(debug.split(separator: "\n").first ?? "")]"))
            failure = error
            resumePlayingWaiters()
            eventSink.yield(.failed(error))
        }
    }

    /// Writes the graph as Graphviz when GST_DEBUG_DUMP_DOT_DIR is set, as gst-launch-1.0 does (no-op otherwise).
    private func dumpGraph(_ name: String) {
        guard let p = pipeline else { return }
        gst_debug_bin_to_dot_file(duo_as_bin(p.pointer), GST_DEBUG_GRAPH_SHOW_ALL, "duo-capture-\(name)")
    }
}
