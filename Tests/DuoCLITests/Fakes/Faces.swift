@testable import DuoCLI
import DuoCore
import Foundation

//  The faces the director's tests run with: each records what the director asked of the screen.


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

/// A desktop-like face: it draws the subject view itself and records when it shows the camera picture.
///
/// Thread: any; a lock guards what it records.
final class WindowFace: RunFace, @unchecked Sendable {
    private let lock = Lock()
    private var shown: [Bool] = []
    var pictures: [Bool] { lock.withLock { shown } }
    var drawsSubjectView: Bool { true }
    func shownAtStart(enabled: Bool) -> Bool { false }
    var showsFigures: Bool { true }
    func setSubjectPicture(_ on: Bool) { lock.withLock { shown.append(on) } }
    func connect(_ report: @escaping @Sendable (RunInput) -> Void) {}
    func show(_ run: HudModel.Run) {}
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

/// A face that records what the director asked of it: the screen kept on, lines said, the HUD's figures.
///
/// Thread: any; Locked.
final class RecordingFace: RunFace, Sendable {
    private let state = Locked<(screen: [String], said: [String], run: HudModel.Run?)>(([], [], nil))
    var screen: [String] { state.value.screen }
    var said: [String] { state.value.said }
    var run: HudModel.Run? { state.value.run }
    var drawsSubjectView: Bool { false }
    func shownAtStart(enabled: Bool) -> Bool { enabled }
    var showsFigures: Bool { true }
    func setSubjectPicture(_ shown: Bool) {}
    func connect(_ report: @escaping @Sendable (RunInput) -> Void) {}
    func show(_ run: HudModel.Run) { state.update { $0.run = run } }
    func setAccessory(enabled: Bool) {}
    func setFullscreen(_ on: Bool?) -> String? { nil }
    func setFramesFlowing(_ flowing: Bool) {}
    func setRemoteDisplays(asked: Int, connected: Int) {}
    func keepScreenOn(_ on: Bool, reason: String) { state.update { $0.screen.append("\(on ? "on" : "off"): \(reason)") } }
    func subjectViewFailed(enabled: Bool) {}
    func say(_ message: String) { state.update { $0.said.append(message) } }
    func close() {}
}
