/// Whose face a camera sees: the operator's (at the operator's display) or the subject's.
///
/// Thread: value type, Sendable.
public enum FacingViewer: String, Sendable, Equatable, CaseIterable {
    case theOperator = "operator"
    case theSubject = "subject"

    public static func parse(_ text: String, option: String) throws(DuoError) -> FacingViewer {
        guard let v = FacingViewer(rawValue: text) else {
            throw .usage("\(option) \(text): give operator or subject (whose face the camera sees)")
        }
        return v
    }
}

/// Which displays show the camera picture mirrored: the selfie convention, per display. A display's
/// picture is mirrored when its viewer faces the active camera (they see themselves, as in a mirror);
/// the operator may flip their own preview by choice (`--mirror-preview`). Recordings are never mirrored.
/// Recomputed on every swap, fold and unfold.
///
/// Thread: pure.
public enum DirectionMap {
    public static func mirrors(activeCameraFaces faces: FacingViewer, operatorChoice: Bool = false) -> (operatorPreview: Bool, subjectPicture: Bool) {
        ((faces == .theOperator) != operatorChoice, faces == .theSubject)
    }
}
