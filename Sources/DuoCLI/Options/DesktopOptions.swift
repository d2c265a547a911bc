import DuoCore
import DuoDesktop
import Foundation

/// The desktop mode's own options, kept apart from `Options` so both evolve without colliding.
///
/// Thread: value type; parsed on the main thread at start-up.
public struct DesktopOptions: Sendable {
    /// `--operator-monitor N|NAME`: index as `duo-capture monitors` lists it, or connector; default the
    /// primary monitor.
    public var operatorMonitor: MonitorRef?
    /// `--subject-monitor N|NAME`: default any monitor that is not the operator's.
    public var subjectMonitor: MonitorRef?
    /// `--events FILE`: JSON lines (availability with reasons, fullscreen, takes) for tests and scripts.
    public var eventsPath: String?
    /// `--windowed`: start with the operator window not fullscreen (F11 makes it fullscreen).
    public var windowed = false
    /// `--allow-notifications`: leave desktop notification banners alone (they are off by default while
    /// the subject view is shown or a take runs).
    public var allowNotifications = false
    /// `--operator-display FILE`: the operator monitor's reserved regions (a display profile, as
    /// `--display-profile` is the subject's): the HUD and the controls stay clear of them.
    public var operatorDisplayPath: String?
    /// `--subject-curtain on|off`: while the accessory is enabled, the subject's monitor shows a curtain
    /// when the view is hidden (on), or the desktop (off).
    public var subjectCurtain = true

    public init() {}

    static let names: Set<String> = ["--operator-monitor", "--subject-monitor", "--events", "--windowed", "--allow-notifications", "--operator-display", "--subject-curtain"]
    static let flags: Set<String> = ["--windowed", "--allow-notifications"]

    mutating func parse(_ name: String, _ value: String) throws(DuoError) {
        switch name {
        case "--operator-monitor": operatorMonitor = try MonitorRef.parse(value, option: name)
        case "--subject-monitor": subjectMonitor = try MonitorRef.parse(value, option: name)
        case "--events": eventsPath = value
        case "--windowed": windowed = true
        case "--allow-notifications": allowNotifications = true
        case "--operator-display": operatorDisplayPath = value
        case "--subject-curtain": subjectCurtain = try SubjectCurtain.parse(value)
        default: preconditionFailure("not a desktop option: \(name)")
        }
    }

    /// The DESKTOP section of `--help` (translatable items; the keys' texts are DesktopKeys').
    static var help: [HelpItem] {
        [
            HelpItem.heading(N_("DESKTOP (without --headless: needs a display)")),
            .option("--operator-monitor N|NAME", N_("""
                the operator window's monitor, by index or connector (DP-1,
                HEADLESS-1 on Wayland); default: the primary one
                """)),
            .option("--subject-monitor N|NAME", N_("""
                the subject view's monitor (default: another one); a connector
                not plugged in yet is waited for (the view shows when it is)
                """)),
            .prose(N_("X11 or Wayland: GTK picks the backend (GDK_BACKEND=x11|wayland to choose); the log says which.")),
            .option("--windowed", N_("start the operator window not fullscreen (F11 toggles)")),
            .option("--operator-display FILE", N_("""
                the operator monitor's insets and occlusions (a display profile
                like Assets/displays/*.json): the HUD and the controls keep clear
                """)),
            .option("--allow-notifications", N_("""
                leave desktop notifications alone; by default their banners are
                off while the subject view or curtain is up or a take runs (GNOME:
                show-banners, given back afterwards, after a crash at the next
                start; elsewhere the freedesktop notifications Inhibit)
                """)),
            .option("--subject-curtain on|off", N_("""
                on (default): while the accessory is enabled, the subject's
                monitor shows a dark curtain (the standby line and the
                accessory) whenever the view is hidden, never the desktop
                behind; off gives the monitor back to the desktop then
                """)),
            .option("--events FILE", N_("""
                write events as JSON lines, headless or on the desktop: commands,
                countdowns, takes started and ended, swaps, status, errors,
                availability with its reasons (docs/events.md lists them all)
                """)),
            .prose(N_("""
                The subject view is shown, fullscreen on its monitor, while the accessory is enabled (yours:
                --accessory, key T) and available (the operator window is fullscreen, frames are flowing and a
                subject monitor other than the operator's is plugged in). The operator HUD says why not.
                """)),
            .prose(N_("Keys on the operator window (each stands for a --control command):")),
        ] + DesktopKeys.help.map { HelpItem.key($0.key, $0.does) } + [
            .prose(N_("""
                On-screen controls: moving the pointer over the operator window (or touching it) shows a bar over
                the bottom of the picture: record / stop, pause / resume, speed - and + with the figure, reverse,
                previous / next marker, accessory on / off, swap (two cameras), open a script, the phone remote's
                QR code (L), fullscreen. Each button sends its key's command (its tooltip names the key); the bar
                hides after 3 s without input.
                """)),
            .blank,
        ]
    }
}
