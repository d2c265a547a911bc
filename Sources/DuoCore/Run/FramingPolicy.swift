/// A face the detector found, as a fraction of the camera frame (0...1 each way), in the UNMIRRORED
/// camera picture (what the camera and the take see, not the mirrored self-view).
///
/// Thread: value type, Sendable.
public struct FaceBox: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    /// Where the eyes are, roughly: a frontal face box has them about 40 % down from its top.
    public var eyeY: Double { y + height * 0.4 }

    /// A detector's box in pixels of a `frameWidth`×`frameHeight` picture, as fractions (clamped to it).
    public static func normalised(x: Int, y: Int, width: Int, height: Int, frameWidth: Int, frameHeight: Int) -> FaceBox {
        let fw = Double(max(1, frameWidth)), fh = Double(max(1, frameHeight))
        func clamp(_ v: Double) -> Double { min(1, max(0, v)) }
        let x0 = clamp(Double(x) / fw), y0 = clamp(Double(y) / fh)
        return FaceBox(x: x0, y: y0, width: clamp(Double(x + width) / fw) - x0, height: clamp(Double(y + height) / fh) - y0)
    }
}

/// `--framing off|single|interview`: no hints, one person hinted to the centre of the composition, or two
/// people each hinted to the nearer of the two zones on the composition's vertical thirds.
///
/// Thread: value type, Sendable.
public enum FramingMode: String, OptionWord, Sendable, Hashable, CaseIterable {
    case off, single, interview

    /// The mode in words the HUD shows (marked for translation; `--framing` and events keep the raw value).
    public var words: String {
        switch self {
        case .off: N_("off")
        case .single: N_("single")
        case .interview: N_("interview")
        }
    }

    public static func unknownWord(_ text: String) -> String {
        "--framing \(text): expected off, single (one person) or interview (two people on the thirds)"
    }
}

/// One instruction to the person in the picture. The words are fixed here (a hint carries no free text, so
/// nothing private can ride on it to the subject view).
///
/// Thread: value type, Sendable.
public enum FramingHint: String, Sendable, Hashable, CaseIterable {
    case moveLeft = "move left"
    case moveRight = "move right"
    case closer = "a little closer"
    case stepBack = "step back"
    /// The eyes sit far above the top third: the camera is below them, looking up.
    case raiseCamera = "raise the camera"
    /// The eyes sit far below the top third: the camera is above them, looking down.
    case lowerCamera = "lower the camera"
    case noOne = "no one in frame"

    /// The words as events carry them (English, stable), marked for translation.
    public var text: String {
        switch self {
        case .moveLeft: N_("move left")
        case .moveRight: N_("move right")
        case .closer: N_("a little closer")
        case .stepBack: N_("step back")
        case .raiseCamera: N_("raise the camera")
        case .lowerCamera: N_("lower the camera")
        case .noOne: N_("no one in frame")
        }
    }

    /// The words in `language` (the subject's on the subject view, the operator's on the HUD).
    public func text(in language: Translator) -> String { language.text(text) }
}

/// Which of two people a hint is for, as they see themselves in the mirrored self-view (interview mode):
/// the person on the LEFT of the unmirrored camera picture stands on the RIGHT of the self-view.
///
/// Thread: value type, Sendable.
public enum FramingPerson: String, Sendable, Hashable {
    case left, right
}

/// One hint on screen, for one person (nil in single mode, and for "no one in frame").
///
/// Thread: value type, Sendable.
public struct PersonHint: Sendable, Hashable {
    public let person: FramingPerson?
    public let hint: FramingHint
    public init(person: FramingPerson?, hint: FramingHint) { self.person = person; self.hint = hint }

    /// "move left", or "right: move left" in interview mode.
    public var text: String { text(in: .english) }

    /// The same in `language`: which person the hint is for is a label before the hint's words.
    public func text(in language: Translator) -> String {
        switch person {
        case nil: hint.text(in: language)
        // The person on the left / right of the subject's mirrored self-view, then the hint's words.
        case .left?: language.text("left: %s", [hint.text(in: language)])
        case .right?: language.text("right: %s", [hint.text(in: language)])
        }
    }
}

/// What the policy decided: the hints now shown (empty: the framing is good, or nothing is known yet),
/// the faces they were decided from, and why they changed.
///
/// Thread: value type, Sendable.
public struct FramingDecision: Sendable, Hashable {
    public let hints: [PersonHint]
    public let faces: [FaceBox]
    public let reason: String
    public init(hints: [PersonHint], faces: [FaceBox], reason: String) { self.hints = hints; self.faces = faces; self.reason = reason }
    /// The hints as one line ("move left", "left: step back · right: move right"); nil when none.
    public var text: String? { hints.isEmpty ? nil : hints.map(\.text).joined(separator: " · ") }
}

