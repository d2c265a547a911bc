import CDuoShim
import CGStreamer
import DuoCore

//  The capture session's subject branch (the accessory's view on the camera tee): its valve, opened and
//  shut (and the time it was shut inside its count), how much of the camera's picture it shows, and the
//  picture's mirroring. Its failure shuts it and keeps the capture going (CaptureSession+Faults.swift).
//
//   tee "t" ─▶ subject_valve ─▶ subject_scale ─▶ subject_mirror ─▶ … ─▶ subject_sink (the view drawn here)

extension CaptureSession {
    /// Opens or shuts the subject branch at its valve. Shut, the branch does no work at all: no scaling,
    /// no drawing, no sink. (The valve drops buffers and, from GStreamer 1.22, re-sends sticky events
    /// when it opens again.)
    public func setSubjectBranchOpen(_ open: Bool) {
        guard let valve = pipeline?.child(.subjectValve), !subjectFailed || !open else { return }
        let now = runningTime
        if open, let since = subjectShutSince {
            subjectShutSpan += now - since
            subjectShutSince = nil
        } else if !open, subjectShutSince == nil, (counters["subject"]?.read().frames ?? 0) > 0 {
            // Only a shut span after the first subject frame lies inside the branch's count.
            subjectShutSince = now
        }
        valve.set("drop", !open)
    }

    /// How much of the subject's picture shows (`CapturePort.setSubjectPictureUse`). Headless, the view
    /// covers the frame or samples a thumbnail from it, so the picture is scaled nearest-neighbour (a
    /// bilinear downscale was 6-8% of the whole run's CPU at 720p30), and not flipped when covered.
    /// The scaler takes its method when the graph negotiates (a use given before `start`); a later change
    /// flips or unflips the picture at once, and keeps the scaler as it was (videoscale builds its
    /// converter only for new caps, and headless subject frames reach no screen).
    public func setSubjectPictureUse(_ use: SubjectPictureUse) {
        guard use != subjectPictureUse else { return }
        subjectPictureUse = use
        applySubjectMirror()
    }

    /// The subject view is mirrored `mirror` (for glass): its picture follows.
    public func setSubjectViewMirror(_ mirror: MirrorFlags) {
        subjectViewMirror = mirror
        applySubjectMirror()
    }

    /// Sets the subject picture's direction: the selfie mirror of the camera on the air, combined with
    /// the view's own mirror.
    func applySubjectMirror() {
        let selfie = liveMirrors().subjectPicture
        let shown = subjectPictureUse != .covered
        let h = shown && selfie != subjectViewMirror.horizontal, v = shown && subjectViewMirror.vertical
        pipeline?.child(.subjectMirror)?.setFromString("video-direction", h && v ? "180" : h ? "horiz" : v ? "vert" : "identity")
    }

    /// Sets up the subject branch in a graph just built: its valve as the session was made, its scaler for
    /// the picture's use, its mirror, its isolation (flow errors stop at the valve) and the view's drawer.
    func prepareSubjectBranch(_ p: ElementRef) {
        p.child(.subjectValve)?.set("drop", !initialSubjectOpen)
        p.child(.subjectScale)?.setFromString("method", subjectPictureUse == .shown ? "bilinear" : "nearest-neighbour")
        applySubjectMirror()
        // The subject view must never stop the capture: its branch's flow errors stop at the valve.
        if let valveSink = p.child(.subjectValve)?.staticPad("sink") { duo_isolate_pad_errors(valveSink.pointer) }
        if let drawer = subjectDrawer, let pad = p.child(.subjectSink)?.staticPad("sink") {
            subjectProbe = FrameDrawerProbe(pad: pad, drawer: drawer)
        }
    }

    /// The accessory's own failure (its sink, its drawing): it is shut for good, the capture goes on.
    func subjectViewFailed(_ fault: GraphFault) {
        guard !subjectFailed else { return }
        subjectFailed = true
        pipeline?.child(.subjectValve)?.set("drop", true)
        eventSink.yield(.subjectFailed(fault.described))
    }
}
