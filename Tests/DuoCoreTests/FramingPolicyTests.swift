import DuoCore
import XCTest

private let ms: Int64 = 1_000_000

/// Framing hints from face boxes: the subject's own directions (as in the mirrored self-view), size and
/// height against the composition, "no one in frame" after two seconds, and hysteresis in space and time
/// (no change within a second around a boundary). Time is a parameter: nothing here sleeps.
final class FramingPolicyTests: XCTestCase {


    /// A well-sized face (30 % of the height) centred at `x` across, eyes on the top third.
    static func face(x: Double, height: Double = 0.3, eyeY: Double = 1.0 / 3) -> FaceBox {
        let width = height * 9 / 16
        return FaceBox(x: x - width / 2, y: eyeY - height * 0.4, width: width, height: height)
    }

    static func policy(_ mode: FramingMode = .single, aspect: AspectRatio? = nil) -> FramingPolicy {
        FramingPolicy(mode: mode, aspect: aspect, frameWidth: 1920, frameHeight: 1080)
    }

    /// Feeds the same boxes every 200 ms (the detector's 5 fps) from `from` to `to`; returns the shown
    /// hint texts at each change, with its time.
    static func feed(_ p: inout FramingPolicy, _ boxes: [FaceBox], from: Int64, to: Int64) -> [(Int64, String?)] {
        var changes: [(Int64, String?)] = []
        var t = from
        while t <= to {
            if let d = p.observe(boxes, at: t) { changes.append((t, d.text)) }
            t += 200 * ms
        }
        return changes
    }

    func testAFaceLeftInTheCameraPictureIsTheSubjectsRightSoTheyMoveLeft() {
        // The camera picture is unmirrored: its left is the subject's own right (their mirrored self-view
        // shows them on the right). They move to their own left.
        var p = Self.policy()
        XCTAssertEqual(Self.feed(&p, [Self.face(x: 0.2)], from: 0, to: 1000 * ms).last?.1, "move left")
        var q = Self.policy()
        // Left in the self-view is right in the camera picture: "move right".
        XCTAssertEqual(Self.feed(&q, [Self.face(x: 0.8)], from: 0, to: 1000 * ms).last?.1, "move right")
    }

    func testACentredWellSizedFaceGetsNoHint() {
        var p = Self.policy()
        XCTAssertTrue(Self.feed(&p, [Self.face(x: 0.5)], from: 0, to: 5000 * ms).isEmpty)
        XCTAssertEqual(p.shown, [])
        XCTAssertEqual(p.faces.count, 1)
    }

    func testSizeAndHeightHints() {
        var small = Self.policy()
        XCTAssertEqual(Self.feed(&small, [Self.face(x: 0.5, height: 0.1)], from: 0, to: 1000 * ms).last?.1, "a little closer")
        var large = Self.policy()
        XCTAssertEqual(Self.feed(&large, [Self.face(x: 0.5, height: 0.6, eyeY: 0.4)], from: 0, to: 1000 * ms).last?.1, "step back")
        var high = Self.policy()
        XCTAssertEqual(Self.feed(&high, [Self.face(x: 0.5, eyeY: 0.12)], from: 0, to: 1000 * ms).last?.1, "raise the camera")
        var low = Self.policy()
        XCTAssertEqual(Self.feed(&low, [Self.face(x: 0.5, eyeY: 0.6)], from: 0, to: 1000 * ms).last?.1, "lower the camera")
    }

    func testTheCompositionNotTheFrameIsTheTarget() {
        // A 9:16 composition of a 16:9 frame is its middle 0.316 of the width: a face at 0.45 is off its
        // centre by 16 % of it (a hint), though within 12 % of the whole frame's.
        var p = Self.policy(aspect: AspectRatio(9, 16))
        XCTAssertEqual(Self.feed(&p, [Self.face(x: 0.45, height: 0.3)], from: 0, to: 1000 * ms).last?.1, "move left")
        var whole = Self.policy()
        XCTAssertTrue(Self.feed(&whole, [Self.face(x: 0.45, height: 0.3)], from: 0, to: 1000 * ms).isEmpty)
    }

