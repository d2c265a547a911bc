import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

/// Chooses, once per process and before any device monitor starts, which camera stacks are listed:
/// PipeWire's when its daemon answers, else libcamera's directly (`CameraProviderChoice`); V4L2's always.
///
/// Thread: main task at start-up.
enum CameraStacks {
    /// Prepares the device providers; returns the one-line notice to give when PipeWire's element is
    /// installed but no daemon answers (nil when it answers, or when PipeWire is not installed at all).
    /// In a sandbox (Flatpak) the camera portal is asked first; its refusal is one line too (`portal`).
    static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment) -> (pipeWire: String?, portal: String?) {
        var portal: String?
        if CameraPortal.sandboxed {
            switch CameraPortal.requestAccess() {
            case .granted: break
            case .refused:
                portal = tr("camera access was refused in the desktop's camera portal; allow duo-capture under Settings, Privacy, Camera and start again, or use --camera inner")
            case .unavailable(let why):
                portal = tr("cannot ask the desktop's camera portal for the cameras: %s; cameras may be missing in this sandbox", why)
            }
        }
        let reachable = PipeWireSocket.isReachable(environment: environment)
        CameraDiscovery.disableProviders(CameraProviderChoice.providersToHide(pipeWireReachable: reachable))
        guard !reachable, GStreamer.hasElement(CameraStack.pipewire.sourceElement) else { return (nil, portal) }
        return (PipeWireDaemonLocation.notRunningNotice(environment), portal)
    }
}
