import DuoCore
import Foundation

//  The operator window as a run part: fullscreen (left during a take only when asked twice, FullscreenLeave),
//  the web remote's pairing code shown or hidden, and the face's word on fullscreen.

/// The operator window's part of a run.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class OperatorWindowPart: RunPart {
    /// Esc or F11 during a take asks again before leaving fullscreen.
    private var leave = FullscreenLeave()
    /// The file of the take that just ended, on the HUD for a few seconds.
    private var saved = TakeFileNotice()

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        switch command {
        case .fullscreen(let on, let confirm):
            switch leave.request(on, confirmed: confirm, busy: run.takes.isBusy, at: run.clock.now()) {
            case .carryOut: if let why = run.face.setFullscreen(on) { run.refuse(why) }
            case .askAgain: run.refuse(FullscreenLeave.refusal)
            }
        case .remoteLink(let on):
            if let why = run.face.setRemoteLink(on) { run.refuse(why) }
        default: return false
        }
        return true
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        guard case .fullscreen(let on) = input else { return }
        leave.fullscreen = on
        run.events.emit(.fullscreen(on))
    }

    func takeStarted(_ number: Int, path: String, _ run: isolated RunDirector) async {
        saved.takeStarted()
    }

    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async {
        guard run.files.exists(result.path) else { return }
        // On the HUD from the next tick's figures (every 200 ms) until its time is up.
        saved.ended(path: result.path, at: run.clock.now())
    }

    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {
        f.fullscreenNotice = leave.notice(at: now)
        f.takeFile = saved.file(at: now)
    }
}
