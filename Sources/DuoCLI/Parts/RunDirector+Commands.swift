import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's commands: each ControlCommand (keys, the control socket, timelines) carried out, or refused with why.
//
//  Thread: the run director's actor.

extension RunDirector {
    // MARK: Commands

    func handle(_ command: ControlCommand) async {
        let now = clock.now()
        switch command {
        case .record:
            await record()
        case .stop:
            await carry(takes.stop())
        case .toggleRecord:
            if takes.isBusy { await carry(takes.toggle(at: now)) } else { await record() }
        case .cancelCountdown:
            await carry(takes.cancel())
        case .quit:
            end(.quit)
        case .accessory(let on):
            accessoryEnabled = on ?? !accessoryEnabled
            face.setAccessory(enabled: accessoryEnabled)
        case .fullscreen(let on, let confirm):
            switch fullscreenLeave.request(on, confirmed: confirm, busy: takes.isBusy, at: now) {
            case .carryOut: if let why = face.setFullscreen(on) { refuse(why) }
            case .askAgain: refuse(FullscreenLeave.refusal)
            }
        case .remoteLink(let on):
            if let why = face.setRemoteLink(on) { refuse(why) }
        case .swap, .fold, .unfold:
            // Posture picks the camera by direction (RunDirector+Posture): folded, the one facing the subject.
            await swapCommand(command == .fold ? .fold : command == .unfold ? .unfold : nil)
        case .restartSwap(let posture):
            await restartSwap(posture)
        case .faces(let camera, let viewer):
            await setFacing(camera: camera, viewer)
        case .extended(let extended):
            // Parsed by a registered extension (the test hub), so carried out by it.
            guard let handler = RunExtensions.handler.value else { return refuse("\(extended.name): no extension carries it out") }
            if let why = await handler.handle(extended, in: extensionContext) { refuse("\(extended.name): \(why)") }
        case .follow(let voice):
            if let why = await presenter.setFollow(voice: voice, at: now) { refuse("follow: \(why)") } else { await reportFollow() }
        case .mirror:
            await presenter.cycleMirror(at: now)
            await capture.setSubjectViewMirror(await presenter.mirror)
            await status(trigger: "command")
        case .selfView(let size):
            let shown = await presenter.setSelfView(size, at: now)
            events.emit(.selfView(size: shown.rawValue))
            // The subject branch carries the picture only while a self-view shows it.
            await updateSubjectPicture()
        case .script(let path):
            await openScript(path, at: now)
        case .shot, .mark, .retake:
            await handleShot(command)
        case .speedStep, .speedPreset, .speedFactor, .pause, .reverse, .jump, .fontStep:
            guard hasScript else { return refuse("no teleprompter script in this run; open one with O or {\"cmd\":\"script\",\"path\":…}, or give --script FILE") }
            switch command {
            case .speedStep(let step): await presenter.stepSpeed(step, at: now)
            case .speedPreset(let n): await presenter.preset(n, at: now)
            case .speedFactor(let factor): await presenter.setSpeedFactor(factor, at: now)
            case .pause: await presenter.togglePause(at: now)
            case .reverse: await presenter.reverse(at: now)
            case .jump(.next): await presenter.nextMarker(at: now)
            case .jump(.previous): await presenter.previousMarker(at: now)
            case .jump(.start): await presenter.restart(at: now)
            case .fontStep(let step): await presenter.stepFontSize(step, at: now)
            default: break
            }
            await status(trigger: "command")
        }
        await showFigures()
    }

    func refuse(_ message: String) {
        events.emit(.error(message: "control: \(message)"))
    }
}

extension RunDirector {
    /// What a registered extension may do to this run.
    var extensionContext: RunExtensionContext {
        RunExtensionContext(
            capture: capture, cameraIdentities: plan.deviceIdentities, cameraCount: plan.secondCamera == nil ? 1 : 2,
            watchingDevices: cameraWatch != nil,
            holdCamera: { [self] index, plugged throws(DuoError) in try await holdCamera(index, plugged) },
            subjectMonitor: { [face] plugged in
                (face as? SubjectMonitorControl)?.setSubjectMonitorPlugged(plugged)
                    ?? "the subject monitor is unplugged on the desktop; this run is --headless"
            })
    }

    /// A camera's source stopped or restarted by hand: out, it is not tried again by itself.
    func holdCamera(_ index: Int, _ plugged: Bool) async throws(DuoError) {
        try await plug(index, plugged)
        health.hubPlugged(index, plugged)
    }
}

/// What a registered run extension (duo-capture-testhub's test hub) may do to a run: the capture, the
/// cameras' identities, a camera's source held out or let back, the desktop's subject monitor.
///
/// Thread: Sendable; its closures hop to the run director's actor.
public struct RunExtensionContext: Sendable {
    public let capture: any CapturePort
    /// Each camera's device identity (nil: a simulated camera or a device given by path).
    public let cameraIdentities: [String?]
    public let cameraCount: Int
    /// Whether the device monitor watches the cameras (then a camera is pulled out through its provider).
    public let watchingDevices: Bool
    /// Stops (false) or restarts (true) camera `index`'s source; out, it is not tried again by itself.
    public let holdCamera: @Sendable (_ index: Int, _ plugged: Bool) async throws(DuoError) -> Void
    /// The desktop's subject monitor pulled out (false) or plugged back (true): nil, or why not.
    public let subjectMonitor: @Sendable (_ plugged: Bool) -> String?
}

/// Commands another entry point registered (`CommandExtensions`), carried out.
///
/// Thread: Sendable; `handle` runs on the run director's actor.
public protocol RunExtension: Sendable {
    /// Carries `command` out: nil when done, else why not (said to clients as an error).
    func handle(_ command: ExtensionCommand, in run: RunExtensionContext) async -> String?
}

/// The run extension registered at start-up (duo-capture-testhub's test hub), or none.
///
/// Thread: any.
public enum RunExtensions {
    public static let handler = Locked<(any RunExtension)?>(nil)
}

/// A face that can pretend its subject monitor was pulled out (the desktop's).
///
/// Thread: Sendable; posts to the GTK thread.
protocol SubjectMonitorControl: Sendable {
    func setSubjectMonitorPlugged(_ plugged: Bool) -> String?
}
