import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's commands and session facts: each ControlCommand (keys, the control socket, timelines, the web
//  remote) and SessionEvent carried out by the take core or the part it belongs to, or refused with why; and what a
//  registered extension (the test hub) may do to a run.
//
//  Thread: the run director's actor.

extension RunDirector {
    // MARK: Commands

    /// A command: the take core's (record, stop, countdown, quit) and a registered extension's here, any
    /// other carried out (or refused, saying why) by the part it belongs to; then the HUD's figures.
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
        case .extended(let extended):
            // Parsed by a registered extension (the test hub), so carried out by it.
            guard let handler = RunExtensions.handler.value else { return refuse("\(extended.name): no extension carries it out") }
            if let why = await handler.handle(extended, in: extensionContext) { refuse("\(extended.name): \(why)") }
        default:
            for part in parts.all {
                if await part.handle(command, self) { break }
            }
        }
        await showFigures()
    }

    /// A fact the media reported: a fatal error and a take's end here, any other to the part it belongs to.
    func handle(_ event: SessionEvent) async {
        switch event {
        case .failed(let error):
            events.emit(.error(message: error.english))
            end(.failed(error))
        case .takeEnded(let result): await takeEnded(result)
        case .takeStarted: break
        default:
            for part in parts.all {
                if await part.handle(event, self) { break }
            }
        }
    }

    func refuse(_ message: String) {
        events.emit(.error(message: "control: \(message)", source: commandSource?.rawValue))
    }
}

extension RunDirector {
    /// What a registered extension may do to this run.
    var extensionContext: RunExtensionContext {
        RunExtensionContext(
            capture: capture, cameraIdentities: plan.deviceIdentities, cameraCount: plan.secondCamera == nil ? 1 : 2,
            watchingDevices: parts.cameras.watching,
            holdCamera: { [self] index, plugged throws(DuoError) in try await holdCamera(index, plugged) },
            subjectMonitor: { [face] plugged in
                (face as? SubjectMonitorControl)?.setSubjectMonitorPlugged(plugged)
                    ?? "the subject monitor is unplugged on the desktop; this run is --headless"
            })
    }

    /// A camera's source stopped or restarted by hand: out, it is not tried again by itself.
    func holdCamera(_ index: Int, _ plugged: Bool) async throws(DuoError) {
        try await parts.cameras.hold(index, plugged, self)
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
