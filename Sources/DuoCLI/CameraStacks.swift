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
    @discardableResult
    static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let reachable = PipeWireSocket.isReachable(environment: environment)
        CameraDiscovery.disableProviders(CameraProviderChoice.disabled(pipeWireReachable: reachable))
        guard !reachable, GStreamer.hasElement(CameraStack.pipewire.sourceElement) else { return nil }
        return PipeWireDaemonLocation.notRunningNotice(environment)
    }
}
