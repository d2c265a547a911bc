import DuoCore
import DuoMedia

/// One camera swap, as both runs (headless and desktop) carry it out: the target camera, the swap policy's
/// decision for a running take, the take stopped if the policy says so, and the selector switched.
///
/// Thread: called from the posture part, on the run director's actor; awaits the capture port.
enum CameraSwitch {
    enum Outcome {
        /// Already on that camera: nothing to do.
        case unchanged
        case refused(Said)
        /// Switched; `startNewTake` when the policy segments the recording into a new file.
        case swapped(CameraSwap, startNewTake: Bool)
    }

    /// `requested`: 0 (A, unfold), 1 (B, fold) or nil (the other one). `stopTake` ends the running take
    /// the caller's way (sidecars, events), before the switch.
    static func perform(_ requested: Int?, session: any CapturePort, plan: GraphPlan, policy: SwapPolicy,
                        stopTake: @Sendable () async -> Void) async -> Outcome {
        guard plan.secondCamera != nil else { return .refused(.text("camera swaps need a second camera; give --camera twice")) }
        let active = await session.activeCamera
        let target = requested ?? (1 - active)
        guard target != active else { return .unchanged }
        let decision = policy.decide(recording: await session.isRecording,
                                     formatsMatch: plan.format(ofCamera: 0) == plan.format(ofCamera: 1))
        if case .refuse(let why) = decision { return .refused(why) }
        if decision == .segment || decision == .stopThenSwap { await stopTake() }
        do {
            guard let swap = try await session.switchCamera(to: target) else { return .unchanged }
            return .swapped(swap, startNewTake: decision == .segment)
        } catch {
            return .refused(error.said)
        }
    }
}
