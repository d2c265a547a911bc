import DuoCore
import DuoDesktop
import DuoPlatform
import Foundation

/// `--screen [MONITOR]` at start: whether the screen can be recorded here (X11, or Wayland through the
/// ScreenCast portal; a one-line error on a headless machine), the monitors the desktop lists (through
/// GDK, headless runs too), and which one is recorded (ScreenTrack.choose: the one asked for, else one
/// without duo-capture's windows; on Wayland the portal's choice, ScreenCastPortal). Decided before the
/// camera is looked for, so a bad MONITOR or a missing portal is the only line.
///
/// Thread: called from the main task; hops to the main thread for GDK.
enum ScreenSetup {
    static func resolve(_ options: Options) async throws(DuoError) -> ScreenTrack? {
        guard options.screen else { return nil }
        let env = ProcessInfo.processInfo.environment
        if let why = ScreenTrack.unavailableReason(environment: env) { throw why }
        if ScreenTrack.wayland(environment: env) { return try portal(options) }
        let desktop = options.desktop, headless = options.headless
        let listed: Result<(monitors: [ScreenMonitor], op: String?, subject: String?, backend: String), DuoError> = await MainActor.run {
            do throws(DuoError) { try GtkMain.initialize() } catch { return .failure(error) }
            let monitors = Monitors.list()
            var op: String?, subject: String?
            if !headless, let choice = try? MonitorChoice.resolve(monitors, operator: desktop.operatorMonitor, subject: desktop.subjectMonitor) {
                op = choice.operatorMonitor(in: monitors)?.connector
                subject = choice.subjectMonitor(in: monitors)?.connector
            }
            let screens = monitors.map { ScreenMonitor(index: $0.index, connector: $0.connector, x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
            return .success((screens, op, subject, Monitors.backend))
        }
        let found = try listed.get()
        guard found.backend == "x11" else {
            throw .usage(.text("--screen: the desktop's windowing system is %s, and duo-capture records the screen only on X11; log in to an X11 session, or leave out --screen", found.backend))
        }
        return try ScreenTrack.choose(found.monitors, requested: options.screenMonitor, operatorConnector: found.op,
                                      subjectConnector: found.subject, rate: options.screenRate)
    }

    /// Wayland: the ScreenCast portal's stream (the portal, or the user in its dialog, picks the monitor).
    /// Its size and place are the portal's word (sent with the stream).
    private static func portal(_ options: Options) throws(DuoError) -> ScreenTrack {
        switch ScreenCastPortal.open() {
        case .failure(let failure):
            throw ScreenTrack.portalUnavailable(failure.why, missing: failure.missing, cancelled: failure.cancelled)
        case .success(let stream):
            return try ScreenTrack.portal(fd: stream.fd, node: stream.node, width: stream.width, height: stream.height,
                                          x: stream.x, y: stream.y, requested: options.screenMonitor,
                                          rate: options.screenRate)
        }
    }
}
