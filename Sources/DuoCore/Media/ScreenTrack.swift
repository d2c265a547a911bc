import Foundation

//  The screen track (`--screen [MONITOR]`, issue 39): a monitor of the desktop recorded as a second video
//  track of each take, in the same file and on the same clock as the camera.
//
//   ximagesrc (the monitor's region) ─▶ videorate ─▶ fixed caps ─▶ tee "st" ─┬─▶ queue ─▶ fakesink
//                                      (Pipelines/screen-x11.gst)            └─▶ per take: record-screen.gst ─▶ record_mux
//   or, on Wayland, pipewiresrc (the ScreenCast portal's stream, Pipelines/screen-pipewire.gst) ─▶ the same
//
//  This file only decides: which monitor, its region, the rate and the encoded size. Nothing here calls
//  GStreamer or GDK: the monitors are handed in as `ScreenMonitor`s by the command line's setup.

/// One monitor as the desktop lists it (`duo-capture monitors`), for choosing the screen track's.
///
/// Thread: value type, Sendable.
public struct ScreenMonitor: Sendable, Hashable {
    public let index: Int
    public let connector: String
    public let x: Int, y: Int, width: Int, height: Int
    public init(index: Int, connector: String, x: Int, y: Int, width: Int, height: Int) {
        self.index = index; self.connector = connector; self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// `WxH+X+Y`, as `duo-capture monitors` and xrandr write a geometry.
    public var geometry: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// The screen track of a run: the monitor recorded, its region on the desktop and the rate.
///
/// Thread: value type, Sendable; decided at start-up, then read by the graph plan and the sidecars.
public struct ScreenTrack: Sendable, Hashable {
    public let monitor: ScreenMonitor
    /// Frames per second recorded (`--screen-rate`, default `defaultRate`).
    public let rate: Int
    /// Why this monitor, in English (the `screen` event's reason; the start line translates it): "asked
    /// for", or the reason the default chose it.
    public let why: String
    /// Where the pictures come from: the X server, or the ScreenCast portal's PipeWire stream (Wayland).
    public let source: Source

    /// The screen's source. Thread: value type, Sendable.
    public enum Source: Sendable, Hashable {
        /// `ximagesrc` on the monitor's region of the X screen.
        case x11
        /// `pipewiresrc` on the portal's stream: `fd` a PipeWire connection the portal opened, `node` its node.
        case pipewire(fd: Int32, node: UInt32)
    }

    /// 15 fps: pointer moves and typing read smoothly, and a 1920x1080 monitor beside a 720p30 camera
    /// costs about a fifth of a core (+20 %: duo-capture +18, Xorg +2), against +35 % at 30 fps and +4 %
    /// at 5 (Benchmarks/screen-track.py, a moving picture on the monitor); `--screen-rate` changes it.
    public static let defaultRate = 15
    public static let rates = 1...60

    public init(monitor: ScreenMonitor, rate: Int = ScreenTrack.defaultRate, why: String = "", source: Source = .x11) {
        self.monitor = monitor; self.rate = rate; self.why = why; self.source = source
    }

    /// The size recorded: the monitor's, made even (4:2:0 video and the encoder need even sides); only an
    /// odd monitor is scaled, by a pixel.
    public var encodedSize: (width: Int, height: Int) { (max(2, monitor.width & ~1), max(2, monitor.height & ~1)) }
    /// Whether the picture is scaled before encoding (an odd-sized monitor only).
    public var scaled: Bool { encodedSize.width != monitor.width || encodedSize.height != monitor.height }

    /// The start line: which monitor, where, at what rate, and why this one.
    public var startLine: String {
        let size = encodedSize
        if case .pipewire(_, let node) = source {
            return tr("screen track: the monitor the ScreenCast portal shares (PipeWire node %1$s, %2$s) at %3$s fps, recorded %4$sx%5$s beside the camera in each take; %6$s",
                      node, monitor.geometry, rate, size.width, size.height, tr(why))
        }
        return tr("screen track: monitor %1$s (%2$s, %3$s) at %4$s fps, recorded %5$sx%6$s beside the camera in each take; %7$s",
                  monitor.index, monitor.connector, monitor.geometry, rate, size.width, size.height, tr(why))
    }

    /// Picks the monitor to record. `requested`: `--screen MONITOR`'s value (an index or a connector);
    /// nil: the default, the first monitor that shows none of duo-capture's windows (`operatorConnector`,
    /// `subjectConnector`: the monitors holding them, nil headless), else the operator's (never the
    /// subject's by default: that one shows the teleprompter, not the work being tested; the operator
    /// window can be made small with F11 so the desktop shows), else the first. An index or connector
    /// that is not there is a one-line error listing the monitors.
    public static func choose(_ monitors: [ScreenMonitor], requested: String?, operatorConnector: String?,
                              subjectConnector: String?, rate: Int = defaultRate) throws(DuoError) -> ScreenTrack {
        guard !monitors.isEmpty else {
            throw .usage(.text("--screen: the display lists no monitors; run duo-capture monitors on the desktop to record, or leave out --screen"))
        }
        let listed = monitors.map { "\($0.index) \($0.connector) \($0.geometry)" }.joined(separator: ", ")
        if let requested {
            let found = Int(requested).map { n in monitors.first { $0.index == n } } ?? monitors.first { $0.connector == requested }
            guard let found else {
                throw .usage(.text("--screen %1$s: no such monitor; the monitors are %2$s (give an index or a connector, as duo-capture monitors lists them)", requested, listed))
            }
            return ScreenTrack(monitor: found, rate: rate, why: N_("asked for with --screen"))
        }
        let ours = Set([operatorConnector, subjectConnector].compactMap { $0 })
        if let free = monitors.first(where: { !ours.contains($0.connector) }) {
            return ScreenTrack(monitor: free, rate: rate, why: ours.isEmpty
                ? N_("the first monitor (give --screen N to record another)")
                : N_("the first monitor without duo-capture's windows (give --screen N to record another)"))
        }
        if let op = operatorConnector, let m = monitors.first(where: { $0.connector == op }) {
            return ScreenTrack(monitor: m, rate: rate, why: N_("the operator's monitor, not the subject's, so the operator window is in the recording (every monitor shows a duo-capture window; F11 leaves fullscreen, or give --screen N to record another)"))
        }
        return ScreenTrack(monitor: monitors[0], rate: rate, why: N_("the first monitor (give --screen N to record another)"))
    }

    /// Where the screen can be recorded, from the environment: X11 with ximagesrc, Wayland through the
    /// ScreenCast portal (`wayland(environment:)`), and a one-line error when there is no desktop at all.
    public static func unavailableReason(environment env: [String: String]) -> DuoError? {
        let x11 = !(env["DISPLAY"]?.isEmpty ?? true)
        if x11 || wayland(environment: env) { return nil }
        return .usage(.text("--screen: no display to record (DISPLAY is not set: a headless machine); run on the X11 desktop whose monitor you want recorded, or leave out --screen"))
    }

    /// Whether the screen is a Wayland desktop's, recorded through the ScreenCast portal: WAYLAND_DISPLAY
    /// is set, GDK is told to use Wayland, or the login session is a Wayland one (a headless run inside
    /// it). There, ximagesrc on XWayland would see only X clients' windows (black elsewhere).
    public static func wayland(environment env: [String: String]) -> Bool {
        !(env["WAYLAND_DISPLAY"]?.isEmpty ?? true) || (env["GDK_BACKEND"] ?? "").hasPrefix("wayland")
            || env["XDG_SESSION_TYPE"] == "wayland"
    }

    /// The track of the portal's stream: its size and place as the portal says them (no size: an error),
    /// at `rate`. `requested` (`--screen MONITOR`) cannot choose
    /// here: the portal does (its dialog, or its backend's setting), and the reason says so.
    public static func portal(fd: Int32, node: UInt32, width: Int?, height: Int?, x: Int?, y: Int?,
                              requested: String?, rate: Int = defaultRate) throws(DuoError) -> ScreenTrack {
        guard let size = width.flatMap({ w in height.map { (width: w, height: $0) } }), size.width > 0, size.height > 0 else {
            throw .usage(.text("--screen: the ScreenCast portal did not say the size of the monitor it shares; try again, or log in to an X11 session, or leave out --screen"))
        }
        let monitor = ScreenMonitor(index: 0, connector: "portal", x: x ?? 0, y: y ?? 0, width: size.width, height: size.height)
        let why = requested == nil
            ? N_("the monitor chosen in the desktop's ScreenCast portal (on Wayland the portal chooses)")
            : N_("the monitor chosen in the desktop's ScreenCast portal: on Wayland the portal chooses, not --screen MONITOR")
        return ScreenTrack(monitor: monitor, rate: rate, why: why, source: .pipewire(fd: fd, node: node))
    }

    /// The one line when no cast could be had on Wayland: `why` (a few words from the portal or the bus),
    /// then what to install (`missing`: no portal or no ScreenCast interface), or to pick a monitor
    /// (`cancelled`: the user closed the portal's dialog), or where the portal's backend says why it
    /// failed (anything else, such as a Start that ended with code 2).
    public static func portalUnavailable(_ why: String, missing: Bool, cancelled: Bool = false) -> DuoError {
        if missing {
            return .usage(.text("--screen: this is a Wayland session and no ScreenCast portal answered (%s); install xdg-desktop-portal and your desktop's backend (Debian: xdg-desktop-portal-wlr for sway and other wlroots desktops, xdg-desktop-portal-gnome for GNOME, xdg-desktop-portal-kde for KDE), or log in to an X11 session, or leave out --screen", why))
        }
        if cancelled {
            return .usage(.text("--screen: this is a Wayland session and the ScreenCast portal gave no screen to record (%s); start again and pick a monitor in its dialog, or leave out --screen", why))
        }
        return .usage(.text("--screen: this is a Wayland session and the ScreenCast portal could not share a screen (%s); its backend's log says why (journalctl --user -u 'xdg-desktop-portal*'), or log in to an X11 session, or leave out --screen", why))
    }
}

extension ScreenMonitor {
    /// The sidecar's record of the screen track.
    public func sidecar(rate: Int, size: (width: Int, height: Int)) -> TakeSidecar.Screen {
        TakeSidecar.Screen(monitor: index, connector: connector, geometry: geometry, width: size.width, height: size.height, rate: rate)
    }
}

extension TakeSidecar {
    /// The take's screen track (`--screen`): the monitor, its geometry on the desktop, the size and rate
    /// recorded (the file's second video stream), and its frames once the take ended.
    public struct Screen: Codable, Sendable, Equatable {
        public var monitor: Int
        public var connector: String
        public var geometry: String
        public var width: Int
        public var height: Int
        public var rate: Int
        /// Frames of the screen track in the take (fewer than its rate times its length when the screen
        /// source failed mid-take: the run's `screen` event `stopped` says why).
        public var frames: Int64?
        public init(monitor: Int, connector: String, geometry: String, width: Int, height: Int, rate: Int) {
            self.monitor = monitor; self.connector = connector; self.geometry = geometry
            self.width = width; self.height = height; self.rate = rate
        }
    }
}