/// Turns face boxes from the detector into framing hints against the safe frame and the composition,
/// the way `AccessoryAvailability` and `FrameFlow` are written: facts in (boxes, time), decisions with
/// their reasons out, no I/O, time a parameter (nanoseconds of any clock that only moves forward).
///
/// **Directions are the subject's own, as they see themselves in the mirrored self-view.** The boxes are
/// in the unmirrored camera picture. The camera faces the subject, so a face on the LEFT of the camera
/// picture is off to the subject's own RIGHT (and appears on the RIGHT of the mirrored self-view): the hint
/// is "move left", and moving to their own left brings them to the centre in the camera and in the
/// self-view alike. Equally: a face on the LEFT of the (mirrored) self-view, which is the RIGHT of the
/// camera picture, gets "move right".
///
/// Targets, as fractions of the composition (the `--aspect` crop; the whole frame without one):
/// - across: the centre (single), or the nearer vertical third (interview: the two faces, ordered left
///   to right, take the left and the right third); off by more than `enterOffset` of the width starts
///   "move left/right", back within `leaveOffset` ends it;
/// - size: a face less than `closerBelow` of the height tall is "a little closer", more than
///   `stepBackAbove` (or reaching outside the action-safe area) is "step back"; each with a margin to end;
/// - height: the eyes more than `eyeEnter` of the height above or below the top third line are "raise the
///   camera" or "lower the camera"; within `eyeLeave` it ends;
/// - nobody: no face for `absentAfter` (2 s) is "no one in frame".
/// One hint per person, in that order of importance: across, size, height.
///
/// Hysteresis in time as well as space: a new hint must be seen for `confirmFor` before it is shown, and
/// a shown hint never changes within `holdFor` (1 s) of its last change, so a face standing on a boundary
/// never makes the hint flicker.
///
/// Thread: value type; owned by the run director's actor.
public struct FramingPolicy: Sendable, Equatable {
    public let mode: FramingMode
    /// The composition (the recorded crop) as fractions of the camera frame.
    public let composition: FrameRect
    public let actionSafe: FrameRect

    public var enterOffset = 0.12
    public var leaveOffset = 0.06
    public var closerBelow = 0.16
    public var closerLeave = 0.19
    public var stepBackAbove = 0.55
    public var stepBackLeave = 0.5
    public var eyeEnter = 0.17
    public var eyeLeave = 0.1
    public var absentAfter: Int64 = 2_000_000_000
    public var confirmFor: Int64 = 200_000_000
    public var holdFor: Int64 = 1_000_000_000

    /// The hints shown now.
    public private(set) var shown: [PersonHint] = []
    /// The latest faces seen.
    public private(set) var faces: [FaceBox] = []
    private var lastChangeAt: Int64?
    private var candidate: [PersonHint]?
    private var candidateSince: Int64 = 0
    private var absentSince: Int64?

    /// `aspect`: the composition (`--aspect`), nil for the whole frame; `frameWidth`×`frameHeight`: the
    /// camera's picture, for where the crop falls.
    public init(mode: FramingMode, aspect: AspectRatio?, frameWidth: Int, frameHeight: Int) {
        self.mode = mode
        let w = Double(max(1, frameWidth)), h = Double(max(1, frameHeight))
        let safe = SafeFrame(aspect: aspect ?? AspectRatio(frameWidth, frameHeight), frameWidth: frameWidth, frameHeight: frameHeight)
        func unit(_ r: FrameRect) -> FrameRect { FrameRect(x: r.x / w, y: r.y / h, width: r.width / w, height: r.height / h) }
        composition = unit(safe.composition)
        actionSafe = unit(safe.actionSafe)
    }

    /// The faces of one detector frame at `now` (an empty list: no one). Returns a decision when the hints
    /// shown change.
    public mutating func observe(_ boxes: [FaceBox], at now: Int64) -> FramingDecision? {
        guard mode != .off else { return nil }
        faces = boxes.sorted { $0.midX < $1.midX }
        if faces.isEmpty {
            if absentSince == nil { absentSince = now }
        } else {
            absentSince = nil
        }
        return update(at: now)
    }

