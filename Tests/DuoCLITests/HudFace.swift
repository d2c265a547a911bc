@testable import DuoCLI
import DuoCore

/// A face the HUD was shown with, recorded by a face that keeps the HUD's last figures.
///
/// Thread: any; Locked.
final class HudFace: RunFace, Sendable {
    private let last = Locked<HudModel.Run?>(nil)
    var run: HudModel.Run? { last.value }
    var drawsSubjectView: Bool { false }
    func shownAtStart(enabled: Bool) -> Bool { enabled }
    var showsFigures: Bool { true }
    func setSubjectPicture(_ shown: Bool) {}
    func connect(_ report: @escaping @Sendable (RunInput) -> Void) {}
    func show(_ run: HudModel.Run) { last.set(run) }
    func setAccessory(enabled: Bool) {}
    func setFullscreen(_ on: Bool?) -> String? { nil }
    func setFramesFlowing(_ flowing: Bool) {}
    func setSubjectMonitorPlugged(_ plugged: Bool) -> String? { nil }
    func setRemoteDisplays(asked: Int, connected: Int) {}
    func keepScreenOn(_ on: Bool, reason: String) {}
    func subjectViewFailed(enabled: Bool) {}
    func say(_ message: String) {}
    func close() {}
}
