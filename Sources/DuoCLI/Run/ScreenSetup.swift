import DuoCore
import DuoDesktop
import Foundation

/// `--screen [MONITOR]` at start: whether the screen can be recorded here (X11; a one-line error on a
/// headless machine or a Wayland session), the monitors the desktop lists (through GDK, headless runs
/// too), and which one is recorded (ScreenTrack.choose: the one asked for, else one without
/// duo-capture's windows). Decided before the camera is looked for, so a bad MONITOR is the only line.
///
/// Thread: called from the main task; hops to the main thread for GDK.
enum ScreenSetup {
    static func resolve(_ options: Options) async throws(DuoError) -> ScreenTrack? {
        guard options.screen else { return nil }
        if let why = ScreenTrack.unavailableReason(environment: ProcessInfo.processInfo.environment) { throw why }
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
}
