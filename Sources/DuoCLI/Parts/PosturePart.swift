import DuoCore
import Foundation

//  The camera on the air as a run part: swap, fold and unfold pick the camera by the way it faces (never by
//  its place on the command line), a swap carried out as `--swap-policy` says when the formats differ
//  (CameraSwitch), "stop, then switch" (end the take, swap, count down to a new take), a camera turned round
//  live (`faces`), the displays' mirroring following and each flip told (`mirror` event), and the camera's
//  label and format on the HUD.
//
//   swap/fold/unfold/restart-swap/faces ─┐                  ┌─▶ capture (switch camera, faces)
//   cameras part (the other takes over) ─┴─▶ PosturePart ───┼─▶ take core (segment, stop, new take)
//                                                           └─▶ events (swap, swap-refused, mirror), HUD

/// Which camera is on the air, and which way each faces.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class PosturePart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--swap-policy`: what a swap does to a take when the cameras' formats differ.
        var swapPolicy = SwapPolicy.lock
        init() {}
        init(_ options: Options) { swapPolicy = options.swapPolicy }
    }

    private let settings: Settings
    /// Whose face each camera sees, once a `faces` command changed it.
    private var liveFaces: [FacingViewer]?
    /// The camera on the air and its format, for the HUD.
    private var cameraLabel: String
    private var cameraFormat: String

    init(_ settings: Settings, plan: GraphPlan) {
        self.settings = settings
        cameraLabel = plan.camera.label
        cameraFormat = plan.format.description
    }

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        switch command {
        case .swap: await swapCommand(nil, run)
        // Folded, the camera facing the subject; unfolded, the one facing the operator.
        case .fold: await swapCommand(.fold, run)
        case .unfold: await swapCommand(.unfold, run)
        case .restartSwap(let posture): await restartSwap(posture, run)
        case .faces(let camera, let viewer): await setFacing(camera: camera, viewer, run)
        default: return false
        }
        return true
    }

    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {
        f.cameraLabel = cameraLabel
        f.format = cameraFormat + run.plan.requirementNote
    }

    /// Whose face each camera (A, B) sees now: the plan's, as changed by `faces` commands.
    private func currentFaces(_ plan: GraphPlan) -> [FacingViewer] {
        liveFaces ?? Array(plan.faces.prefix(plan.secondCamera == nil ? 1 : 2))
    }

    /// The camera a swap command asks for: by posture (the camera facing that side), or nil (the other
    /// one). Throws when no camera faces the posture's side.
    private func target(_ posture: CameraPosture?, _ run: isolated RunDirector) async throws(DuoError) -> Int? {
        guard let posture, run.plan.secondCamera != nil else { return nil }
        return try posture.camera(faces: currentFaces(run.plan), active: await run.capture.activeCamera)
    }

    /// `swap`, `fold`, `unfold`: the camera by direction, then the swap as `--swap-policy` says.
    private func swapCommand(_ posture: CameraPosture?, _ run: isolated RunDirector) async {
        let plan = run.plan
        let requested: Int?
        do throws(DuoError) { requested = try await target(posture, run) } catch { return run.refuse(error.message) }
        let active = await run.capture.activeCamera
        let target = requested ?? (1 - active)
        if run.parts.cameras.isLost(target), plan.secondCamera != nil {
            return run.refuse("camera \(plan.cameraLetter(target)) (\(plan.cameraName(target))) is lost; it is taken back when it returns")
        }
        await swap(to: requested, run)
    }

    /// Stop, then switch: the take (or countdown) ends, the cameras swap, and a new take starts after the
    /// countdown, at the new camera's own format. Without a take, a plain swap.
    private func restartSwap(_ posture: CameraPosture?, _ run: isolated RunDirector) async {
        let plan = run.plan
        guard plan.secondCamera != nil else { return run.refuse("camera swaps need a second camera; give --camera twice") }
        let requested: Int?
        do throws(DuoError) { requested = try await target(posture, run) } catch { return run.refuse(error.message) }
        let active = await run.capture.activeCamera
        let target = requested ?? (1 - active)
        guard target != active else { return }
        if run.parts.cameras.isLost(target) {
            return run.refuse("camera \(plan.cameraLetter(target)) (\(plan.cameraName(target))) is lost; it is taken back when it returns")
        }
        let wasRecording = run.takes.isBusy
        if run.takes.pending != nil { await run.cancelCountdown() }
        await run.stopTake()
        await swap(to: target, run)
        guard await run.capture.activeCamera == target else { return }
        if wasRecording {
            run.log(tr("duo-capture: stop, then switch: camera %s (%s); a new take after the countdown", plan.cameraLetter(target), plan.cameraName(target)))
            await run.record()
        }
    }

    /// A swap to camera `requested` (nil: the other one), with the take handled as `--swap-policy` says
    /// when the cameras' formats differ.
    func swap(to requested: Int?, _ run: isolated RunDirector) async {
        let plan = run.plan
        run.takes.swapStarting(individual: plan.individual, segmentPolicy: settings.swapPolicy == .segment)
        defer { run.takes.swapDone() }
        switch await CameraSwitch.perform(requested, session: run.capture, plan: plan, policy: settings.swapPolicy,
                                          stopTake: { await run.stopTake() }) {
        case .unchanged: break
        case .refused(let why): swapRefused(why, run)
        case .swapped(let swap, let startNewTake):
            run.events.emit(.swap(from: swap.from, to: swap.to, format: swap.format))
            // The capture mirrors by the live facing (CaptureSession+Facing); each flip is told.
            let after = await run.capture.activeCamera
            let faces = currentFaces(plan)
            reportMirrors(MirrorChange.between(activeBefore: 1 - after, facesBefore: faces, activeAfter: after,
                                               facesAfter: faces, operatorChoice: plan.operatorMirrorChoice),
                          camera: after, cause: "swap", run)
            cameraLabel = swap.to
            cameraFormat = swap.format
            // The next segment starts at once, at the new camera's format, as a new take and file.
            if startNewTake { await run.begin(take: run.takes.nextTake, at: run.clock.now(), endsRun: false) }
        }
    }

    /// A camera turned round: whose face it sees now. The displays' mirroring follows at once.
    private func setFacing(camera index: Int, _ viewer: FacingViewer, _ run: isolated RunDirector) async {
        let plan = run.plan
        guard index == 0 || plan.secondCamera != nil else { return run.refuse("faces: there is no camera B; give --camera twice") }
        let before = currentFaces(plan)
        var after = before
        after[index] = viewer
        liveFaces = after
        await run.capture.setFaces(after)
        let active = await run.capture.activeCamera
        let change = MirrorChange.between(activeBefore: active, facesBefore: before, activeAfter: active, facesAfter: after,
                                          operatorChoice: plan.operatorMirrorChoice)
        run.log(viewer == .theSubject ? tr("duo-capture: camera %s (%s) now faces the subject", plan.cameraLetter(index), plan.cameraName(index))
                : tr("duo-capture: camera %s (%s) now faces the operator", plan.cameraLetter(index), plan.cameraName(index)))
        reportMirrors(change, camera: active, cause: "faces", run)
    }

    /// A `mirror` event per display whose picture flipped, and a line on the HUD.
    private func reportMirrors(_ change: MirrorChange, camera: Int, cause: String, _ run: isolated RunDirector) {
        for flip in change.flips {
            run.events.emit(.mirror(display: flip.display, mirrored: flip.mirrored, camera: run.plan.cameraLetter(camera), cause: cause))
        }
        guard !change.flips.isEmpty else { return }
        run.face.say(change.flips.map { flip in
            switch (flip.display == "subject", flip.mirrored) {
            case (true, true): tr("subject picture mirrored")
            case (true, false): tr("subject picture not mirrored")
            case (false, true): tr("operator picture mirrored")
            case (false, false): tr("operator picture not mirrored")
            }
        }.joined(separator: tr(", ")))
    }

    /// A swap refused (lock, a lost camera): the reason on the HUD and in a `swap-refused` event.
    private func swapRefused(_ why: Said, _ run: isolated RunDirector) {
        run.events.emit(.swapRefused(reason: why.english))
        run.face.say(why.text)
        run.refuse(why.english)
    }
}
