import Foundation
import XCTest
import DuoCore
@testable import DuoRender

/// The whitelist: subject frames for two sessions that differ only in private fields are byte-identical.
/// Each session is rendered twice, the second time with every private field filled with sentinel text
/// (including the script's operator notes), through both the offline ARGB renderer and the live I420 path.
final class PrivacyTests: XCTestCase {
    private static let sentinel = "SENTINEL-PRIVATE-7f3a"

    private func script(_ name: String, notesReplacedBy replacement: String?) throws -> ParsedScript {
        var text = try String(contentsOfFile: Checkout.path("Assets/scripts/\(name)"), encoding: .utf8)
        if let replacement {
            let pattern = try NSRegularExpression(pattern: #"\[\[note:[^\]]*\]\]"#)
            text = pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                    withTemplate: "[[note: \(replacement) /home/\(replacement)/take.mkv]]")
        }
        return try ScriptParser.parse(bytes: Array(text.utf8), format: .forPath(name), name: name)
    }

    private func withSentinels(_ session: PrompterSessionState, scriptName: String?) throws -> PrompterSessionState {
        var s = session
        let x = PrivacyTests.sentinel
        s.scriptPath = "/home/\(x)/scripts/\(x).md"
        s.takeFilePath = "/media/\(x)/take-0001.mkv"
        s.cameraDeviceName = "\(x) HD Pro Webcam C920 (/dev/video0)"
        s.hostName = "\(x).studio.local"
        s.userName = x
        s.lastError = "\(x): encoder x264enc failed"
        s.droppedFrames = 987_654
        s.statsLine = "\(x) cpu 97% rtt 3 ms"
        if let scriptName { s.script = try script(scriptName, notesReplacedBy: x) }
        return s
    }

    private struct Session {
        let name: String
        let state: PrompterSessionState
        let scriptName: String?
        let profile: DisplayProfile
        let times: [Double]
    }

    private func sessions() throws -> [Session] {
        let talk = try script("talk.md", notesReplacedBy: nil)
        var scroll = ScrollModel(length: Double(talk.subject.wordCount), cues: talk.subject.pauseCueWordPositions,
                                 speed: .wordsPerMinute(160))
        scroll.start(at: 3_000_000_000)
        let webcam = try DisplayProfile.load(path: Checkout.path("Assets/displays/webcam-top-centre.json"))
        let chinese = try script("chinese.txt", notesReplacedBy: nil)
        let poses = try script("poses.md", notesReplacedBy: nil)
        var poseScroll = ScrollModel(length: Double(poses.subject.wordCount), speed: .wordsPerMinute(160))
        poseScroll.start(at: 0)
        var lines = ScrollModel(length: 9, speed: .linesPerMinute(12))
        lines.start(at: 0)
        return [
            Session(name: "teleprompter recording", state: PrompterSessionState(
                script: talk, scroll: scroll, countdownStartedAt: 0, recordingStartedAt: 3_000_000_000,
                aspect: AspectRatio(16, 9), scriptPath: "/home/ana/talk.md", userName: "ana"),
                scriptName: "talk.md", profile: .plain, times: [0.5, 4, 9.25]),
            Session(name: "mirrored with webcam, high contrast", state: PrompterSessionState(
                script: talk, scroll: scroll, mirror: MirrorFlags(horizontal: true, vertical: true),
                style: PromptStyle(fontSize: 18, theme: .highContrast), recordingStartedAt: 0, aspect: AspectRatio(9, 16)),
                scriptName: "talk.md", profile: webcam, times: [2, 7]),
            Session(name: "chinese lines", state: PrompterSessionState(script: chinese, scroll: lines, aspect: AspectRatio(1, 1),
                                                                       cameraDeviceName: "BRIO"),
                    scriptName: "chinese.txt", profile: .plain, times: [1, 12]),
            Session(name: "preview", state: PrompterSessionState(
                accessory: .preview, script: talk, countdownStartedAt: 0, recordingStartedAt: 3_000_000_000,
                aspect: AspectRatio(4, 3), preview: .testPattern(width: 64, height: 36), lastError: "disk almost full"),
                    scriptName: "talk.md", profile: webcam, times: [1, 5]),
            Session(name: "self-view with pose cues", state: {
                var s = PrompterSessionState(script: poses, scroll: poseScroll, recordingStartedAt: 0, aspect: AspectRatio(9, 16))
                s.selfView = .small
                s.picture = PictureShape(width: 1280, height: 720)
                return s
            }(), scriptName: "poses.md", profile: .plain, times: [1, 6, 12]),
            Session(name: "countdown only", state: PrompterSessionState(
                accessory: .countdown, script: talk, countdown: try Countdown(seconds: 5), countdownStartedAt: 0),
                    scriptName: "talk.md", profile: .plain, times: [0, 2.5, 4.9]),
        ]
    }

    func testFramesAreByteIdenticalWhenOnlyPrivateFieldsDiffer() throws {
        for session in try sessions() {
            let plain = SubjectViewModel.whitelisted(from: session.state)
            let private_ = SubjectViewModel.whitelisted(from: try withSentinels(session.state, scriptName: session.scriptName))
            XCTAssertEqual(plain, private_, session.name)
            for t in session.times {
                let time = Int64(t * 1e9)
                // ARGB is what the subject window draws, at the monitor's own size: every size, every shape.
                for (w, h) in [(320, 180), (1920, 1080), (1080, 1920), (3840, 2160)] {
                    let a = SubjectRenderer.render(plain, at: time, width: w, height: h, profile: session.profile)
                    let b = SubjectRenderer.render(private_, at: time, width: w, height: h, profile: session.profile)
                    XCTAssertTrue(a.packedBytes() == b.packedBytes(), "\(session.name) at \(t) s (ARGB \(w)x\(h))")
                }

                let liveA = I420Image(width: 320, height: 180), liveB = I420Image(width: 320, height: 180)
                for (vm, image) in [(plain, liveA), (private_, liveB)] {
                    let scene = SubjectScene(viewModel: vm, width: 320, height: 180, profile: session.profile, format: .i420)
                    scene.prepare(at: time)
                    scene.draw(into: image.planes, at: time)
                }
                XCTAssertEqual(liveA.bytes(), liveB.bytes(), "\(session.name) at \(t) s (I420)")
            }
        }
    }

