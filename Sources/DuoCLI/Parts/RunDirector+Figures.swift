import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's figures: status events, the HUD's figures, graph warnings at most once a minute.
//
//  Thread: the run director's actor.

extension RunDirector {
    func status(trigger: String) async {
        let now = clock.now()
        lastStatusAt = now
        let s = await presenter.status(at: now)
        let counts = await capture.counts
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let audioPeak = await currentAudioPeak(at: now)
        events.emit(.status(.init(
            trigger: trigger, position: s.position, length: s.length, paused: s.paused, speed: s.speed, secondsLeft: s.secondsLeft,
            mirror: "\(s.mirror.horizontal ? "h" : "")\(s.mirror.vertical ? "v" : "")", fontSize: s.fontSize,
            cameraFrames: Int(counts.camera.frames), operatorFrames: Int(counts.operatorView.frames),
            subjectFrames: Int(counts.subjectView.frames),
            cameraDropped: Int(counts.camera.dropped(interval: interval)),
            previewSkipped: Int(counts.operatorView.dropped(interval: plan.operatorFrameInterval) + counts.operatorView.sinkDropped),
            subjectSkipped: Int(counts.subjectView.dropped(interval: interval)),
            recording: current != nil, audioPeak: audioPeak)))
    }

    /// The sound's peak now, in whole dB: nil without sound, while the microphone is lost, or when the
    /// meter has said nothing for half a second (its chain ended).
    func currentAudioPeak(at now: Int64) async -> Double? {
        microphone.isLost ? nil : await capture.audioLevel?.currentPeak(at: now)
    }

    /// `counts`: the branch counters, when the caller has just read them.
    func showFigures(_ known: BranchCounts? = nil) async {
        guard face.showsFigures else { return }
        let now = clock.now()
        let counts: BranchCounts
        if let known { counts = known } else { counts = await capture.counts }
        let interval = plan.format.frameRate.frameDurationNanoseconds
        var f = HudModel.Run()
        f.cameraLabel = cameraLabel
        f.format = cameraFormat + plan.requirementNote
        let active = plan.format(ofCamera: await capture.activeCamera)
        (f.cameraWidth, f.cameraHeight) = (active.width, active.height)
        f.recording = current != nil
        f.takeNumber = current?.take
        f.elapsedSeconds = current.map { Double(max(0, now - $0.start)) / 1e9 } ?? 0
        f.countdown = takes.displayedCountdown(at: now)
        f.fullscreenNotice = fullscreenLeave.notice(at: now)
        let p = await presenter.status(at: now)
        f.accessoryKind = p.accessory.rawValue
        f.mirrored = p.mirror != .none
        if hasScript {
            f.scriptProgress = p.length > 0 ? min(1, p.position / p.length) : 0
            f.secondsLeft = p.secondsLeft
            f.speed = p.speed
            f.scrollPaused = p.paused
            f.scrollReversed = p.reversed
            f.follow = p.follow.map { f in f.state == .following && f.word != nil ? "following '\(f.word!)'" : f.stateName }
            f.notes = p.notes
        }
        f.cameraDropped = counts.camera.dropped(interval: interval)
        f.previewSkipped = counts.operatorView.dropped(interval: plan.operatorFrameInterval) + counts.operatorView.sinkDropped
        f.subjectSkipped = counts.subjectView.dropped(interval: interval)
        f.audioPeakDB = await currentAudioPeak(at: now)
        f.soundNote = soundNote(at: clock.now())
        f.scriptProblems = presenter.scriptProblems.count
        shotFigures(&f)
        if let framing {
            f.framing = framing.mode.rawValue
            f.framingHint = FramingDecision(hints: framing.shown, faces: [], reason: "").text
            f.faces = framing.faces
            f.previewMirrored = plan.mirrors(activeCamera: await capture.activeCamera).operatorPreview
        }
        face.show(f)
    }

    /// A warning from the graph, at most once a minute of each kind. A view's sink that cannot draw
    /// every frame (GStreamer's QoS "A lot of buffers are being dropped") is said to be the preview only.
    func warn(_ warning: String) {
        let (show, held) = warnings.admit(warning, at: clock.now())
        guard show else { return }
        var line = "duo-capture: warning: \(warning)"
        if warning.hasPrefix("operator_") || warning.hasPrefix("subject_") {
            line += " (the preview skips frames this machine cannot draw in time; takes are not affected)"
        }
        if held > 0 { line += " (\(held) more like it in the last minute)" }
        log(line)
    }
}
