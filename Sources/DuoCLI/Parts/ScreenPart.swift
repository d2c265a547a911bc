import DuoCore
import DuoMedia
import Foundation

//  The screen track as a run part (`--screen`, issue 39): the monitor chosen at start (ScreenSetup) is said
//  on the HUD's format line and in a `screen` event; a failure of its source mid-run (a warning from
//  ScreenBranch) is a `screen` event `stopped`, and the takes after it say so in their sidecars. The
//  track itself is recorded by the media (TakeRecorder's screen leg); each take's sidecar names it
//  (SidecarWriter).
//
//   start ─▶ ScreenPart ─▶ `screen` event (recording), HUD "· screen N CONNECTOR WxH@R"
//   session .screenStopped ─▶ `screen` event (stopped), HUD "· screen stopped"

/// The screen track's place in the run.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class ScreenPart: RunPart {
    private let track: ScreenTrack?
    /// Why the track stopped mid-run, once it has.
    private(set) var stopped: String?

    init(plan: GraphPlan) { track = plan.screen }

    func started(_ run: isolated RunDirector) async {
        guard let track else { return }
        run.events.emit(event(track, state: "recording", reason: track.why))
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        guard case .screenStopped(let why) = event else { return false }
        guard let track, stopped == nil else { return true }
        stopped = why
        run.log(tr("duo-capture: warning: the screen track stopped (%s); the camera track, the sound and the preview go on", tr(why)))
        run.events.emit(self.event(track, state: "stopped", reason: why))
        return true
    }

    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {
        guard let track else { return }
        let size = track.encodedSize
        f.format += stopped == nil
            ? " · " + tr("screen %1$s %2$s %3$sx%4$s@%5$s", track.monitor.index, track.monitor.connector, size.width, size.height, track.rate)
            : " · " + tr("screen stopped")
    }

    private func event(_ track: ScreenTrack, state: String, reason: String) -> RunEvent {
        let m = track.monitor, size = track.encodedSize
        return .screen(state: state, monitor: m.index, connector: m.connector, geometry: m.geometry,
                       width: size.width, height: size.height, rate: track.rate, reason: reason)
    }
}
