import CDuoShim
import CGStreamer
import DuoCore
import Foundation

//  The capture session's camera inputs: the selector between two cameras (a swap changes no caps
//  downstream), each camera's frames, its source stopped and restarted (a camera lost and found again,
//  at another device node too), its live rotation, a camera that never started, and the players of
//  cameras that are clips (`--camera file:PATH`, ClipCamera.swift).

extension CaptureSession {
    /// Switches the virtual camera to camera `index` (0 = A, 1 = B), or to the other one. Both cameras
    /// run at the same fixed caps, so nothing downstream renegotiates and a take goes on unbroken.
    @discardableResult
    public func selectCamera(_ index: Int? = nil) async throws(DuoError) -> CameraSwap? {
        guard let second = plan.secondCamera else {
            throw .usage(.text("camera swaps need a second camera; give --camera twice"))
        }
        guard let selector = pipeline?.child(.selector) else { throw .runtime(.text("the capture session is not running")) }
        let target = index ?? (1 - activeCamera)
        guard target != activeCamera else { return nil }
        guard let pad = selector.staticPad("sink_\(target)") else { throw .runtime(.text("the camera selector has no input %s", target)) }
        duo_set_object(UnsafeMutableRawPointer(selector.pointer), "active-pad", UnsafeMutableRawPointer(pad.pointer))
        let labels = [plan.camera.label, second.label]
        let swap = CameraSwap(runningTime: runningTime, from: labels[activeCamera], to: labels[target],
                              format: plan.format(ofCamera: target).description)
        activeCamera = target
        // Each display's picture is mirrored again for the camera now on the air (the selfie convention).
        applyMirrors()
        // The take's sidecar lists the swaps that happened while it recorded.
        await recorder?.noteSwap(swap)
        return swap
    }

    /// Frames each camera delivered to the selector (A, B); one entry with one camera.
    public var cameraFrames: [Int64] {
        [counters["camera0"], counters["camera1"]].compactMap { $0?.read().frames }
    }

    /// The test hub's unplug and re-plug: camera `index`'s source stops delivering (as a device pulled
    /// out does) or starts again in step with the running graph. A real camera is reopened on re-plug.
    public func setCameraPlugged(_ index: Int, _ plugged: Bool) throws(DuoError) {
        guard plan.secondCamera != nil || index == 0 else { throw .usage(.text("there is no camera B; give --camera twice")) }
        guard let source = pipeline?.child(named: GraphElement.cameraSource.forCamera(index)) else {
            throw .runtime(.text("the capture session is not running"))
        }
        if plugged {
            guard unpluggedCameras.contains(index) else { return }
            unpluggedCameras.remove(index)
            // A test source counts its timestamps from its own start: begin them at the graph's running
            // time, or every frame after a re-plug would be seconds in the past. (A V4L2 source stamps
            // frames from the pipeline clock and needs nothing.)
            if source.has("timestamp-offset") { source.setFromString("timestamp-offset", "\(runningTime)") }
            _ = source.syncStateWithParent()
        } else {
            guard !unpluggedCameras.contains(index) else { return }
            unpluggedCameras.insert(index)
            source.setState(GST_STATE_NULL)
        }
    }

    /// A lost camera found again at another device node (a USB camera plugged into another port): its
    /// source opens that node when it is plugged back. Only while the camera is unplugged.
    public func setCameraDevice(_ index: Int, path: String) throws(DuoError) {
        guard unpluggedCameras.contains(index) else { return }
        guard let source = pipeline?.child(named: GraphElement.cameraSource.forCamera(index)) else {
            throw .runtime(.text("the capture session is not running"))
        }
        if source.has("device") { source.set("device", path) }
    }

    /// The test hub's rotation: camera `index`'s picture turned `degrees` clockwise on top of its upright
    /// rotation, live. A quarter turn keeps the recording's format: the picture is fitted into it with
    /// borders (videoscale keeps the aspect), never stretched.
    public func rotateCamera(_ index: Int, degrees: Int) throws(DuoError) {
        guard plan.secondCamera != nil || index == 0 else { throw .usage(.text("there is no camera B; give --camera twice")) }
        let camera = index == 0 ? plan.camera : plan.secondCamera!
        guard let flip = pipeline?.child(named: GraphElement.cameraRotate.forCamera(index)) else {
            throw .runtime(.text("the capture session is not running"))
        }
        flip.setFromString("video-direction", GraphPlan.rotationDirection((camera.rotation + degrees) % 360))
    }

    /// Starts a player for each camera that is a clip, before the graph plays (ClipCamera.startAll).
    func startClipCameras() throws(DuoError) {
        let sink = eventSink
        clipCameras = try ClipCamera.startAll(for: plan) { sink.yield(.warning($0)) }
    }

    /// The first camera that gave no frame yet, as the error that says so (CameraStartWait): its mode,
    /// and for a PipeWire node whether a format was ever agreed (its source's pad has caps); nil when
    /// every camera gave frames. `waited`: "within N s", nil when the source gave up by itself.
    func cameraNeverStarted(waited: Said?) -> DuoError? {
        guard let p = pipeline else { return nil }
        let frames = plan.secondCamera == nil ? [counters["camera"]?.read().frames ?? 0]
            : [counters["camera0"]?.read().frames ?? 0, counters["camera1"]?.read().frames ?? 0]
        guard let index = frames.firstIndex(of: 0) else { return nil }
        let source = index == 0 ? plan.camera : (plan.secondCamera ?? plan.camera)
        let mode = index == 0 ? plan.cameraMode : (plan.secondCameraMode ?? plan.cameraMode)
        let agreed = p.child(named: GraphElement.cameraSource.forCamera(index))?.staticPad("src").flatMap(\.currentCapsMode)
        let wait: CameraStartWait = agreed == nil && source.isPipeWire ? .format : .frame(agreed: agreed)
        let intake = p.child(named: GraphElement.cameraRotate.forCamera(index))?.staticPad("sink").map(CameraIntake.accepted) ?? .any
        return wait.error(camera: source, mode: mode, waited: waited, graphTakes: intake.takes(mode))
    }

    /// Each camera's source element (A, and B when there is one).
    func cameraSources(_ p: ElementRef) -> [ElementRef] {
        [0, 1].compactMap { p.child(named: GraphElement.cameraSource.forCamera($0)) }
    }
}