    /// Time passed with no new detector frame: "no one in frame" can become due, and a confirmed hint shown.
    public mutating func update(at now: Int64) -> FramingDecision? {
        guard mode != .off else { return nil }
        let (wanted, why) = desired(at: now)
        guard wanted != shown else {
            candidate = nil
            return nil
        }
        if candidate != wanted {
            candidate = wanted
            candidateSince = now
        }
        // "No one in frame" has waited its two seconds already; any other hint is confirmed first.
        let confirmed = wanted == [PersonHint(person: nil, hint: .noOne)] || now - candidateSince >= confirmFor
        let held = lastChangeAt.map { now - $0 < holdFor } ?? false
        guard confirmed, !held else { return nil }
        shown = wanted
        candidate = nil
        lastChangeAt = now
        return FramingDecision(hints: shown, faces: faces, reason: why)
    }

    /// The hints the faces call for now (with spatial hysteresis against the ones shown), and why.
    private func desired(at now: Int64) -> ([PersonHint], String) {
        if faces.isEmpty {
            if let since = absentSince, now - since >= absentAfter {
                return ([PersonHint(person: nil, hint: .noOne)], "no face for \(absentAfter / 1_000_000) ms")
            }
            // Not yet two seconds: what was shown stays (a missed detection is not an empty room).
            return (shown, "no face yet")
        }
        switch mode {
        case .off: return ([], "off")
        case .single:
            // The largest face is the subject's.
            let face = faces.max { $0.width * $0.height < $1.width * $1.height }!
            let current = shown.first { $0.person == nil }?.hint
            let (hint, why) = hint(for: face, targetX: composition.midX, current: current)
            return (hint.map { [PersonHint(person: nil, hint: $0)] } ?? [], why)
        case .interview:
            let thirds = [composition.x + composition.width / 3, composition.x + composition.width * 2 / 3]
            // Left to right in the camera picture; two faces take the two thirds, one the nearer.
            let people = faces.count >= 2 ? [faces.first!, faces.last!] : faces
            var hints: [PersonHint] = []
            var reasons: [String] = []
            for (index, face) in people.enumerated() {
                let zone = people.count >= 2 ? index : (abs(face.midX - thirds[0]) <= abs(face.midX - thirds[1]) ? 0 : 1)
                // Zone 0 is the left of the camera picture: the right of the mirrored self-view.
                let person: FramingPerson = zone == 0 ? .right : .left
                let current = shown.first { $0.person == person }?.hint
                let (hint, why) = hint(for: face, targetX: thirds[zone], current: current)
                if let hint { hints.append(PersonHint(person: person, hint: hint)) }
                reasons.append("\(person.rawValue): \(why)")
            }
            // The person on the left of the self-view first, as they read it.
            hints.sort { ($0.person == .left ? 0 : 1) < ($1.person == .left ? 0 : 1) }
            return (hints, reasons.joined(separator: "; "))
        }
    }

    /// One face's hint against a horizontal target, keeping `current` until it is well and truly fixed.
    private func hint(for face: FaceBox, targetX: Double, current: FramingHint?) -> (FramingHint?, String) {
        let c = composition
        let offset = (face.midX - targetX) / c.width
        let leftThreshold = current == .moveLeft ? leaveOffset : enterOffset
        let rightThreshold = current == .moveRight ? leaveOffset : enterOffset
        // Left in the camera picture is the subject's own right: they move left (see the type's comment).
        if offset < -leftThreshold { return (.moveLeft, String(format: "face %.0f %% of the width left of its target in the camera picture", -offset * 100)) }
        if offset > rightThreshold { return (.moveRight, String(format: "face %.0f %% of the width right of its target in the camera picture", offset * 100)) }
        let size = face.height / c.height
        let outside = face.x < actionSafe.minX || face.midX + face.width / 2 > actionSafe.maxX
            || face.y < actionSafe.minY || face.y + face.height > actionSafe.maxY
        if size > (current == .stepBack ? stepBackLeave : stepBackAbove) || (outside && size > stepBackLeave * 0.8) {
            return (.stepBack, String(format: "face %.0f %% of the height", size * 100))
        }
        if size < (current == .closer ? closerLeave : closerBelow) { return (.closer, String(format: "face %.0f %% of the height", size * 100)) }
        let third = c.y + c.height / 3
        let eyes = (face.eyeY - third) / c.height
        if eyes < -(current == .raiseCamera ? eyeLeave : eyeEnter) {
            return (.raiseCamera, String(format: "eyes %.0f %% of the height above the top third", -eyes * 100))
        }
        if eyes > (current == .lowerCamera ? eyeLeave : eyeEnter) {
            return (.lowerCamera, String(format: "eyes %.0f %% of the height below the top third", eyes * 100))
        }
        return (nil, "framed")
    }
}