    /// The privacy comparison is not vacuous: changing one whitelisted field changes the frame.
    func testAWhitelistedChangeDoesChangeTheFrame() throws {
        let session = try sessions()[0]
        var moved = session.state
        moved.recordingStartedAt = 2_000_000_000
        let a = SubjectRenderer.render(.whitelisted(from: session.state), at: 9_250_000_000, width: 320, height: 180)
        let b = SubjectRenderer.render(.whitelisted(from: moved), at: 9_250_000_000, width: 320, height: 180)
        XCTAssertNotEqual(a.packedBytes(), b.packedBytes())
    }

    func testSentinelTextNeverReachesTheSubjectScript() throws {
        let parsed = try script("talk.md", notesReplacedBy: PrivacyTests.sentinel)
        XCTAssertEqual(parsed.operatorNotes.count, 2)
        XCTAssertFalse(String(describing: parsed.subject).contains(PrivacyTests.sentinel))
        let vm = SubjectViewModel.whitelisted(from: try withSentinels(PrompterSessionState(script: parsed), scriptName: "talk.md"))
        XCTAssertFalse(String(describing: vm).contains(PrivacyTests.sentinel))
    }

    /// Markup a writer takes for hidden never reaches the subject's frames: a note's text after a stray
    /// `]]`, an HTML comment, and the look-alikes of a note. Two scripts that differ only in the hidden
    /// text give byte-identical frames (and the control, the same text left visible, does not).
    func testMarkupAWriterTakesForHiddenNeverReachesTheSubjectFrame() throws {
        func frame(_ text: String) throws -> (bytes: [UInt8], model: String) {
            let parsed = try ScriptParser.parse(bytes: Array(text.utf8), format: .markdown, name: "probe.md")
            let vm = SubjectViewModel.whitelisted(from: PrompterSessionState(script: parsed, aspect: AspectRatio(16, 9)))
            return (SubjectRenderer.render(vm, at: 0, width: 640, height: 360).packedBytes(), String(describing: vm))
        }
        let x = PrivacyTests.sentinel, other = "OTHERTEXT-PRIVATE-0000"
        let hidden = [
            "[[note: remember ]] \(x) ]]", "<!-- \(x) -->", "<!--\n\(x)\n-->", "［［note: \(x)］］", "((note: \(x)))",
            "{{note: \(x)}}", "\nnote: \(x)\n",
            "【note: \(x)】", "【【note: \(x)】】", "「note: \(x)」", "「「note: \(x)」」", "『note: \(x)』", "『『note: \(x)』』",
            "〔note: \(x)〕", "〔〔note: \(x)〕〕", "［note: \(x)］", "［ｎｏｔｅ：\(x)］",
        ]
        for markup in hidden {
            let a = try frame("Read this.\nBefore \(markup) after.\n\nLast line.")
            let b = try frame("Read this.\nBefore \(markup.replacingOccurrences(of: x, with: other)) after.\n\nLast line.")
            XCTAssertFalse(a.model.contains(x), markup)
            XCTAssertTrue(a.bytes == b.bytes, "the hidden text of \(markup) changed the subject's frame")
        }
        let shownA = try frame("Read this.\nBefore \(x) after.\n\nLast line.")
        let shownB = try frame("Read this.\nBefore \(other) after.\n\nLast line.")
        XCTAssertFalse(shownA.bytes == shownB.bytes, "the control: visible text does change the frame")
    }

    /// A pose cue shows its instruction and nothing else: a note written inside or beside it never reaches
    /// the cue or the frame, and the cue is really drawn (the control: another instruction changes the frame).
    func testPoseCuesCarryNoNotesAndAreDrawn() throws {
        let x = PrivacyTests.sentinel, other = "OTHERTEXT-PRIVATE-0000"
        func frame(_ text: String) throws -> (bytes: [UInt8], model: String) {
            let parsed = try ScriptParser.parse(bytes: Array(text.utf8), format: .markdown, name: "pose.md")
            var state = PrompterSessionState(script: parsed, recordingStartedAt: 0)
            state.selfView = .small
            state.picture = PictureShape(width: 1280, height: 720)
            let vm = SubjectViewModel.whitelisted(from: state)
            return (SubjectRenderer.render(vm, at: 0, width: 640, height: 360).packedBytes(), String(describing: vm))
        }
        let script = { (secret: String, pose: String) in
            "[POSE: \(pose) [[note: \(secret) /home/\(secret)/take.mkv]]]\nRead this line to the lens. [[note: \(secret)]]\n\nLast line."
        }
        let a = try frame(script(x, "look at the lens"))
        let b = try frame(script(other, "look at the lens"))
        XCTAssertFalse(a.model.contains(x), "the sentinel reached the view model")
        XCTAssertTrue(a.model.contains("look at the lens"), "the cue is in the view model")
        XCTAssertTrue(a.bytes == b.bytes, "a note in a pose cue changed the subject's frame")
        let c = try frame(script(x, "turn left"))
        XCTAssertFalse(a.bytes == c.bytes, "the control: another pose instruction changes the frame")
    }
}
