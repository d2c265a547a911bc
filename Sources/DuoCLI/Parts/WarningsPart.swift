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
        var line = "duo-capture: warning: \(warning)"
        if warning.hasPrefix("operator_") || warning.hasPrefix("subject_") {
            line += " (the preview skips frames this machine cannot draw in time; takes are not affected)"
        }
        if held > 0 { line += " (\(held) more like it in the last minute)" }
        run.log(line)
    }

    func finish(_ run: isolated RunDirector) async {
        for (warning, count) in throttle.pending {
            run.log("duo-capture: warning: \(warning) (\(count) more like it since it was last shown)")
        }
    }
}
