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
        let current = faces
        let mirrors = DirectionMap.mirrors(activeCameraFaces: current[min(max(0, activeCamera), current.count - 1)],
                                           operatorChoice: plan.operatorMirrorChoice)
        pipeline?.child(.operatorMirror)?.setFromString("video-direction", mirrors.operatorPreview ? "horiz" : "identity")
        pipeline?.child(.subjectMirror)?.setFromString("video-direction", mirrors.subjectPicture ? "horiz" : "identity")
    }
}
