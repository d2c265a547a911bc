import DuoCore
import DuoMedia
import Foundation

//  The run director's cameras by direction: fold and unfold pick the camera by the way it faces (never by
//  its place on the command line), a camera turned round live (`faces`), the displays' mirroring
//  following and each flip told (`mirror` event), and "stop, then switch" (end the take, swap, count
//  down to a new take).
//
//  Thread: the run director's actor.

extension RunDirector {
    /// Whose face each camera (A, B) sees now: the plan's, as changed by `faces` commands.
    var currentFaces: [FacingViewer] { liveFaces ?? Array(plan.faces.prefix(plan.secondCamera == nil ? 1 : 2)) }

    /// The camera a swap command asks for: by posture (the camera facing that side), or nil (the other
    /// one). Throws when no camera faces the posture's side.
    func swapTarget(_ posture: CameraPosture?) async throws(DuoError) -> Int? {
        guard let posture, plan.secondCamera != nil else { return nil }
        return try posture.camera(faces: currentFaces, active: await capture.activeCamera)
    }

    /// `swap`, `fold`, `unfold`: the camera by direction, then the swap as `--swap-policy` says.
    func swapCommand(_ posture: CameraPosture?) async {
        let requested: Int?
        do throws(DuoError) { requested = try await swapTarget(posture) } catch { return refuse(error.message) }
        let active = await capture.activeCamera
        let target = requested ?? (1 - active)
        if health.lost.contains(target), plan.secondCamera != nil {
            return refuse("camera \(cameraLetter(target)) (\(cameraName(target))) is lost; it is taken back when it returns")
        }
        await swapCameras(requested)
    }

    /// Stop, then switch: the take (or countdown) ends, the cameras swap, and a new take starts after the
    /// countdown, at the new camera's own format. Without a take, a plain swap.
    func restartSwap(_ posture: CameraPosture?) async {
        guard plan.secondCamera != nil else { return refuse("camera swaps need a second camera; give --camera twice") }
        let requested: Int?
        do throws(DuoError) { requested = try await swapTarget(posture) } catch { return refuse(error.message) }
        let active = await capture.activeCamera
        let target = requested ?? (1 - active)
        guard target != active else { return }
        if health.lost.contains(target) {
            return refuse("camera \(cameraLetter(target)) (\(cameraName(target))) is lost; it is taken back when it returns")
        }
        let wasRecording = takes.isBusy
        if pending != nil { await cancelCountdown() }
        await stopTake()
        await swapCameras(target)
        guard await capture.activeCamera == target else { return }
        if wasRecording {
            log("duo-capture: stop, then switch: camera \(cameraLetter(target)) (\(cameraName(target))); a new take after the countdown")
            await record()
        }
    }

    /// A camera turned round: whose face it sees now. The displays' mirroring follows at once.
    func setFacing(camera index: Int, _ viewer: FacingViewer) async {
        guard index == 0 || plan.secondCamera != nil else { return refuse("faces: there is no camera B; give --camera twice") }
        let before = currentFaces
        var after = before
        after[index] = viewer
        liveFaces = after
        await capture.setFaces(after)
        let active = await capture.activeCamera
        let change = MirrorChange.between(activeBefore: active, facesBefore: before, activeAfter: active, facesAfter: after,
                                          operatorChoice: plan.operatorMirrorChoice)
        log("duo-capture: camera \(cameraLetter(index)) (\(cameraName(index))) now faces the \(viewer.rawValue)")
        reportMirrors(change, camera: active, cause: "faces")
    }

    /// A `mirror` event per display whose picture flipped, and a line on the HUD.
    func reportMirrors(_ change: MirrorChange, camera: Int, cause: String) {
        for flip in change.flips {
            events.emit(.mirror(display: flip.display, mirrored: flip.mirrored, camera: cameraLetter(camera), cause: cause))
        }
        guard !change.flips.isEmpty else { return }
        face.say(change.flips.map { "\($0.display) picture \($0.mirrored ? "mirrored" : "not mirrored")" }.joined(separator: ", "))
    }

    /// A swap refused (lock, a lost camera): the reason on the HUD and in a `swap-refused` event.
    func swapRefused(_ why: String) {
        events.emit(.swapRefused(reason: why))
        face.say(why)
        refuse(why)
    }
}
