import XCTest
@testable import DuoCore

/// The subject view's layout by the lens: the reading line as near the lens as the lines around it allow,
/// the self-view in the far corner, never under the text; and the options, cues and commands that set them.
final class SelfViewLayoutTests: XCTestCase {
    private func geometry(_ lens: LensPosition?, width: Int = 1920, height: Int = 1080, selfView: SelfViewSize = .small,
                          profile: DisplayProfile = .plain) -> SubjectGeometry {
        var p = profile
        p.lens = lens
        let size = PictureShape(width: 1280, height: 720).selfViewSize(selfView, monitorWidth: width, monitorHeight: height)
        // The default text size of such a monitor (48 px, less on small ones), 1.2 of it per line.
        let lineHeight = min(48, Double(height) / 20) * 1.2
        return SubjectGeometry(profile: p, width: width, height: height, lineHeight: lineHeight, maximumPanelWidth: lineHeight * 25,
                               linesAbove: 2, linesBelow: 4, selfView: size)
    }

    func testTheReadingLineSitsAsNearTheLensAsTheLayoutAllows() {
        for (width, height) in [(1920, 1080), (3840, 2160), (1080, 1920), (640, 360)] {
            let w = Double(width), h = Double(height)
            for lens in LensPosition.allCases {
                let g = geometry(lens, width: width, height: height)
                let label = "\(lens.rawValue) at \(width)x\(height)"
                // Lens points: the top edge's middle or corner, the bottom edge, the screen's centre (behind glass).
                let lensPoint: (x: Double, y: Double) = switch lens {
                case .top: (w / 2, 0)
                case .topLeft: (0, 0)
                case .topRight: (w, 0)
                case .bottom: (w / 2, h)
                case .behind: (w / 2, h / 2)
                }
                switch lens {
                case .top, .topLeft, .topRight:
                    // Only the two lines kept above the reading line are between it and the top edge.
                    XCTAssertEqual(g.panel.minY, g.textArea.minY, accuracy: 2, label)
                    XCTAssertLessThan(g.readingLineY, h / 3, label)
                case .bottom:
                    XCTAssertEqual(g.panel.maxY, g.textArea.maxY, accuracy: 2, label)
                    XCTAssertGreaterThan(g.readingLineY, h * 2 / 3, label)
                case .behind:
                    XCTAssertEqual(g.readingLineY, h / 2, accuracy: 1, label)
                }
                // Horizontally, a corner lens takes the text to its side.
                switch lens {
                case .topLeft: XCTAssertEqual(g.panel.minX, g.textArea.minX, accuracy: 2, label)
                case .topRight: XCTAssertEqual(g.panel.maxX, g.textArea.maxX, accuracy: 2, label)
                default: XCTAssertEqual(g.panel.midX, w / 2, accuracy: 2, label)
                }
                // No other lens would put the reading line nearer this one.
                let distance = { (g: SubjectGeometry) in abs(g.readingLineY - lensPoint.y) }
                for other in LensPosition.allCases where other != lens {
                    XCTAssertLessThanOrEqual(distance(g), distance(geometry(other, width: width, height: height)) + 1,
                                             "\(label): the layout for \(other.rawValue) reads nearer to this lens")
                }
            }
        }
    }

    func testTheSelfViewGoesToTheFarSideAndNeverUnderTheText() throws {
        for (width, height) in [(1920, 1080), (3840, 2160), (1080, 1920), (640, 360)] {
            let w = Double(width), h = Double(height)
            for lens in LensPosition.allCases {
                let g = geometry(lens, width: width, height: height)
                let label = "\(lens.rawValue) at \(width)x\(height)"
                let view = try XCTUnwrap(g.selfView, label)
                switch lens {
                case .top, .topLeft, .behind: XCTAssertTrue(view.midY > h / 2 && view.midX > w / 2, "\(label): \(view)")
                case .topRight: XCTAssertTrue(view.midY > h / 2 && view.midX < w / 2, "\(label): \(view)")
                case .bottom: XCTAssertTrue(view.midY < h / 2, "\(label): \(view)")
                }
                // A sixth of the width, the camera's shape.
                XCTAssertEqual(view.width, (w / 6).rounded(.down), accuracy: 2, label)
                XCTAssertEqual(view.width / view.height, 16.0 / 9, accuracy: 0.08, label)
                XCTAssertFalse(view.intersects(g.panel), "\(label): the self-view \(view) is under the text panel \(g.panel)")
                XCTAssertTrue(view.minX >= g.content.minX && view.maxX <= g.content.maxX
                              && view.minY >= g.content.minY && view.maxY <= g.content.maxY, label)
            }
        }
        XCTAssertEqual(geometry(.top, selfView: .large).selfView?.width ?? 0, 640, accuracy: 2, "large: a third of the width")
        XCTAssertNil(geometry(.top, selfView: .off).selfView)
        // A monitor too small for it shows none (and never a picture of no pixels).
        XCTAssertNil(geometry(.top, width: 16, height: 16).selfView)
        XCTAssertNotNil(geometry(.top, width: 64, height: 40).selfView)
    }

