/// The device's posture picks a camera by the way each camera faces, never by its place on the command
/// line: folded, the camera facing the subject records; unfolded (open), the one facing the operator's
/// side. A camera's facing can change during a run (a camera on a swivel, a laptop lid turned round:
/// the `faces` command), and the choice follows.
///
/// Thread: value type, Sendable; pure.
public enum CameraPosture: String, Sendable, CaseIterable {
    case fold, unfold

    /// Whose side the chosen camera faces in this posture.
    public var facing: FacingViewer { self == .fold ? .theSubject : .theOperator }

    /// The camera to put on the air: the one facing this posture's side, preferring the one already on
    /// the air when both do. Throws a usage error saying what to do when none does.
    public func camera(faces: [FacingViewer], active: Int) throws(DuoError) -> Int {
        let candidates = faces.indices.filter { faces[$0] == facing }
        if candidates.contains(active) { return active }
        guard let first = candidates.first else {
            let letters = faces.indices.map { "\($0 == 0 ? "A" : "B") faces the \(faces[$0].rawValue)" }.joined(separator: ", ")
            throw .usage(.text("%s: no camera faces the %s (%s); turn one with {\"cmd\":\"faces\",\"camera\":\"A\",\"faces\":\"%s\"} or --faces %s", rawValue, facing.rawValue, letters, facing.rawValue, facing.rawValue))
        }
        return first
    }
}

/// What a change of camera or of a camera's facing did to the displays' mirroring: one entry per display
/// whose picture flipped (`operator` preview, `subject` picture), with its new state.
///
/// Thread: value type, Sendable; pure.
public struct MirrorChange: Sendable, Equatable {
    public struct Flip: Sendable, Equatable {
        /// "operator" or "subject".
        public let display: String
        public let mirrored: Bool
        public init(display: String, mirrored: Bool) { self.display = display; self.mirrored = mirrored }
    }
    public let flips: [Flip]

    public init(before: (operatorPreview: Bool, subjectPicture: Bool), after: (operatorPreview: Bool, subjectPicture: Bool)) {
        var flips: [Flip] = []
        if before.operatorPreview != after.operatorPreview { flips.append(Flip(display: "operator", mirrored: after.operatorPreview)) }
        if before.subjectPicture != after.subjectPicture { flips.append(Flip(display: "subject", mirrored: after.subjectPicture)) }
        self.flips = flips
    }

    /// The change from camera `from` to camera `to` on the air, with `facesBefore` turning into `facesAfter`.
    public static func between(activeBefore from: Int, facesBefore: [FacingViewer], activeAfter to: Int, facesAfter: [FacingViewer],
                               operatorChoice: Bool) -> MirrorChange {
        func at(_ faces: [FacingViewer], _ i: Int) -> FacingViewer { faces[min(max(0, i), faces.count - 1)] }
        return MirrorChange(before: DirectionMap.mirrors(activeCameraFaces: at(facesBefore, from), operatorChoice: operatorChoice),
                            after: DirectionMap.mirrors(activeCameraFaces: at(facesAfter, to), operatorChoice: operatorChoice))
    }
}
