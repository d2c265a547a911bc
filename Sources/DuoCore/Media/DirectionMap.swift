/// Whose face a camera sees: the operator's (at the operator's display) or the subject's.
///
/// Thread: value type, Sendable.
public enum FacingViewer: String, Sendable, Equatable, CaseIterable {
    case theOperator = "operator"
    case theSubject = "subject"

    public static func parse(_ text: String, option: String) throws(DuoError) -> FacingViewer {
        guard let v = FacingViewer(rawValue: text) else {
            throw .usage(.text("%s %s: give operator or subject (whose face the camera sees)", option, text))
        }
        return v
    }
}

/// What a run does when the camera on the air is lost and no other can take over (`--camera-loss`):
/// finalise the take and wait for it, re-attaching it when it returns (the documents' interruption), or
/// end the run with exit 70 (CI, which must fail rather than wait).
///
/// Thread: value type, Sendable.
public enum CameraLossPolicy: String, OptionWord, Sendable, CaseIterable {
    case wait, exit

    public static func unknownWord(_ text: String) -> String {
        tr("--camera-loss %s: give wait (finalise the take, wait for the camera) or exit (end the run, exit 70)", text)
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