    func testAMirroredViewFlipsTheLens() {
        let h = MirrorFlags(horizontal: true, vertical: false), v = MirrorFlags(horizontal: false, vertical: true)
        XCTAssertEqual(LensPosition.topLeft.mirrored(h), .topRight)
        XCTAssertEqual(LensPosition.top.mirrored(v), .bottom)
        XCTAssertEqual(LensPosition.behind.mirrored(MirrorFlags(horizontal: true, vertical: true)), .behind)
        var p = DisplayProfile.plain
        p.lens = .topLeft
        XCTAssertEqual(p.mirrored(h).lens, .topRight)
    }

    func testLensAndSelfViewOptions() throws {
        func setup(_ args: [String]) throws -> SubjectSetup {
            var s = SubjectSetup()
            var reader = OptionReader(args, help: "see --help")
            while let arg = reader.next() {
                let applied = try s.apply(arg, from: &reader)
                XCTAssertTrue(applied, arg)
            }
            return s
        }
        XCTAssertEqual(try setup([]).resolvedLens(profile: .plain), .top)
        XCTAssertEqual(try setup([]).selfView, .small)
        XCTAssertEqual(try setup(["--self-view", "large"]).selfView, .large)
        XCTAssertEqual(try setup(["--self-view", "off"]).selfView, .off)
        // A beam-splitter mirrors the text as the glass needs, unless --mirror says otherwise.
        let behind = try setup(["--lens", "behind"])
        XCTAssertEqual(behind.resolvedMirror(profile: .plain), MirrorFlags(horizontal: true, vertical: false))
        XCTAssertEqual(try setup(["--lens", "behind", "--mirror", "none"]).resolvedMirror(profile: .plain), .none)
        XCTAssertEqual(try setup(["--lens", "top"]).resolvedMirror(profile: .plain), .none)
        // The profile's lens, else its camera occlusion's place; --lens overrides both.
        let bottomCamera = DisplayProfile(insets: .init(), occlusions: [.init(kind: .camera, x: 0, y: 0.82, width: 0.16, height: 0.18)],
                                          readingLine: nil)
        XCTAssertEqual(try setup([]).resolvedLens(profile: bottomCamera), .bottom)
        XCTAssertEqual(try setup(["--lens", "top-right"]).resolvedLens(profile: bottomCamera), .topRight)
        let json = try DisplayProfile.parse(data: Data(#"{"lens": "top-left"}"#.utf8))
        XCTAssertEqual(json.lens, .topLeft)

        for (args, message) in [(["--lens", "side"], "--lens top, top-left, top-right, bottom or behind"),
                                (["--self-view", "huge"], "--self-view small, large or off")] {
            XCTAssertThrowsError(try setup(args)) { XCTAssertTrue("\($0)".contains(message), "\($0)") }
        }
        XCTAssertThrowsError(try DisplayProfile.parse(data: Data(#"{"lens": "left"}"#.utf8))) {
            XCTAssertTrue("\($0)".contains("lens top, top-left"), "\($0)")
        }
    }

    func testSelfViewCommandAndToggle() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"self-view"}"#), .selfView(nil))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"self-view","size":"large"}"#), .selfView(.large))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"self-view","size":"off"}"#), .selfView(.off))
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"self-view","size":"huge"}"#)) {
            XCTAssertTrue("\($0)".contains("\"small\", \"large\" or \"off\""), "\($0)")
        }
        XCTAssertEqual(SelfViewSize.small.toggled(shown: .small), .off)
        XCTAssertEqual(SelfViewSize.off.toggled(shown: .large), .large)
        XCTAssertEqual(SelfViewSize.off.toggled(shown: .off), .small)
    }

