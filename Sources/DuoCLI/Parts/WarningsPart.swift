import DuoCore
import Foundation

//  The graph's warnings as a run part: each kind said at most once a minute (WarningThrottle), and what was
//  held back counted at the end of the run.

/// The graph's warnings.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class WarningsPart: RunPart {
    private var throttle = WarningThrottle()

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        guard case .warning(let warning) = event else { return false }
        warn(warning, run)
        return true
    }

    /// A warning, at most once a minute of each kind. A view's sink that cannot draw every frame
    /// (GStreamer's QoS "A lot of buffers are being dropped") is said to be the preview only.
    func warn(_ warning: String, _ run: isolated RunDirector) {
        let (show, held) = throttle.admit(warning, at: run.clock.now())
        guard show else { return }
        // GStreamer's own words stay as GStreamer wrote them; what duo-capture adds is translated.
        let preview = warning.hasPrefix("operator_") || warning.hasPrefix("subject_")
        let line = switch (preview, held > 0) {
        case (false, false): tr("duo-capture: warning: %s", warning)
        case (false, true): tr("duo-capture: warning: %s (%s more like it in the last minute)", warning, held)
        case (true, false): tr("duo-capture: warning: %s (the preview skips frames this machine cannot draw in time; takes are not affected)", warning)
        case (true, true):
            tr("duo-capture: warning: %s (the preview skips frames this machine cannot draw in time; takes are not affected) (%s more like it in the last minute)", warning, held)
        }
        run.log(line)
    }

    func finish(_ run: isolated RunDirector) async {
        for (warning, count) in throttle.pending {
            run.log(tr("duo-capture: warning: %s (%s more like it since it was last shown)", warning, count))
        }
    }
}