    func testNoOneInFrameOnlyAfterTwoSecondsWithoutAFace() {
        var p = Self.policy()
        _ = Self.feed(&p, [Self.face(x: 0.5)], from: 0, to: 1000 * ms)
        var changes: [(Int64, String?)] = []
        var t = 1200 * ms
        while t <= 5000 * ms {
            if let d = p.observe([], at: t) { changes.append((t, d.text)) }
            t += 200 * ms
        }
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(changes.first?.1, "no one in frame")
        XCTAssertEqual(changes.first?.0, 3200 * ms, "two seconds after the first frame without a face")
        // Time alone (no detector frame) also brings it: update() is called by the director's tick.
        var q = Self.policy()
        XCTAssertNil(q.observe([], at: 0))
        XCTAssertNil(q.update(at: 1999 * ms))
        XCTAssertEqual(q.update(at: 2000 * ms)?.text, "no one in frame")
        // A face back ends it (once confirmed).
        XCTAssertEqual(Self.feed(&q, [Self.face(x: 0.5)], from: 3200 * ms, to: 4200 * ms).last?.1, nil)
        XCTAssertEqual(q.shown, [])
    }

    func testAFaceOnTheBoundaryNeverChangesTheHintWithinASecond() {
        // The face alternates every detector frame between both sides of the "move left" threshold (12 %
        // of the width off centre) and far right: whatever it does, shown hints change at most once a second.
        var p = Self.policy()
        var changes: [Int64] = []
        var t: Int64 = 0
        var i = 0
        while t <= 10_000 * ms {
            // Each position for two detector frames, so each is a confirmed candidate of its own.
            let x = [0.5 - 0.13, 0.5 - 0.11, 0.8, 0.5][(i / 2) % 4]
            if p.observe([Self.face(x: x)], at: t) != nil { changes.append(t) }
            t += 200 * ms
            i += 1
        }
        XCTAssertFalse(changes.isEmpty)
        for (a, b) in zip(changes, changes.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b - a, 1000 * ms, "the hint changed at \(a) and again at \(b)")
        }
    }

    func testSpatialHysteresisKeepsAHintUntilTheFaceIsWellInside() {
        var p = Self.policy()
        XCTAssertEqual(Self.feed(&p, [Self.face(x: 0.3)], from: 0, to: 1000 * ms).last?.1, "move left")
        // Just inside the entry threshold (10 % off centre) is not yet fixed: the hint stands.
        XCTAssertTrue(Self.feed(&p, [Self.face(x: 0.4)], from: 1200 * ms, to: 4000 * ms).isEmpty)
        XCTAssertEqual(p.shown.first?.hint, .moveLeft)
        // Within the leave threshold (4 %): it goes.
        XCTAssertEqual(Self.feed(&p, [Self.face(x: 0.46)], from: 4200 * ms, to: 6000 * ms).last?.1, nil)
        XCTAssertEqual(p.shown, [])
        // And a face standing at 10 % off centre never starts one.
        var q = Self.policy()
        XCTAssertTrue(Self.feed(&q, [Self.face(x: 0.4)], from: 0, to: 5000 * ms).isEmpty)
    }

    func testAHintIsConfirmedBeforeItIsShownButQuickly() {
        // One stray detector frame shows nothing; a steady one is shown within 200 ms (two frames).
        var p = Self.policy()
        XCTAssertNil(p.observe([Self.face(x: 0.2)], at: 0))
        XCTAssertNil(p.observe([Self.face(x: 0.5)], at: 200 * ms))
        XCTAssertNil(p.observe([Self.face(x: 0.5)], at: 400 * ms))
        XCTAssertNil(p.observe([Self.face(x: 0.2)], at: 600 * ms))
        XCTAssertEqual(p.observe([Self.face(x: 0.2)], at: 800 * ms)?.text, "move left")
    }

    func testInterviewHintsEachFaceIntoItsNearestThird() {
        // Two faces near the edges: the one on the camera picture's left (the right of the self-view)
        // moves left (towards the left third of the picture); the other moves right.
        var p = Self.policy(.interview)
        let changes = Self.feed(&p, [Self.face(x: 0.85), Self.face(x: 0.15)], from: 0, to: 1000 * ms)
        XCTAssertEqual(changes.last?.1, "left: move right · right: move left")
        XCTAssertEqual(Set(p.shown.map(\.person)), [.left, .right])
        // Both on their thirds: no hints.
        var q = Self.policy(.interview)
        XCTAssertTrue(Self.feed(&q, [Self.face(x: 1.0 / 3), Self.face(x: 2.0 / 3)], from: 0, to: 3000 * ms).isEmpty)
        // Two faces at the centre: each is pulled out to its third.
        var r = Self.policy(.interview)
        XCTAssertEqual(Self.feed(&r, [Self.face(x: 0.47), Self.face(x: 0.53)], from: 0, to: 1000 * ms).last?.1,
                       "left: move left · right: move right")
        // One face alone near the left third of the picture: hinted to that third only.
        var s = Self.policy(.interview)
        XCTAssertEqual(Self.feed(&s, [Self.face(x: 0.15)], from: 0, to: 1000 * ms).last?.1, "right: move left")
    }

    func testOffGivesNothing() {
        var p = Self.policy(.off)
        XCTAssertNil(p.observe([Self.face(x: 0.1)], at: 0))
        XCTAssertNil(p.update(at: 10_000 * ms))
    }

    func testDetectorPixelsBecomeFractionsOfTheFrame() {
        let box = FaceBox.normalised(x: 120, y: 27, width: 96, height: 54, frameWidth: 480, frameHeight: 270)
        for (a, b) in zip([box.x, box.y, box.width, box.height], [0.25, 0.1, 0.2, 0.2]) { XCTAssertEqual(a, b, accuracy: 1e-9) }
        // Clamped to the frame.
        let edge = FaceBox.normalised(x: 440, y: 0, width: 80, height: 50, frameWidth: 480, frameHeight: 270)
        XCTAssertEqual(edge.x + edge.width, 1, accuracy: 1e-9)
    }

    func testModesParseWithAOneLineError() throws {
        XCTAssertEqual(try FramingMode.parse("interview"), .interview)
        XCTAssertThrowsError(try FramingMode.parse("double")) { error in
            XCTAssertTrue("\(error)".contains("off, single"), "\(error)")
        }
    }
}