    /// The self-view is part of the whitelisted model only for the views that show it, and the safe frame
    /// is always there: the composition's crop, or the whole picture without --aspect.
    func testTheViewModelAlwaysHasASafeFrameAndTheSelfViewOnlyWhereShown() {
        var state = PrompterSessionState(accessory: .teleprompter)
        state.selfView = .small
        state.picture = PictureShape(width: 1280, height: 720)
        XCTAssertEqual(SubjectViewModel.whitelisted(from: state).safeFrameAspect, AspectRatio(16, 9))
        XCTAssertEqual(SubjectViewModel.whitelisted(from: state).selfView, .small)
        state.aspect = AspectRatio(9, 16)
        XCTAssertEqual(SubjectViewModel.whitelisted(from: state).safeFrameAspect, AspectRatio(9, 16))
        state.accessory = .preview
        XCTAssertEqual(SubjectViewModel.whitelisted(from: state).selfView, .off)
        state.accessory = .off
        XCTAssertNil(SubjectViewModel.whitelisted(from: state).safeFrameAspect)
    }

    // MARK: Pose cues

    func testPoseCuesAreTakenOutOfTheTextAtTheirWord() throws {
        let text = """
        # Start
        [POSE: look at the lens]
        One two three. [[note: private words here]] Four
        [pose: turn three-quarters left] five six.

        ## Next
        Seven [POSE] eight.
        """
        let parsed = try ScriptParser.parse(bytes: Array(text.utf8), format: .markdown, name: "poses.md")
        let cues = parsed.subject.poseCues
        XCTAssertEqual(cues.map(\.text), ["look at the lens", "turn three-quarters left", ""])
        XCTAssertEqual(cues.map(\.wordPosition), [1, 5, 9])
        XCTAssertEqual(cues.map(\.pictogram), [.lens, .turnLeft, .head])
        XCTAssertEqual(parsed.subject.words, ["Start", "One", "two", "three.", "Four", "five", "six.", "Next", "Seven", "eight."])
        XCTAssertFalse(String(describing: parsed.subject).contains("POSE"), "the cue's markup is not prompt text")
        XCTAssertFalse(String(describing: parsed.subject).contains("private"))
        // On a heading's line, the #s are no word.
        let heading = try ScriptParser.parse(bytes: Array("# Big title [POSE: chin up]\nWords here.".utf8), format: .markdown)
        XCTAssertEqual(heading.subject.poseCues.map(\.wordPosition), [2])
        XCTAssertEqual(heading.subject.words, ["Big", "title", "Words", "here."])
        // A note inside a cue is removed before the cue is read.
        let noted = try ScriptParser.parse(bytes: Array("[POSE: chin up [[note: secret]]]\nWords.".utf8), format: .markdown)
        XCTAssertEqual(noted.subject.poseCues.map(\.text), ["chin up"])
        XCTAssertEqual(noted.operatorNotes.map(\.text), ["secret"])
        // "[poser]" is text, and a cue is at most 60 characters.
        let poser = try ScriptParser.parse(bytes: Array("The [poser] said \("x".padding(toLength: 10, withPad: "x", startingAt: 0)).\n[POSE: \(String(repeating: "long ", count: 20))]".utf8), format: .plainText)
        XCTAssertTrue(poser.subject.words.contains("[poser]"))
        XCTAssertEqual(poser.subject.poseCues.first?.text.count, PoseCue.maximumLength)
    }

    func testAPoseShowsUntilTheNextCueOrMarker() throws {
        let parsed = try ScriptParser.parse(bytes: Array("[POSE: look at the lens]\nOne two three four.\n\n# Part\nFive six [POSE: turn right] seven eight [POSE] nine.".utf8),
                                            format: .markdown)
        let cues = parsed.subject.poseCues
        let units = cues.map { Double($0.wordPosition) }
        let markers = parsed.subject.markerWordPositions
        func shown(_ p: Double) -> String? { PoseCue.active(at: p, cueUnits: units, cues: cues, markerUnits: markers).map { cues[$0].text } }
        XCTAssertEqual(shown(0), "look at the lens")
        XCTAssertEqual(shown(3.5), "look at the lens")
        XCTAssertNil(shown(4.5), "the heading ends it")
        XCTAssertNil(shown(6))
        XCTAssertEqual(shown(7.2), "turn right")
        XCTAssertNil(shown(9.5), "[POSE] ends it")
    }
}
