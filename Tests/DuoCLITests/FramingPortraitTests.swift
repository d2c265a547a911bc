import Foundation
import XCTest

/// Framing hints for faces of every size from a presenter standing back (8 % of the picture's height)
/// to one close up (25 %), on the left, in the centre and on the right, from a portrait the other
/// framing tests do not use: Grace Hopper's U.S. Navy portrait (public domain), which Debian's
/// python-matplotlib-data ships (Scripts/install-deps.sh installs it).
///
/// Each test plays one clip as the camera: black, with the portrait's head (a square crop around the
/// face, which fills half of it) standing four seconds in the centre, four on the camera picture's left
/// (face centre at 0.15 of the width), four in the centre, four on the right (0.85), its eyes on the top
/// third. The hint at
/// the end of each stand is the test: the face on the left of the camera picture is told "move left"
/// (the subject's own left, see FramingPolicy), on the right "move right", and in the centre "a little
/// closer" when it is small or nothing when it is framed. "No one in frame" is never right.
final class FramingPortraitTests: XCTestCase {
    static let portrait = "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg"
    /// Where the face can stand (fractions of the width): left, centre, right.
    static let stands: [Double] = [0.15, 0.5, 0.85]
    /// Where it stands in each of the clip's phases: first in the centre while the detectors start (the
    /// clip's player starts before the graph), then left, centre, right.
    static let phases: [Double] = [0.5, 0.15, 0.5, 0.85]
    static let phaseSeconds = 4

    /// A clip of `width`×`height` at 15 fps whose face is `face` of the height tall, made once and kept
    /// in the tests' cache folder.
    static func clip(face: Double, width: Int, height: Int) throws -> String {
        guard FileManager.default.isReadableFile(atPath: portrait) else {
            throw FaceClips.Failure("\(portrait) is missing; install python-matplotlib-data (bash Scripts/install-deps.sh)")
        }
        let path = "\(FaceClips.cache)/v2-hopper-\(Int(face * 100))-\(width)x\(height).mkv"
        if FileManager.default.fileExists(atPath: path) { return path }
        try FileManager.default.createDirectory(atPath: FaceClips.cache, withIntermediateDirectories: true)
        // The crop is 432×432 from (50, 0) of the 512×600 portrait; the detector's box for the face is
        // 216×216 in it, centred, the eyes 0.44 of the way down.
        let side = Int((face * Double(height) * 2).rounded())
        let frames = phaseSeconds * 15
        let caps = "video/x-raw,format=I420,width=\(width),height=\(height),framerate=15/1"
        var line = "concat name=cc ! \(caps) ! x264enc speed-preset=ultrafast key-int-max=15 ! matroskamux ! filesink location=\(path).part"
        for (i, x) in phases.enumerated() {
            let xpos = Int((x * Double(width) - 0.5 * Double(side)).rounded())
            let ypos = Int((Double(height) / 3 - 0.44 * Double(side)).rounded())
            line += " compositor name=c\(i) background=black sink_1::xpos=\(xpos) sink_1::ypos=\(ypos) ! \(caps) ! cc."
            line += " videotestsrc pattern=black num-buffers=\(frames) ! video/x-raw,width=\(width),height=\(height),framerate=15/1 ! c\(i).sink_0"
            line += " filesrc location=\(portrait) ! jpegdec ! videocrop left=50 right=30 top=0 bottom=168 ! videoconvert"
            line += " ! videoscale ! video/x-raw,width=\(side),height=\(side) ! imagefreeze num-buffers=\(frames)"
            line += " ! video/x-raw,framerate=15/1 ! c\(i).sink_1"
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        p.arguments = ["-q"] + line.split(separator: " ").map(String.init)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw FaceClips.Failure("gst-launch-1.0 could not make the clip: \(line)") }
        try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
        return path
    }

    /// Plays the clip as the camera with `--framing single` for a little more than its length; checks the
    /// hint at the end of each stand and that the face the events name is where the clip put it.
    ///
    /// Stands are told apart by where the events say the face is, not by the clock: the clip's player
    /// starts before the graph does, by up to seconds on a loaded machine.
    func check(face: Double, width: Int, height: Int, centre: String?) throws {
        let clip = try Self.clip(face: face, width: width, height: height)
        let dir = try scratchDirectory(self)
        let events = "\(dir)/events.jsonl"
        let seconds = Self.phaseSeconds * Self.phases.count
        let run = try duoCapture(["--headless", "--camera", "file:\(clip)", "--framing", "single", "--duration", "\(seconds)",
                                  "--events", events])
        XCTAssertEqual(run.status, 0, run.stderr)
        var framing: [(t: Double, hint: String?, faces: [[String: Double]])] = []
        for line in try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n") {
            guard let e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let t = e["t"] as? Double,
                  e["event"] as? String == "framing" else { continue }
            framing.append((t, e["hint"] as? String, e["faces"] as? [[String: Double]] ?? []))
        }
        let t0 = framing.first?.t ?? 0
        let story = framing.map { String(format: "%.1f %@ %@", $0.t - t0, $0.hint ?? "-", $0.faces.map { String(format: "%.2f/%.2f", $0["x"]! + $0["width"]! / 2, $0["height"]!) }.joined(separator: ",")) }
            .joined(separator: "; ")
        XCTAssertFalse(framing.contains { $0.hint == "no one in frame" }, "the face was lost: \(story)")
        // Each event's stand: where its one face is (within 5 % of the width), its size near the clip's.
        func stand(_ faces: [[String: Double]]) -> Int? {
            guard faces.count == 1, let f = faces.first, abs(f["height"]! - face) < face * 0.4 else { return nil }
            return Self.stands.firstIndex { abs(f["x"]! + f["width"]! / 2 - $0) < 0.05 }
        }
        XCTAssertTrue(framing.allSatisfy { $0.faces.isEmpty || stand($0.faces) != nil }, "a face where the clip has none: \(story)")
        // Runs of events at one stand; one that lasted two seconds or more ends with that stand's hint.
        var runs: [(stand: Int, from: Double, to: Double, hint: String?)] = []
        for e in framing {
            guard let s = stand(e.faces) else { continue }
            if let last = runs.last, last.stand == s { runs[runs.count - 1] = (s, last.from, e.t, e.hint) } else { runs.append((s, e.t, e.t, e.hint)) }
        }
        for (i, x) in Self.stands.enumerated() {
            let expected = i == 0 ? "move left" : i == 2 ? "move right" : centre
            let full = runs.filter { $0.stand == i && $0.to - $0.from >= 2 }
            XCTAssertFalse(full.isEmpty, "face \(Int(face * 100)) % seen at \(x) for two seconds: \(story)")
            for r in full { XCTAssertEqual(r.hint, expected, "face \(Int(face * 100)) % at \(x): \(story)") }
        }
    }

    func testAFaceOfEightPercentIsFoundAnywhere() throws {
        try check(face: 0.08, width: 1920, height: 1080, centre: "a little closer")
    }

    func testAFaceOfTwelvePercentIsFoundAnywhere() throws {
        try check(face: 0.12, width: 1280, height: 720, centre: "a little closer")
    }

    func testAFaceOfAQuarterIsFoundAnywhere() throws {
        try check(face: 0.25, width: 960, height: 540, centre: nil)
    }
}
