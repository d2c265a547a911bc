import DuoCore
import Foundation
import XCTest

/// The subject's self-view on a real X desktop: for each `--lens`, the subject monitor shows the camera
/// picture (mirrored, from the graph) in the corner far from the lens with the safe frame drawn on it, the
/// reading line nearest the lens, and a script's pose cue readable (OCR) beside the self-view.
final class SelfViewDesktopTests: XCTestCase {
    private var script: String { VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/poses.md").path }
    static let subjectX = 1280

    /// Where the self-view should be on a `width`×`height` monitor for `lens` (physical pixels: `behind`
    /// mirrors the view), from the same geometry the renderer uses; the live picture must be found there.
    static func expectedSelfView(_ lens: LensPosition, size: SelfViewSize = .small, width: Int, height: Int,
                                 picture: PictureShape = PictureShape(width: 1280, height: 720)) -> FrameRect {
        var profile = DisplayProfile.plain
        let mirror = lens == .behind ? MirrorFlags(horizontal: true, vertical: false) : .none
        profile.lens = lens
        let reader = profile.mirrored(mirror)
        let geometry = SubjectGeometry(profile: reader, width: width, height: height, lineHeight: 40, maximumPanelWidth: 1000,
                                       selfView: picture.selfViewSize(size, monitorWidth: width, monitorHeight: height))
        var r = geometry.selfView!
        if mirror.horizontal { r.x = Double(width) - r.x - r.width }
        return r
    }

    func testTheSelfViewStandsFarFromEachLensWithItsSafeFrameAndTheReadingLineByTheLens() throws {
        let desktop = try VirtualDesktop(test: self)
        let (w, h) = (1280, 720)
        for lens in LensPosition.allCases {
            let events = desktop.directory.appendingPathComponent("events-\(lens.rawValue).jsonl")
            let process = try desktop.launch(DesktopEndToEndTests.binary.path,
                                             ["--source", "videotestsrc", "--format", "1280x720@30", "--script", script,
                                              "--lens", lens.rawValue, "--events", events.path], log: "duo-capture-\(lens.rawValue).log")
            let app = DesktopEndToEndTests.App(process: process, events: events)
            try app.wait("the subject view to be shown (\(lens.rawValue))") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }

            let view = Self.expectedSelfView(lens, width: w, height: h)
            let safe = SafeFrame(aspect: AspectRatio(16, 9), frameWidth: Int(view.width), frameHeight: Int(view.height))
            var last = ""
            var shot: Screenshot?
            do {
                try waitFor("the self-view with its safe frame (\(lens.rawValue))", timeout: 30, interval: 0.3) {
                    let s = try desktop.screenshot()
                    shot = s
                    let check = Self.selfViewCheck(s, view: view, safe: safe, monitor: (w, h), glass: lens == .behind)
                    last = check.description
                    return check.ok
                }
            } catch {
                XCTFail("\(lens.rawValue): \(error); last: \(last); \(desktop.tail("duo-capture-\(lens.rawValue).log"))")
            }
            if let shot {
                Self.keep(desktop, name: "selfview-\(lens.rawValue)")
                // The reading line (the amber band over the panel) is nearest the lens.
                let band = try XCTUnwrap(Self.readingBand(shot, monitor: (w, h)), "\(lens.rawValue): no reading band found")
                switch lens {
                case .top, .topLeft, .topRight: XCTAssertLessThan(band.y, h / 3, "\(lens.rawValue): the reading line at \(band)")
                case .bottom: XCTAssertGreaterThan(band.y, h * 2 / 3, "\(lens.rawValue): the reading line at \(band)")
                case .behind: XCTAssertEqual(Double(band.y), Double(h) / 2, accuracy: 30, "\(lens.rawValue): the reading line at \(band)")
                }
                if lens == .topLeft { XCTAssertLessThan(band.minX, 40, "top-left: the text starts at the lens's side (\(band))") }
                if lens == .topRight { XCTAssertGreaterThan(band.maxX, w - 40, "top-right: the text ends at the lens's side (\(band))") }
            }
            // The pose cue is read by OCR beside the self-view (the script's first cue, shown from its start).
            if lens == .top {
                let text = try Self.readSubjectMonitor(desktop, width: w, height: h)
                XCTAssertTrue(text.lowercased().contains("look at the lens"), "OCR of the subject monitor: \(text)")
            }
            kill(process.processIdentifier, SIGTERM)
            try waitFor("duo-capture to exit (\(lens.rawValue))", timeout: 20) { !process.isRunning }
            XCTAssertEqual(process.terminationStatus, 0, desktop.tail("duo-capture-\(lens.rawValue).log"))
        }
    }

