import Foundation
import XCTest

/// Framing hints on the virtual two-monitor desktop: a face clip played as the camera of a default
/// teleprompter run (hints are on by default for a clip), and the hint read off the subject monitor and
/// the operator's HUD with tesseract.
final class FramingDesktopTests: XCTestCase {
    /// The clip the CLI tests make as "camera-left" (the face at a fifth of the width, in the unmirrored
    /// picture), from scikit-image's astronaut.png, shared through the same cache folder.
    static func faceOnTheLeftClip() throws -> String {
        let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        let cache = "\(base)/duo-capture-tests/faces"
        let clip = "\(cache)/v1-camera-left.mkv"
        if FileManager.default.fileExists(atPath: clip) { return clip }
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let png = "\(cache)/astronaut.png"
        if !FileManager.default.fileExists(atPath: png) {
            let fetch = try runTool("/usr/bin/python3", ["-c", """
                import glob, subprocess, sys, tempfile, zipfile
                d = tempfile.mkdtemp()
                subprocess.run([sys.executable, "-m", "pip", "download", "scikit-image", "--no-deps", "--only-binary=:all:", "-d", d, "-q"], check=True, timeout=300)
                open(sys.argv[1], "wb").write(zipfile.ZipFile(glob.glob(d + "/scikit_image-*.whl")[0]).read("skimage/data/astronaut.png"))
                """, png], environment: ProcessInfo.processInfo.environment)
            guard fetch.status == 0 else {
                throw Failure("could not fetch scikit-image's astronaut.png from PyPI (pip download scikit-image --no-deps); give this machine access to PyPI, or put the PNG at \(png): \(fetch.stderr)")
            }
        }
        // As FaceClips.clip in the CLI tests: a 223-pixel head crop, face centre at 0.2, eyes on the third.
        let line = "compositor name=c background=black sink_1::xpos=18 sink_1::ypos=28"
            + " ! video/x-raw,format=I420,width=640,height=360,framerate=15/1 ! x264enc speed-preset=ultrafast key-int-max=15"
            + " ! matroskamux ! filesink location=\(clip).part"
            + " videotestsrc pattern=black num-buffers=45 ! video/x-raw,width=640,height=360,framerate=15/1 ! c.sink_0"
            + " filesrc location=\(png) ! pngdec ! videocrop left=125 top=20 right=187 bottom=292 ! videoconvert"
            + " ! videoscale ! video/x-raw,width=223,height=223 ! imagefreeze num-buffers=45 ! video/x-raw,framerate=15/1 ! c.sink_1"
        let made = try runTool("/usr/bin/gst-launch-1.0", ["-q"] + line.split(separator: " ").map(String.init),
                               environment: ProcessInfo.processInfo.environment)
        guard made.status == 0 else { throw Failure("gst-launch-1.0 could not make the face clip: \(made.stderr)") }
        try FileManager.default.moveItem(atPath: clip + ".part", toPath: clip)
        return clip
    }

    func testTheSubjectMonitorAndTheHudShowTheHint() throws {
        let clip = try Self.faceOnTheLeftClip()
        let desktop = try VirtualDesktop(test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let process = try desktop.launch(DesktopEndToEndTests.binary.path, ["--camera", "file:\(clip)", "--script", script,
                                                                             "--events", events.path], log: "duo-capture.log")
        let app = DesktopEndToEndTests.App(process: process, events: events)
        try app.wait("the subject view to be shown") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        // No --framing: on by default for the teleprompter with a clip. The face is left in the camera
        // picture, so right in the subject's mirrored self-view: they move left.
        let hint = try app.wait("a framing hint", timeout: 30) { $0["event"] as? String == "framing" && $0["hint"] is String }
        XCTAssertEqual(hint.event["hint"] as? String, "move left")
        XCTAssertEqual(hint.event["mode"] as? String, "single")

        func read(_ geometry: String, _ name: String) throws -> String {
            let shot = desktop.directory.appendingPathComponent("\(name).png").path
            let crop = try desktop.run("import", ["-window", "root", "-crop", geometry, "+repage", shot])
            XCTAssertEqual(crop.status, 0, crop.stderr)
            return try runTool("tesseract", [shot, "-"], environment: ProcessInfo.processInfo.environment).stdout.lowercased()
        }
        var subject = "", hud = ""
        do {
            try waitFor("the subject monitor to read \"move left\"", timeout: 30, interval: 1) {
                // Each half on its own: on the whole monitor tesseract takes the text panel's block and can pass
                // over the hint beside the self-view in the corner.
                subject = try read("1280x360+1280+0", "subject-upper") + "\n" + read("1280x360+1280+360", "subject-lower")
                return subject.contains("move left")
            }
            try waitFor("the HUD to read the hint", timeout: 30, interval: 1) {
                hud = try read("1280x720+0+0", "operator")
                return hud.contains("move left")
            }
        } catch {
            XCTFail("\(error); subject read: \(subject); HUD read: \(hud); \(desktop.tail("duo-capture.log"))")
        }
        kill(process.processIdentifier, SIGTERM)
        try waitFor("duo-capture to exit", timeout: 20) { !process.isRunning }
        XCTAssertEqual(process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }
}
