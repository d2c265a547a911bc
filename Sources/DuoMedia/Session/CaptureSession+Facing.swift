import DuoCore

//  The capture session's facing: whose face each camera sees, changed live (a camera on a swivel, a
//  laptop lid turned round), and each display's mirroring set from it for the camera on the air.

extension CaptureSession {
    /// Whose face each camera (A, B) sees now.
    public var faces: [FacingViewer] { liveFaces ?? plan.faces }

    /// A camera turned round: the displays' mirroring follows at once (the recording is never mirrored).
    public func setFaces(_ faces: [FacingViewer]) {
        liveFaces = faces
        applyMirrors()
    }

    /// Sets each display's mirror for the camera on the air, by its facing (DirectionMap).
    func applyMirrors() {
        pipeline?.child(.operatorMirror)?.setFromString("video-direction", liveMirrors().operatorPreview ? "horiz" : "identity")
        applySubjectMirror()
    }

    /// The selfie mirrors for the camera on the air, from its facing now.
    func liveMirrors() -> (operatorPreview: Bool, subjectPicture: Bool) {
        let current = faces
        return DirectionMap.mirrors(activeCameraFaces: current[min(max(0, activeCamera), current.count - 1)],
                                    operatorChoice: plan.operatorMirrorChoice)
    }
}
