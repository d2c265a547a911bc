import DuoCore
import DuoMedia
import DuoRender
import Foundation

//  The run director's figures: `status` events, and the HUD's figures (the take core's and the presenter's
//  here, each part's added by RunPart.figures).
//
//  Thread: the run director's actor.

extension RunDirector {
    func status(trigger: String) async {
        let now = clock.now()
        lastStatusAt = now
        let s = await presenter.status(at: now)
        let counts = await capture.counts
        let interval = plan.format.frameRate.frameDurationNanoseconds
        let audioPeak = await parts.microphone.audioPeak(at: now, self)
        events.emit(.status(.init(
            trigger: trigger, position: s.position, length: s.length, paused: s.paused, speed: s.speed, secondsLeft: s.secondsLeft,
            mirror: "\(s.mirror.horizontal ? "h" : "")\(s.mirror.vertical ? "v" : "")", fontSize: s.fontSize,
            cameraFrames: Int(counts.camera.frames), operatorFrames: Int(counts.operatorView.frames),
            subjectFrames: Int(counts.subjectView.frames),
            cameraDropped: Int(counts.camera.dropped(interval: interval)),
            previewSkipped: Int(counts.operatorView.dropped(interval: plan.operatorFrameInterval) + counts.operatorView.sinkDropped),
            subjectSkipped: Int(counts.subjectView.dropped(interval: interval)),
            recording: takes.current != nil, audioPeak: audioPeak)))
    }

    /// `counts`: the branch counters, when the caller has just read them.
    func showFigures(_ known: BranchCounts? = nil) async {
        guard face.showsFigures else { return }
        let now = clock.now()
        let counts: BranchCounts
        if let known { counts = known } else { counts = await capture.counts }
        let interval = plan.format.frameRate.frameDurationNanoseconds
        var f = HudModel.Run()
        let active = plan.format(ofCamera: await capture.activeCamera)
        (f.cameraWidth, f.cameraHeight) = (active.width, active.height)
        let current = takes.current
        f.recording = current != nil
        f.takeNumber = current?.take
        f.elapsedSeconds = current.map { Double(max(0, now - $0.start)) / 1e9 } ?? 0
        f.countdown = takes.displayedCountdown(at: now)
        let p = await presenter.status(at: now)
        f.accessoryKind = p.accessory.rawValue
        f.mirrored = p.mirror != .none
        f.cameraDropped = counts.camera.dropped(interval: interval)
        f.previewSkipped = counts.operatorView.dropped(interval: plan.operatorFrameInterval) + counts.operatorView.sinkDropped
        f.subjectSkipped = counts.subjectView.dropped(interval: interval)
        f.audioPeakDB = await parts.microphone.audioPeak(at: now, self)
        f.scriptProblems = presenter.scriptProblems.count
        for part in parts.all { await part.figures(&f, self, at: now) }
        face.show(f)
    }
}