/// The operator HUD's framing line and face boxes over the aspect-fit preview, mirrored with it.
final class FramingHudTests: XCTestCase {
    func testTheHudShowsTheHintAndTheFaceBoxWhereThePreviewShowsTheFace() {
        var hud = HudModel()
        hud.videoWidth = 1920
        hud.videoHeight = 1080
        XCTAssertFalse(hud.lines.contains { $0.hasPrefix("framing") }, "no line while hints are off")
        hud.framing = "single"
        hud.faces = [FaceBox(x: 0.1, y: 0.2, width: 0.2, height: 0.3)]
        XCTAssertTrue(hud.lines.contains("framing (single): good"), "\(hud.lines)")
        hud.framingHint = "move left"
        XCTAssertTrue(hud.toned.contains { $0.text == "framing (single): move left" && $0.tone == .attention }, "\(hud.lines)")
        // A 1920x1200 widget letterboxes the 16:9 preview: 60 px above and below.
        let box = hud.faceRects(width: 1920, height: 1200)[0]
        XCTAssertEqual(box.x, 192, accuracy: 0.01)
        XCTAssertEqual(box.y, 60 + 216, accuracy: 0.01)
        XCTAssertEqual(box.width, 384, accuracy: 0.01)
        // The preview mirrored: the face (and its box) on the other side.
        hud.previewMirrored = true
        XCTAssertEqual(hud.faceRects(width: 1920, height: 1200)[0].x, 1920 - 192 - 384, accuracy: 0.01)
    }
}

/// The face detector's failures are its branch's alone: hints stop, nothing else does.
final class FramingFaultTests: XCTestCase {
    func testTheDetectorsErrorsBelongToTheFramingBranch() {
        let routing = FaultRouting()
        XCTAssertEqual(routing.owner(of: GraphElement.framingDetector.rawValue, ancestors: [FaultRouting.framingBin]), .framing)
        // An element the pipeline file left unnamed, inside the branch's bin.
        XCTAssertEqual(routing.owner(of: "videoconvert7", ancestors: [FaultRouting.framingBin]), .framing)
        XCTAssertEqual(routing.owner(of: "videoconvert7"), .graph)
    }

    func testTheDetectorsBranchIsInTheElementContract() throws {
        XCTAssertEqual(Set(GraphElement.required(inFile: "framing")), ["framing_queue", "framing_detector", "framing_fine_detector", "framing_sink"])
        XCTAssertTrue(GraphElement.required(inFile: "camera-file").contains("{{name}}"))
    }
}