    /// The I key and `{"cmd":"self-view"}` switch the self-view; while it is off the subject branch carries
    /// no picture at all (its valve shut: no subject frames), while on it carries the small picture.
    func testTheSelfViewKeyAndCommandSwitchItAndTheBranchOnlyCarriesItWhileShown() throws {
        let desktop = try VirtualDesktop(test: self)
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let control = desktop.directory.appendingPathComponent("control.sock").path
        let process = try desktop.launch(DesktopEndToEndTests.binary.path,
                                         ["--source", "videotestsrc", "--format", "1280x720@30", "--script", script, "--self-view", "off",
                                          "--control", control, "--events", events.path], log: "duo-capture.log")
        let app = DesktopEndToEndTests.App(process: process, events: events)
        let shown = try app.wait("the subject view to be shown") { $0["event"] as? String == "availability" && $0["shown"] as? Bool == true }
        // Off: three periodic statuses later, still no subject frame.
        var statuses = shown.index
        for _ in 0..<3 {
            statuses = try app.wait("a status", after: statuses + 1) { $0["event"] as? String == "status" }.index
        }
        XCTAssertEqual(app.all()[statuses]["subjectFrames"] as? Int, 0, "the branch carries no picture without a self-view")
        let view = Self.expectedSelfView(.top, width: 1280, height: 720)
        let safe = SafeFrame(aspect: AspectRatio(16, 9), frameWidth: Int(view.width), frameHeight: Int(view.height))
        XCTAssertFalse(Self.selfViewCheck(try desktop.screenshot(), view: view, safe: safe, monitor: (1280, 720)).picture > 0.05,
                       "no picture in the self-view's corner while it is off")

        // The I key: on (small), frames flow, and the monitor shows it.
        try desktop.key("i")
        let on = try app.wait("the self-view on") { $0["event"] as? String == "self-view" && $0["size"] as? String == "small" }
        try app.wait("subject frames", after: on.index) { $0["event"] as? String == "status" && ($0["subjectFrames"] as? Int ?? 0) > 10 }
        var last = ""
        do {
            try waitFor("the self-view on the subject monitor", timeout: 20, interval: 0.3) {
                let c = Self.selfViewCheck(try desktop.screenshot(), view: view, safe: safe, monitor: (1280, 720))
                last = c.description
                return c.ok
            }
        } catch { XCTFail("\(error): \(last)") }

        // The control command: large.
        let client = try desktop.run("python3", ["-c", "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode()+b'\\n'); s.close()",
                                                 control, #"{"cmd":"self-view","size":"large"}"#])
        XCTAssertEqual(client.status, 0, client.stderr)
        try app.wait("the self-view large") { $0["event"] as? String == "self-view" && $0["size"] as? String == "large" }
        let large = Self.expectedSelfView(.top, size: .large, width: 1280, height: 720)
        let largeSafe = SafeFrame(aspect: AspectRatio(16, 9), frameWidth: Int(large.width), frameHeight: Int(large.height))
        do {
            try waitFor("the large self-view on the subject monitor", timeout: 20, interval: 0.3) {
                let c = Self.selfViewCheck(try desktop.screenshot(), view: large, safe: largeSafe, monitor: (1280, 720))
                last = c.description
                return c.ok
            }
        } catch { XCTFail("\(error): \(last)") }
        kill(process.processIdentifier, SIGTERM)
        try waitFor("duo-capture to exit", timeout: 20) { !process.isRunning }
        XCTAssertEqual(process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }

    /// What the check of one screenshot found.
    struct SelfViewCheck: CustomStringConvertible {
        var ok: Bool { picture > 0.4 && bars && composition > 0.9 && actionSafe > 0.8 && graphicsSafe > 0.8 && nearPicture < 0.02 }
        /// The whole camera picture, shrunk and mirrored: SMPTE bars from blue (left) to grey (right).
        var bars = false
        /// Share of the self-view's inside showing the camera's coloured bars.
        var picture = 0.0
        /// Share of each safe-frame line's pixels in its colour: the composition white, action-safe green,
        /// graphics-safe blue.
        var composition = 0.0, actionSafe = 0.0, graphicsSafe = 0.0
        /// Share of coloured picture pixels in the same-sized corner on the lens's side.
        var nearPicture = 0.0
        var description: String {
            String(format: "picture %.2f, mirrored bars %@, composition line %.2f, action-safe %.2f, graphics-safe %.2f, picture near the lens %.3f",
                   picture, bars ? "yes" : "no", composition, actionSafe, graphicsSafe, nearPicture)
        }
    }

    /// `glass`: the view is mirrored for beam-splitter glass, and the picture with it (the reflection then
    /// shows the subject the selfie): on the monitor the bars run the camera's own way.
    static func selfViewCheck(_ s: Screenshot, view: FrameRect, safe: SafeFrame, monitor: (Int, Int), glass: Bool = false) -> SelfViewCheck {
        var c = SelfViewCheck()
        guard s.width >= subjectX + monitor.0, s.height >= monitor.1 else { return c }
        let x0 = subjectX + Int(view.x), y0 = Int(view.y), w = Int(view.width), h = Int(view.height)
        func saturated(_ x: Int, _ y: Int) -> Bool { let p = s.pixel(x, y); return max(p.r, p.g, p.b) - min(p.r, p.g, p.b) > 120 }
        func share(_ points: [(Int, Int)], _ test: ((r: Int, g: Int, b: Int)) -> Bool) -> Double {
            Double(points.filter { test(s.pixel($0.0, $0.1)) }.count) / Double(max(1, points.count))
        }
        var inside: [(Int, Int)] = []
        for y in stride(from: y0 + h / 5, to: y0 + h * 4 / 5, by: 3) { for x in stride(from: x0 + w / 5, to: x0 + w * 4 / 5, by: 3) { inside.append((x, y)) } }
        c.picture = Double(inside.filter { saturated($0.0, $0.1) }.count) / Double(max(1, inside.count))
        // SMPTE bars left to right are grey, yellow, cyan, green, magenta, red, blue: mirrored, blue comes
        // first. Sampled a third of the way down, in the middle of each seventh.
        let mirrored: [(Bool, Bool, Bool)] = [(false, false, true), (true, false, false), (true, false, true), (false, true, false),
                                              (false, true, true), (true, true, false), (true, true, true)]
        c.bars = (glass ? mirrored.reversed() : mirrored).enumerated().allSatisfy { i, bar in
            let p = s.pixel(x0 + Int((Double(i) + 0.5) * Double(w) / 7), y0 + h / 3)
            let on = { (v: Int, want: Bool) in want ? v > 120 : v < 80 }
            return on(p.r, bar.0) && on(p.g, bar.1) && on(p.b, bar.2)
        }
        // Each line's top edge, between its corners.
        func topLine(_ r: FrameRect) -> [(Int, Int)] {
            let y = y0 + Int(r.y.rounded())
            return stride(from: x0 + Int(r.x.rounded()) + 2, to: x0 + Int(r.maxX.rounded()) - 2, by: 1).map { ($0, y) }
        }
        c.composition = share(topLine(safe.composition)) { min($0.r, $0.g, $0.b) > 190 }
        c.actionSafe = share(topLine(safe.actionSafe)) { $0.g > $0.r + 40 && $0.g > $0.b + 40 }
        c.graphicsSafe = share(topLine(safe.graphicsSafe)) { $0.b > $0.r + 40 && $0.b > $0.g + 10 }
        // The lens's corner: the rectangle mirrored across the monitor's middle, both ways.
        let nx = subjectX + monitor.0 - Int(view.maxX), ny = monitor.1 - Int(view.maxY)
        var near: [(Int, Int)] = []
        for y in stride(from: ny, to: ny + h, by: 3) { for x in stride(from: nx, to: nx + w, by: 3) { near.append((x, y)) } }
        c.nearPicture = Double(near.filter { saturated($0.0, $0.1) }.count) / Double(max(1, near.count))
        return c
    }

    /// The reading band on the subject monitor: rows where most pixels are the amber band over the panel.
    static func readingBand(_ s: Screenshot, monitor: (Int, Int)) -> (y: Int, minX: Int, maxX: Int)? {
        func amber(_ p: (r: Int, g: Int, b: Int)) -> Bool { p.r > 45 && p.r < 100 && p.g > 35 && p.g < 80 && p.b < 45 && p.r > p.b + 25 }
        var rows: [Int] = []
        var minX = Int.max, maxX = 0
        for y in 0..<monitor.1 {
            var count = 0, first = Int.max, lastX = 0
            for x in stride(from: 0, to: monitor.0, by: 4) where amber(s.pixel(subjectX + x, y)) {
                count += 1; first = min(first, x); lastX = x
            }
            if count > monitor.0 / 4 / 5 { rows.append(y); minX = min(minX, first); maxX = max(maxX, lastX) }
        }
        guard !rows.isEmpty else { return nil }
        return (rows[rows.count / 2], minX, maxX)
    }

    /// The subject monitor read with tesseract.
    static func readSubjectMonitor(_ desktop: VirtualDesktop, width: Int, height: Int) throws -> String {
        let shot = desktop.directory.appendingPathComponent("subject-ocr.png").path
        let crop = try desktop.run("import", ["-window", "root", "-crop", "\(width)x\(height)+\(subjectX)+0", "+repage", shot])
        XCTAssertEqual(crop.status, 0, crop.stderr)
        let ocr = try runTool("tesseract", [shot, "-"], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(ocr.status, 0, ocr.stderr)
        return ocr.stdout
    }

    /// With DUO_SHOTS set to a folder, the subject monitor's screenshot is kept there for a person to look at.
    static func keep(_ desktop: VirtualDesktop, name: String) {
        guard let folder = ProcessInfo.processInfo.environment["DUO_SHOTS"] else { return }
        _ = try? desktop.run("import", ["-window", "root", "-crop", "1280x720+\(subjectX)+0", "+repage", "\(folder)/\(name).png"])
    }
}
