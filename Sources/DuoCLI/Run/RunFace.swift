import DuoCore
import DuoRender

/// The screen side of a run. The director tells it what to show and asks it for the two things only a
/// display has (the accessory's availability and fullscreen); it reports facts back through `report`.
/// Headless, there is nothing to draw: the accessory is shown exactly when it is enabled.
///
/// Thread: implementations are Sendable and never block the caller (the desktop's post to the GTK thread).
protocol RunFace: Sendable {
    /// Whether the subject view is drawn by a window of its own (the desktop, at the monitor's
    /// resolution) rather than into the subject branch's frames (headless). Then the branch carries the
    /// camera picture only for the kinds that show it.
    var drawsSubjectView: Bool { get }
    /// Whether the subject view is shown from the start with the accessory `enabled`, before any
    /// `.accessory` fact: headless, whenever enabled; the desktop's windows report it once they can.
    func shownAtStart(enabled: Bool) -> Bool
    /// Shows or hides the camera picture under the subject view (the preview kind, while shown).
    func setSubjectPicture(_ shown: Bool)
    /// Hands the face the director's input, for the facts it reports (accessory changes, fullscreen).
    func connect(_ report: @escaping @Sendable (RunInput) -> Void)
    /// Whether the face has a HUD to show the run's figures on (headless has none, so the director
    /// does not gather them).
    var showsFigures: Bool { get }
    /// The run's figures for the HUD, once per tick.
    func show(_ run: HudModel.Run)
    /// The user's accessory choice; the face answers with an `.accessory` fact when the view shows or hides.
    func setAccessory(enabled: Bool)
    /// nil toggles. Returns why it cannot, when this face has no fullscreen.
    func setFullscreen(_ on: Bool?) -> String?
    /// The web remote's pairing address (with its token; nil: no `--remote-control`), given once before
    /// the run starts. The face keeps it to itself: it is never logged.
    func setRemoteAddress(_ url: String?)
    /// The pairing address and its QR code on the operator window; nil toggles. Returns why not (no
    /// windows, or no web remote: then how to turn it on).
    func setRemoteLink(_ on: Bool?) -> String?
    func setFramesFlowing(_ flowing: Bool)
    /// Remote subject displays asked for and connected (the desktop counts a connected one as a subject
    /// monitor for availability).
    func setRemoteDisplays(asked: Int, connected: Int)
    /// Keep the screen on (a take runs or the teleprompter is shown) or let it rest again.
    func keepScreenOn(_ on: Bool, reason: String)
    /// The subject view's branch failed: it is unavailable for the rest of the run, with its reason.
    func subjectViewFailed(enabled: Bool)
    /// A one-line message for the operator (a take that failed, a take that could not start).
    func say(_ message: String)
    /// The run is over and the graph stopped: close any windows.
    func close()
}

/// The headless run's face: no windows, so the subject view is shown whenever it is enabled.
///
/// Thread: any; the report closure is set once before the run starts.
final class HeadlessFace: RunFace, Sendable {
    private let report = Locked<(@Sendable (RunInput) -> Void)?>(nil)

    var drawsSubjectView: Bool { false }
    func shownAtStart(enabled: Bool) -> Bool { enabled }
    var showsFigures: Bool { false }
    func setSubjectPicture(_ shown: Bool) {}
    func connect(_ report: @escaping @Sendable (RunInput) -> Void) { self.report.set(report) }
    func show(_ run: HudModel.Run) {}
    func setAccessory(enabled: Bool) {
        let change = AccessoryChange(cause: .enabled, enabled: enabled, available: true, reasons: [], shown: enabled)
        report.value?(.accessory(change, subjectMonitor: nil))
    }
    func setFullscreen(_ on: Bool?) -> String? { "fullscreen needs the desktop windows; this run is --headless" }
    func setFramesFlowing(_ flowing: Bool) {}
    func setRemoteDisplays(asked: Int, connected: Int) {}
    func keepScreenOn(_ on: Bool, reason: String) {}
    func subjectViewFailed(enabled: Bool) {
        let change = AccessoryChange(cause: .availability, enabled: enabled, available: false, reasons: [.subjectViewFailed], shown: false)
        report.value?(.accessory(change, subjectMonitor: nil))
    }
    func say(_ message: String) {}
    func close() {}
}
