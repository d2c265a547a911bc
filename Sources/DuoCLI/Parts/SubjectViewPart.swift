import DuoCore
import DuoMedia
import DuoRender
import Foundation

//  The subject view as a run part: the accessory turned on and off, the face's word on whether the view is
//  shown (and where), the subject branch opened only while its picture is on a screen, the self-view and
//  the mirror, the subject window's size, the view's branch failing, and the screen kept on while a take
//  records or the teleprompter is shown.
//
//   accessory/self-view/mirror/cue ──────┐                       ┌─▶ face (accessory, picture, screen on)
//   face facts (.accessory, .subjectSize)┼─▶ SubjectViewPart ────┼─▶ capture (subject branch open, picture use, mirror)
//   takes starting and ending ───────────┘                       └─▶ presenter (self-view, mirror, remote views shown)

/// The subject view's part of a run.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class SubjectViewPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// The accessory starts enabled (`--accessory` is not `off`).
        var enabled = true
        init() {}
        init(_ options: Options) { enabled = options.subject.accessory != .off }
    }

    private var enabled: Bool
    /// Whether the view is on a screen (the face's word).
    private var shown: Bool
    /// Whether the screen is being kept on: while a take runs or the teleprompter is shown.
    private var screenOn = false

    init(_ settings: Settings, face: any RunFace) {
        enabled = settings.enabled
        // Headless, no availability change ever says the view is shown; without this, the first
        // self-view toggle or script change shut the subject branch for good.
        shown = face.shownAtStart(enabled: settings.enabled)
    }

    /// The talent's wall clock (`--talent-clock clock`) is set to the graph's time once it plays, and
    /// checked against the system's clock every few seconds (the presenter re-anchors it on a change).
    private var clockCheckedAt: Int64?

    func started(_ run: isolated RunDirector) async {
        await run.presenter.anchorWallClock(at: run.clock.now())
        clockCheckedAt = run.clock.now()
    }

    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {
        guard let last = clockCheckedAt, now - last >= 5 * nanosecondsPerSecond else { return }
        clockCheckedAt = now
        await run.presenter.anchorWallClock(at: now)
    }

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        let now = run.clock.now()
        switch command {
        case .accessory(let on):
            enabled = on ?? !enabled
            run.face.setAccessory(enabled: enabled)
        case .mirror:
            await run.presenter.cycleMirror(at: now)
            await run.capture.setSubjectViewMirror(await run.presenter.mirror)
            await run.status(trigger: "command")
        case .cue(let cue, let seconds):
            await run.presenter.setCue(cue, seconds: seconds, at: now)
            run.events.emit(.cue(text: cue?.text, preset: cue?.preset?.rawValue, seconds: cue == nil ? nil : seconds))
            run.sidecars.cued(at: now, cue, seconds: cue == nil ? nil : seconds)
            run.log("duo-capture: " + (cue.map { "cue to the talent: \"\($0.text)\"" + (seconds.map { " for \($0) s" } ?? "") } ?? "cue cleared"))
        case .selfView(let size):
            let shown = await run.presenter.setSelfView(size, at: now)
            run.events.emit(.selfView(size: shown.rawValue))
            // The subject branch carries the picture only while a self-view shows it.
            await updatePicture(run)
        default: return false
        }
        return true
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        guard case .subjectFailed(let why) = event else { return false }
        run.notify("the subject view failed and is off for the rest of the run (\(why)); the preview and the recording go on",
                   errorEvent: true, hud: false)
        run.face.subjectViewFailed(enabled: enabled)
        return true
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        switch input {
        case .accessory(let change, let monitor): await accessoryChanged(change, subjectMonitor: monitor, run)
        case .subjectSize(let width, let height): await run.presenter.resize(width: width, height: height, at: run.clock.now())
        default: break
        }
    }

    func takeStarted(_ number: Int, path: String, _ run: isolated RunDirector) async { await updateScreenOn(run) }
    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async { await updateScreenOn(run) }

    func finish(_ run: isolated RunDirector) async {
        if screenOn { screenOn = false; run.face.keepScreenOn(false, reason: "the run ended") }
    }

    private func accessoryChanged(_ change: AccessoryChange, subjectMonitor: String?, _ run: isolated RunDirector) async {
        let facts = RunEvent.Accessory(enabled: change.enabled, available: change.available, shown: change.shown,
                                        reasons: change.reasons.map(\.rawValue), subjectMonitor: subjectMonitor)
        run.events.emit(change.cause == .enabled ? .accessory(facts) : .availability(facts))
        shown = change.shown
        await updatePicture(run)
        let state = change.available ? "available" + (subjectMonitor.map { " on \($0)" } ?? "")
            : "unavailable (" + change.reasons.map(\.explanation).joined(separator: "; ") + ")"
        run.log("duo-capture: accessory \(change.enabled ? "enabled" : "disabled"), \(state)")
    }

    /// The subject branch does work only while its frames are on a screen: whenever the view is shown
    /// when the view is drawn into them (headless), and only for the preview kind's camera picture or the
    /// self-view's when the subject window draws the view itself (the desktop).
    func updatePicture(_ run: isolated RunDirector) async {
        let face = run.face
        let kind = await run.presenter.accessory
        let selfView = await run.presenter.selfView != .off
        let picture = shown && (!face.drawsSubjectView || kind == .preview || selfView)
        await run.capture.setSubjectBranchOpen(picture)
        await run.capture.setSubjectPictureUse(.of(kind: kind, selfView: selfView, viewDrawnIntoFrames: !face.drawsSubjectView))
        face.setSubjectPicture(picture && face.drawsSubjectView)
        // Remote displays show the subject view exactly while it is shown (black otherwise).
        await run.presenter.setRemoteViewsShown(shown)
        await updateScreenOn(run)
    }

    private func updateScreenOn(_ run: isolated RunDirector) async {
        let kind = await run.presenter.accessory
        let recording = run.takes.current != nil
        let on = recording || (shown && kind == .teleprompter)
        guard on != screenOn else { return }
        screenOn = on
        run.face.keepScreenOn(on, reason: recording ? "a take is recording" : "the teleprompter is shown")
    }
}
