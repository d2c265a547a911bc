import DuoCore
import XCTest

/// Which monitor `--screen` records, where it cannot record at all, and the graph text it adds: the
/// source's region on the desktop and each take's screen leg into the take's muxer.
final class ScreenTrackTests: XCTestCase {
    let three = [
        ScreenMonitor(index: 0, connector: "DP-1", x: 0, y: 0, width: 1920, height: 1080),
        ScreenMonitor(index: 1, connector: "HDMI-1", x: 1920, y: 0, width: 1280, height: 720),
        ScreenMonitor(index: 2, connector: "DP-2", x: 3200, y: 0, width: 2560, height: 1440),
    ]

    func testAskedForByIndexOrConnector() throws {
        XCTAssertEqual(try ScreenTrack.choose(three, requested: "1", operatorConnector: nil, subjectConnector: nil).monitor.connector, "HDMI-1")
        XCTAssertEqual(try ScreenTrack.choose(three, requested: "DP-2", operatorConnector: nil, subjectConnector: nil, rate: 10).rate, 10)
    }

    func testAMonitorThatIsNotThereListsTheMonitors() {
        XCTAssertThrowsError(try ScreenTrack.choose(three, requested: "7", operatorConnector: nil, subjectConnector: nil)) { error in
            let text = (error as? DuoError)?.message ?? ""
            XCTAssertTrue(text.contains("--screen 7: no such monitor"), text)
            XCTAssertTrue(text.contains("0 DP-1 1920x1080+0+0, 1 HDMI-1 1280x720+1920+0, 2 DP-2 2560x1440+3200+0"), text)
        }
        XCTAssertThrowsError(try ScreenTrack.choose(three, requested: "HDMI-9", operatorConnector: nil, subjectConnector: nil))
        XCTAssertThrowsError(try ScreenTrack.choose([], requested: nil, operatorConnector: nil, subjectConnector: nil))
    }

    /// The default keeps away from duo-capture's own windows: a monitor with none, else the operator's
    /// (never the subject's teleprompter; said as such), headless the first.
    func testTheDefaultIsAMonitorWithoutOurWindows() throws {
        let free = try ScreenTrack.choose(three, requested: nil, operatorConnector: "DP-1", subjectConnector: "HDMI-1")
        XCTAssertEqual(free.monitor.connector, "DP-2")
        XCTAssertTrue(free.why.contains("without duo-capture's windows"), free.why)
        let two = Array(three.prefix(2))
        let op = try ScreenTrack.choose(two, requested: nil, operatorConnector: "HDMI-1", subjectConnector: "DP-1")
        XCTAssertEqual(op.monitor.connector, "HDMI-1")
        XCTAssertTrue(op.why.contains("operator's monitor"), op.why)
        XCTAssertEqual(try ScreenTrack.choose(two, requested: nil, operatorConnector: nil, subjectConnector: nil).monitor.index, 0)
        XCTAssertTrue(op.startLine.contains("monitor 1 (HDMI-1, 1280x720+1920+0) at 15 fps"), op.startLine)
    }

    func testNoDisplayOrWaylandIsOneLine() {
        XCTAssertNil(ScreenTrack.unavailableReason(environment: ["DISPLAY": ":0"]))
        XCTAssertTrue(ScreenTrack.unavailableReason(environment: [:])?.message.contains("no display to record") ?? false)
        // Wayland goes to the ScreenCast portal (also a headless run in a Wayland login session).
        XCTAssertNil(ScreenTrack.unavailableReason(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]))
        XCTAssertTrue(ScreenTrack.wayland(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]))
        XCTAssertTrue(ScreenTrack.wayland(environment: ["XDG_SESSION_TYPE": "wayland"]))
        XCTAssertNil(ScreenTrack.unavailableReason(environment: ["XDG_SESSION_TYPE": "wayland"]))
        XCTAssertFalse(ScreenTrack.wayland(environment: ["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"]))
    }

    /// The source captures exactly the monitor's region (ximagesrc's end is inclusive) at the rate, and a
    /// take's bin gains the screen leg with an encoder of its own name into the same muxer.
    func testTheGraphCapturesTheRegionIntoTheTakesMuxer() throws {
        let library = PipelineLibrary(directory: repositoryRoot().appendingPathComponent("Pipelines").path)
        var plan = try GraphPlan(library: library, camera: .testSource, requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        XCTAssertNil(try plan.recordScreenDescription())
        plan.screen = ScreenTrack(monitor: three[1], rate: 15)
        let live = try plan.liveDescription()
        XCTAssertTrue(live.contains("ximagesrc name=screen_source use-damage=false show-pointer=true startx=1920 starty=0 endx=3199 endy=719"), live)
        XCTAssertTrue(live.contains("framerate=15/1") && live.contains("tee name=st"), live)
        let take = try plan.recordDescription(location: "/tmp/t.mkv")
        XCTAssertTrue(take.contains("name=record_screen_queue") && take.contains("name=record_screen_encoder"), take)
        XCTAssertTrue(take.contains("width=1280,height=720") && !take.contains("videoscale"), take)
        XCTAssertEqual(take.components(separatedBy: "name=record_encoder ").count - 1, 1, "the camera's encoder keeps its name, once")
        XCTAssertTrue(take.hasSuffix("record_mux."), take)
        // An odd-sized monitor is scaled to even sides, by a pixel.
        plan.screen = ScreenTrack(monitor: ScreenMonitor(index: 0, connector: "X", x: 0, y: 0, width: 1365, height: 767))
        XCTAssertTrue(try plan.recordScreenDescription()?.contains("videoscale ! video/x-raw,format=I420,width=1364,height=766") ?? false)
        // On Wayland the source is the ScreenCast portal's PipeWire stream, into the same tee.
        plan.screen = try ScreenTrack.portal(fd: 7, node: 42, width: 2560, height: 1440, x: 0, y: 0, requested: nil)
        let wayland = try plan.liveDescription()
        XCTAssertTrue(wayland.contains("pipewiresrc name=screen_source fd=7 path=42 do-timestamp=true") && !wayland.contains("ximagesrc"), wayland)
        XCTAssertTrue(wayland.contains("framerate=15/1") && wayland.contains("tee name=st"), wayland)
        XCTAssertTrue(try plan.recordScreenDescription()?.contains("videoscale ! video/x-raw,format=I420,width=2560,height=1440") ?? false)
        XCTAssertTrue(plan.screen?.startLine.contains("PipeWire node 42, 2560x1440+0+0") ?? false)
        XCTAssertThrowsError(try ScreenTrack.portal(fd: 7, node: 42, width: nil, height: nil, x: nil, y: nil, requested: nil))
    }
}
