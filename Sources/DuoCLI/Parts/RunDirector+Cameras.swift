import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's cameras: CameraHealth's decisions carried out (a loss, a swap to the other camera, a camera
//  taken back), and the device port's cameras that come and go.
//
//  Thread: the run director's actor.

extension RunDirector {
    // MARK: Camera loss

    /// Two cameras (virtual or individual): one lost, the other goes on.
    var cameraLossApplies: Bool { plan.secondCamera != nil }

    func cameraLetter(_ index: Int) -> String { index == 0 ? "A" : "B" }
    func cameraName(_ index: Int) -> String { index == 0 ? plan.camera.label : plan.secondCamera?.label ?? "?" }

    /// The documents' interruption: the session goes on. With two cameras (virtual mode) the take
    /// continues on the other one (the selector switches to it when the lost one was on the air), without
    /// a new file. With no camera left on the air, `--camera-loss wait` finalises the take and waits for
    /// the camera, re-attaching it when it returns; `exit` ends the run (exit 70).
    func cameraLost(_ index: Int, reason: String) async {
        guard health.markLost(index, at: clock.now()) else { return }
        interruptions.append((clock.now(), cameraLetter(index), "lost", reason))
        let other = 1 - index
        let active = await capture.activeCamera
        let name = plan.secondCamera == nil ? "camera \(cameraName(index))" : "camera \(cameraLetter(index)) (\(cameraName(index)))"
        if cameraLossApplies, active != index || !health.lost.contains(other) {
            events.emit(.cameraLost(camera: cameraLetter(index), label: cameraName(index), reason: reason))
            var message = "\(name) lost: \(reason)"
            if active == index {
                // Virtual mode: the same file goes on. Individual mode: the swap policy decides, as for
                // any swap (a new segment at the other camera's format, the take ended, or refused).
                await swapCameras(other)
                if await capture.activeCamera == other {
                    message += "; going on with camera \(cameraLetter(other))"
                } else {
                    message += "; camera \(cameraLetter(other)) cannot take over (--swap-policy lock)"
                    if pending != nil { await cancelCountdown() }
                    await stopTake()
                    message += "; the take is finalised"
                }
            }
            notify("\(message); it is taken back when it returns")
            return
        }
        if settings.cameraLoss == .exit {
            let error = DuoError.runtime("\(name) lost: \(reason); check the camera and start again")
            events.emit(.error(message: error.message))
            return end(.failed(error))
        }
        events.emit(.cameraLost(camera: cameraLetter(index), label: cameraName(index), reason: reason))
        if pending != nil { await cancelCountdown() }
        await stopTake()
        notify("\(name) lost: \(reason); the take is finalised, waiting for the camera to come back")
    }

    /// How often a lost camera (not unplugged on purpose) is tried again.
    static let reattachInterval: Int64 = 2_000_000_000
    /// Tries the lost cameras whose time has come: a source restarted in step with the graph; a device
    /// still missing fails again quietly (it is already reported lost).
    func reattach(at now: Int64) async {
        for index in health.due(at: now) { try? await plug(index, true) }
    }


    /// Cameras pulled out and plugged back, by identity: one pulled out is lost at once (not after the
    /// watchdog's wait), and one plugged back, at whatever /dev/videoN, is re-attached.
    func watchDevices(woken: Bool = false) async {
        guard let watch = cameraWatch else { return }
        for change in watch.changes(woken: woken) {
            switch change {
            case .removed(let device):
                guard let index = plan.deviceIdentities.firstIndex(of: device.identity), health.deviceRemoved(index) else { continue }
                try? await plug(index, false)
                await cameraLost(index, reason: "unplugged (\(device.devicePath ?? device.name))")
            case .added(let device):
                guard let index = plan.deviceIdentities.firstIndex(of: device.identity), health.gone.contains(index) else { continue }
                if device.api != "duotest", let path = device.devicePath {
                    // The same camera at another node: lock that node, and open it there.
                    do throws(DuoError) {
                        reattachLocks[index] = try watch.lock(device: path, label: "id:\(device.identity)")
                        try await capture.setCameraDevice(index, path: path)
                    } catch {
                        notify("camera \(cameraLetter(index)) is back at \(path) but cannot be taken: \(error.message)")
                        continue
                    }
                }
                _ = health.deviceAdded(index)
                log("duo-capture: camera \(cameraLetter(index)) (\(cameraName(index))) plugged back in at \(device.devicePath ?? "?")")
                try? await plug(index, true)
            }
        }
    }

    /// Stops or restarts a camera's source, keeping the health's stopped sources in step (frames still in
    /// flight from before a stop never count as the camera coming back).
    func plug(_ index: Int, _ plugged: Bool) async throws(DuoError) {
        health.sourceRunning(index, plugged)
        try await capture.setCameraPlugged(index, plugged)
    }

    func cameraRestored(_ index: Int) {
        interruptions.append((clock.now(), cameraLetter(index), "restored", nil))
        events.emit(.cameraRestored(camera: cameraLetter(index), label: cameraName(index)))
        log("duo-capture: camera \(cameraLetter(index)) (\(cameraName(index))) is back")
        face.say("camera \(cameraLetter(index)) is back")
    }

    /// Per-camera watchdog on the pipeline clock (two cameras): a camera silent for the health's loss
    /// timeout is lost; one that delivers again is restored.
    func watchCameras(at now: Int64) async {
        guard cameraLossApplies else { return }
        let frames = await capture.cameraFrames
        let active = await capture.activeCamera
        for decision in health.observe(cameraFrames: frames, active: active, at: now) { await carry(decision) }
    }

    func carry(_ decision: CameraHealth.Decision) async {
        switch decision {
        case .restored(let index): cameraRestored(index)
        case .lost(let index, let reason): await cameraLost(index, reason: reason)
        }
    }

    /// A swap, with the take handled as `--swap-policy` says when the cameras' formats differ.
    func swapCameras(_ requested: Int?) async {
        takes.swapStarting(individual: plan.individual, segmentPolicy: settings.swapPolicy == .segment)
        defer { takes.swapDone() }
        switch await CameraSwitch.perform(requested, session: capture, plan: plan, policy: settings.swapPolicy,
                                          stopTake: { await self.stopTake() }) {
        case .unchanged: break
        case .refused(let why): swapRefused(why)
        case .swapped(let swap, let startNewTake):
            events.emit(.swap(from: swap.from, to: swap.to, format: swap.format))
            // The capture mirrors by the live facing (CaptureSession+Facing); each flip is told.
            let after = await capture.activeCamera
            reportMirrors(MirrorChange.between(activeBefore: 1 - after, facesBefore: currentFaces, activeAfter: after,
                                               facesAfter: currentFaces, operatorChoice: plan.operatorMirrorChoice),
                          camera: after, cause: "swap")
            cameraLabel = swap.to
            cameraFormat = swap.format
            // The next segment starts at once, at the new camera's format, as a new take and file.
            if startNewTake { await begin(take: takes.nextTake, at: clock.now(), endsRun: false) }
        }
    }
}
