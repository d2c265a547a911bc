/// Which of the framing branch's two detectors looked at a frame (Pipelines/framing.gst).
///
/// Thread: value type, Sendable.
public enum FaceDetectorPass: Sendable, Hashable {
    /// `framing_detector`: five frames a second on a small copy with coarse steps; sure of faces from
    /// about a quarter of the picture's height.
    case quick
    /// `framing_fine_detector`: one frame a second on a larger copy with fine steps; finds faces from
    /// about 8 % of the height.
    case fine

    /// The detector whose element is named `name` (a `facedetect` message's source); nil for another.
    public static func named(_ name: String) -> FaceDetectorPass? {
        switch name {
        case GraphElement.framingDetector.rawValue: .quick
        case GraphElement.framingFineDetector.rawValue: .fine
        default: nil
        }
    }
}

/// The faces of the two detectors as one steady stream for `FramingPolicy`: one list each time the quick
/// detector looked at a frame (five a second, as before), holding the small faces the fine detector
/// found (once a second) until it looks again.
///
/// - The quick detector's faces are taken as they are: it is the one that follows a face moving.
/// - The fine detector's faces SMALLER than `quickFrom` of the height are added to each quick list until
///   the fine detector's next frame, unless a quick face covers them (the same face, seen by both). Its
///   larger faces are the quick detector's business (they would be a frame or more behind it, a second
///   face where the person was).
/// - A fine frame with no face keeps the small faces of the one before it once (one missed frame is not
///   an empty room); none is held longer than `holdFor`.
/// - Faces of one list that overlap (the fine detector's fine steps can give one face two boxes) are one
///   face, the larger box.
///
/// Thread: value type; owned by the capture session's actor.
public struct FaceSightings: Sendable, Equatable {
    /// Faces at least this tall (a fraction of the picture) are left to the quick detector.
    public var quickFrom = 0.25
    /// The longest a fine face is held without the fine detector seeing it again (nanoseconds).
    public var holdFor: Int64 = 2_500_000_000

    private var held: [FaceBox] = []
    private var heldAt: Int64 = 0
    private var missed = 0

    public init() {}

    /// One detector frame's faces at `now`. Returns the faces to hand to the policy (after a quick
    /// frame), or nil (after a fine frame: its faces ride on the next quick one).
    public mutating func saw(_ boxes: [FaceBox], by pass: FaceDetectorPass, at now: Int64) -> [FaceBox]? {
        switch pass {
        case .fine:
            let small = Self.distinct(boxes.filter { $0.height < quickFrom })
            if small.isEmpty && !held.isEmpty && missed == 0 {
                missed = 1
            } else {
                held = small
                heldAt = now
                missed = 0
            }
            return nil
        case .quick:
            var faces = Self.distinct(boxes)
            if now - heldAt <= holdFor {
                faces += held.filter { small in !faces.contains { $0.overlaps(small) } }
            }
            return faces
        }
    }

    /// `boxes` with each group of overlapping boxes as its largest.
    static func distinct(_ boxes: [FaceBox]) -> [FaceBox] {
        var kept: [FaceBox] = []
        for box in boxes.sorted(by: { $0.width * $0.height > $1.width * $1.height }) where !kept.contains(where: { $0.overlaps(box) }) {
            kept.append(box)
        }
        return kept
    }
}

extension FaceBox {
    /// Whether either box's centre lies inside the other (one face, two boxes).
    public func overlaps(_ other: FaceBox) -> Bool {
        func inside(_ a: FaceBox, _ b: FaceBox) -> Bool {
            a.midX >= b.x && a.midX <= b.x + b.width && a.midY >= b.y && a.midY <= b.y + b.height
        }
        return inside(self, other) || inside(other, self)
    }
}
