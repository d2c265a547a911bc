import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's facts the media and the face report: session events, the accessory's availability, the subject
//  branch, keeping the screen on.
//
//  Thread: the run director's actor.

extension RunDirector {
    // MARK: Facts

    func handle(_ event: SessionEvent) async {
        switch event {
        case .failed(let error):
            events.emit(.error(message: error.message))
            end(.failed(error))
        case .warning(let w): warn(w)
        case .takeEnded(let result): await takeEnded(result)
        case .takeStarted: break
        case .cameraLost(let index, let reason):
            health.sourceRunning(index, false)   // the session stopped its source
            await cameraLost(index, reason: reason)
        case .speech(let text, let isFinal, let at):
            await presenter.hear(text, isFinal: isFinal, at: at)
            await presenter.steerVoice(at: clock.now())
            await reportFollow()
        case .remoteLost(let index, let reason):
            remoteLost(index, reason: reason)
        case .faces(let boxes, _):
            await facesSeen(boxes)
        case .framingUnavailable(let why):
            await framingUnavailable(why)
        case .recogniserFailed(let why):
            // Also before the graph plays (a model the recogniser cannot load): voice-follow stays off.
            recogniserDown = true
            if let files = plan.voice { VoiceModelCache.forget(files) }   // the next run builds it again
            await presenter.disableVoice(at: clock.now())
            notify("voice-follow stopped (\(why)); the teleprompter follows time, the sound and any take go on", errorEvent: true)
            await reportFollow()
        case .microphoneLost(let reason) where plan.audio.microphoneNode != nil:
            // A named microphone's leg failed (the session took it out): lost, taken back when it returns.
            await microphoneFailed(reason)
        case .microphoneLost(let reason):
            interruptions.append((clock.now(), "microphone", "lost", reason))
            notify("the microphone was lost (\(reason)); the run and any take go on without sound", errorEvent: true)
        case .subjectFailed(let why):
            notify("the subject view failed and is off for the rest of the run (\(why)); the preview and the recording go on",
                   errorEvent: true, hud: false)
            face.subjectViewFailed(enabled: accessoryEnabled)
        }
    }

    func accessoryChanged(_ change: AccessoryChange, subjectMonitor: String?) async {
        let facts = RunEvent.Accessory(enabled: change.enabled, available: change.available, shown: change.shown,
                                        reasons: change.reasons.map(\.rawValue), subjectMonitor: subjectMonitor)
        events.emit(change.cause == .enabled ? .accessory(facts) : .availability(facts))
        subjectShown = change.shown
        await updateSubjectPicture()
        let state = change.available ? "available" + (subjectMonitor.map { " on \($0)" } ?? "")
            : "unavailable (" + change.reasons.map(\.explanation).joined(separator: "; ") + ")"
        log("duo-capture: accessory \(change.enabled ? "enabled" : "disabled"), \(state)")
    }

    /// The subject branch does work only while its frames are on a screen: whenever the view is shown
    /// when the view is drawn into them (headless), and only for the preview kind's camera picture or the
    /// self-view's when the subject window draws the view itself (the desktop).
    func updateSubjectPicture() async {
        let kind = await presenter.accessory
        let selfView = await presenter.selfView != .off
        let picture = subjectShown && (!face.drawsSubjectView || kind == .preview || selfView)
        await capture.setSubjectBranchOpen(picture)
        await capture.setSubjectPictureUse(.of(kind: kind, selfView: selfView, viewDrawnIntoFrames: !face.drawsSubjectView))
        face.setSubjectPicture(picture && face.drawsSubjectView)
        // Remote displays show the subject view exactly while it is shown (black otherwise).
        await presenter.setRemoteViewsShown(subjectShown)
        await updateScreenOn()
    }


    func updateScreenOn() async {
        let kind = await presenter.accessory
        let prompting = subjectShown && kind == .teleprompter
        let on = current != nil || prompting
        guard on != screenOn else { return }
        screenOn = on
        face.keepScreenOn(on, reason: current != nil ? "a take is recording" : "the teleprompter is shown")
    }
}
