import DuoCore
import Foundation

//  The cameras' health as a run part: CameraHealth's decisions carried out (a camera lost, the take going on
//  with the other camera or finalised, a camera tried again and taken back), the device port's cameras that
//  come and go (pulled out: lost at once; plugged back at any /dev/videoN: locked and reopened), and whether
//  frames flow (FrameFlow, with hysteresis).
//
//   session (.cameraLost) ─┐                          ┌─▶ capture (source stopped, restarted, moved to a node)
//   device port changes ───┼─▶ CamerasPart ─ health ──┼─▶ posture part (the other camera takes over)
//   each tick's frames ────┘     (CameraHealth,        ├─▶ take core (countdown cancelled, take finalised, run ended)
//                                 FrameFlow)           └─▶ events (camera-lost, camera-restored, frames), sidecars

/// The cameras' losses and restorations.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class CamerasPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--camera-loss`: with no camera left, wait for it (the default) or end the run.
        var loss = CameraLossPolicy.wait
        init() {}
        init(_ options: Options) { loss = options.cameraLoss }
    }

    /// How often a lost camera (not unplugged on purpose) is tried again.
    static let reattachInterval: Int64 = 2_000_000_000
    /// Frames stop counting as flowing when the camera delivered none within this span.
    static let flowingWindow: Int64 = 1_000_000_000

    private let settings: Settings
    private var health: CameraHealth
    /// Whether frames flow, with hysteresis (hidden after a real stall, shown after a steady run).
    private var frameFlow = FrameFlow(stallAfter: CamerasPart.flowingWindow)
    private let startWatch: @Sendable (@escaping @Sendable () -> Void) -> (any DevicePort)?
    /// The device monitor's view of the cameras this run uses (nil when every camera is simulated).
    private var watch: (any DevicePort)?
    /// Locks taken on a camera plugged back at another device node.
    private var reattachLocks: [Int: AnyObject] = [:]

    init(_ settings: Settings, plan: GraphPlan, watchDevices: @escaping @Sendable (@escaping @Sendable () -> Void) -> (any DevicePort)?) {
        self.settings = settings
        startWatch = watchDevices
        health = CameraHealth(cameraCount: plan.secondCamera == nil ? 1 : 2, frameRate: plan.format.frameRate.value,
                              reattachInterval: Self.reattachInterval)
    }

    /// Whether the device monitor watches the cameras (then the test hub pulls one out through it).
    var watching: Bool { watch != nil }
    /// Whether camera `index` is lost now.
    func isLost(_ index: Int) -> Bool { health.lost.contains(index) }

    func started(_ run: isolated RunDirector) async {
        health.started(at: run.startedAt)
        if run.plan.deviceIdentities.contains(where: { $0 != nil }) {
            // A camera that comes or goes is looked at at once, not at the next tick.
            let inbox = run.inbox
            watch = startWatch { inbox.send(.devicesChanged) }
        }
    }

    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {
        await lookAtDevices(run)
        await watchCameras(at: now, run)
        for index in health.due(at: now) { try? await plug(index, true, run) }
        await watchFrames(now, cameraFrames: counts.camera.frames, run)
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        guard case .cameraLost(let index, let reason) = event else { return false }
        health.sourceRunning(index, false)   // the session stopped its source
        await lost(index, reason: Said(verbatim: reason), run)
        return true
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        if case .devicesChanged = input { await lookAtDevices(woken: true, run) }
    }

    /// A camera's source stopped or restarted by hand (the test hub): out, it is not tried again by itself.
    func hold(_ index: Int, _ plugged: Bool, _ run: isolated RunDirector) async throws(DuoError) {
        try await plug(index, plugged, run)
        health.hubPlugged(index, plugged)
    }

    // MARK: Loss

    /// The documents' interruption: the session goes on. With two cameras (virtual mode) the take
    /// continues on the other one (the selector switches to it when the lost one was on the air), without
    /// a new file. With no camera left on the air, `--camera-loss wait` finalises the take and waits for
    /// the camera, re-attaching it when it returns; `exit` ends the run (exit 70).
    private func lost(_ index: Int, reason: Said, _ run: isolated RunDirector) async {
        let plan = run.plan
        guard health.markLost(index, at: run.clock.now()) else { return }
        run.sidecars.interrupted(at: run.clock.now(), device: plan.cameraLetter(index), what: "lost", reason: reason.english)
        let other = 1 - index
        let active = await run.capture.activeCamera
        let name = plan.secondCamera == nil ? Said.text("camera %s", plan.cameraName(index))
            : Said.text("camera %s (%s)", plan.cameraLetter(index), plan.cameraName(index))
        // Two cameras (virtual or individual): one lost, the other goes on.
        if plan.secondCamera != nil, active != index || !health.lost.contains(other) {
            run.events.emit(.cameraLost(camera: plan.cameraLetter(index), label: plan.cameraName(index), reason: reason.english))
            var message = Said.text("%s lost: %s; it is taken back when it returns", name, reason)
            if active == index {
                // Virtual mode: the same file goes on. Individual mode: the swap policy decides, as for
                // any swap (a new segment at the other camera's format, the take ended, or refused).
                await run.parts.posture.swap(to: other, run)
                if await run.capture.activeCamera == other {
                    message = .text("%s lost: %s; going on with camera %s; it is taken back when it returns", name, reason, plan.cameraLetter(other))
                } else {
                    message = .text("%s lost: %s; camera %s cannot take over (--swap-policy lock); the take is finalised; it is taken back when it returns",
                                    name, reason, plan.cameraLetter(other))
                    if run.takes.pending != nil { await run.cancelCountdown() }
                    await run.stopTake()
                }
            }
            run.notify(message)
            return
        }
        if settings.loss == .exit {
            let error = DuoError.runtime(.text("%s lost: %s; check the camera and start again", name, reason))
            run.events.emit(.error(message: error.english))
            return run.end(.failed(error))
        }
        run.events.emit(.cameraLost(camera: plan.cameraLetter(index), label: plan.cameraName(index), reason: reason.english))
        if run.takes.pending != nil { await run.cancelCountdown() }
        await run.stopTake()
        run.notify(.text("%s lost: %s; the take is finalised, waiting for the camera to come back", name, reason))
    }

    private func restored(_ index: Int, _ run: isolated RunDirector) {
        let plan = run.plan
        run.sidecars.interrupted(at: run.clock.now(), device: plan.cameraLetter(index), what: "restored", reason: nil)
        run.events.emit(.cameraRestored(camera: plan.cameraLetter(index), label: plan.cameraName(index)))
        run.log(tr("duo-capture: camera %s (%s) is back", plan.cameraLetter(index), plan.cameraName(index)))
        run.face.say(tr("camera %s is back", plan.cameraLetter(index)))
    }

    private func carry(_ decision: CameraHealth.Decision, _ run: isolated RunDirector) async {
        switch decision {
        case .restored(let index): restored(index, run)
        case .lost(let index, let reason): await lost(index, reason: reason, run)
        }
    }

    // MARK: Watching

    /// Cameras pulled out and plugged back, by identity: one pulled out is lost at once (not after the
    /// watchdog's wait), and one plugged back, at whatever /dev/videoN, is re-attached.
    private func lookAtDevices(woken: Bool = false, _ run: isolated RunDirector) async {
        guard let watch else { return }
        let plan = run.plan
        for change in watch.cameraChanges(woken: woken) {
            switch change {
            case .removed(let device):
                guard let index = plan.deviceIdentities.firstIndex(of: device.identity), health.deviceRemoved(index) else { continue }
                try? await plug(index, false, run)
                await lost(index, reason: .text("unplugged (%s)", device.devicePath ?? device.name), run)
            case .added(let device):
                guard let index = plan.deviceIdentities.firstIndex(of: device.identity), health.gone.contains(index) else { continue }
                if device.api != "duotest", let path = device.devicePath {
                    // The same camera at another node: lock that node, and open it there.
                    do throws(DuoError) {
                        reattachLocks[index] = try watch.lock(device: path, label: "id:\(device.identity)")
                        try await run.capture.setCameraDevice(index, path: path)
                    } catch {
                        run.notify(.text("camera %s is back at %s but cannot be taken: %s", plan.cameraLetter(index), path, error.said))
                        continue
                    }
                }
                _ = health.deviceAdded(index)
                run.log(tr("duo-capture: camera %s (%s) plugged back in at %s", plan.cameraLetter(index), plan.cameraName(index), device.devicePath ?? "?"))
                try? await plug(index, true, run)
            }
        }
    }

    /// Stops or restarts a camera's source, keeping the health's stopped sources in step (frames still in
    /// flight from before a stop never count as the camera coming back).
    private func plug(_ index: Int, _ plugged: Bool, _ run: isolated RunDirector) async throws(DuoError) {
        health.sourceRunning(index, plugged)
        try await run.capture.setCameraPlugged(index, plugged)
    }

    /// Per-camera watchdog on the pipeline clock (two cameras): a camera silent for the health's loss
    /// timeout is lost; one that delivers again is restored.
    private func watchCameras(at now: Int64, _ run: isolated RunDirector) async {
        guard run.plan.secondCamera != nil else { return }
        let frames = await run.capture.cameraFrames
        let active = await run.capture.activeCamera
        for decision in health.observe(cameraFrames: frames, active: active, at: now) { await carry(decision, run) }
    }

    /// The camera on the air: frames flowing (with hysteresis), a single camera coming back, and a
    /// stall (an unplugged camera usually posts an error, but sometimes just goes quiet).
    private func watchFrames(_ now: Int64, cameraFrames frames: Int64, _ run: isolated RunDirector) async {
        let decision = health.observeActive(frames: frames, active: await run.capture.activeCamera, at: now)
        if case .restored = decision, let decision { await carry(decision, run) }
        if let flowing = frameFlow.observe(frames: frames, at: now) {
            run.events.emit(.frames(flowing: flowing, cameraFrames: Int(frames)))
            run.face.setFramesFlowing(flowing)
        }
        if case .lost = decision, let decision { await carry(decision, run) }
    }
}

extension GraphPlan {
    /// Camera `index`'s letter as the events and the HUD say it: A, B.
    func cameraLetter(_ index: Int) -> String { index == 0 ? "A" : "B" }
    /// Camera `index`'s label.
    func cameraName(_ index: Int) -> String { index == 0 ? camera.label : secondCamera?.label ?? "?" }
}
