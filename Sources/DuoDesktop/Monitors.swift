import CGtk
import DuoCore

/// One monitor as GDK reports it: its index (the order `duo-capture monitors` lists and
/// `--operator-monitor`/`--subject-monitor` take), its connector (the RandR output name, e.g. HDMI-1 or
/// DUMMY0) and its geometry in the desktop's coordinates.
///
/// Thread: value type, Sendable.
public struct MonitorInfo: Sendable, Hashable, CustomStringConvertible {
    public let index: Int
    public let connector: String
    public let x: Int, y: Int, width: Int, height: Int
    public let primary: Bool

    public init(index: Int, connector: String, x: Int, y: Int, width: Int, height: Int, primary: Bool) {
        self.index = index; self.connector = connector
        self.x = x; self.y = y; self.width = width; self.height = height; self.primary = primary
    }

    public var description: String {
        "\(index)\t\(connector)\t\(width)x\(height)+\(x)+\(y)" + (primary ? "\tprimary" : "")
    }
}

/// Monitor enumeration and the default choice of operator and subject monitors.
///
/// Thread: GTK main thread (GDK is single-threaded).
@MainActor
public enum Monitors {
    public static func list() -> [MonitorInfo] {
        guard let display = gdk_display_get_default() else { return [] }
        let n = gdk_display_get_n_monitors(display)
        var out: [MonitorInfo] = []
        for i in 0..<max(0, n) {
            guard let m = gdk_display_get_monitor(display, i) else { continue }
            var r = GdkRectangle()
            gdk_monitor_get_geometry(m, &r)
            let model = gdk_monitor_get_model(m).map { String(cString: $0) } ?? "monitor-\(i)"
            out.append(MonitorInfo(index: Int(i), connector: model, x: Int(r.x), y: Int(r.y),
                                   width: Int(r.width), height: Int(r.height), primary: gdk_monitor_is_primary(m) != 0))
        }
        return out
    }
}

/// Which monitor is the operator's and which the subject's, by connector so a replugged monitor (whose
/// index may change) is recognised. Pure: decided from a monitor list and the user's choices.
///
/// Thread: value type, Sendable.
public struct MonitorChoice: Sendable, Hashable {
    public var operatorConnector: String?
    /// The connector the user asked for with --subject-monitor, if any; otherwise any monitor that is
    /// not the operator's.
    public var requestedSubjectConnector: String?

    /// Resolves `--operator-monitor N` / `--subject-monitor N` against the monitors present at start.
    /// Defaults: the primary monitor (else the first) for the operator; another one for the subject.
    public static func resolve(_ monitors: [MonitorInfo], operatorIndex: Int?, subjectIndex: Int?) throws(DuoError) -> MonitorChoice {
        func pick(_ index: Int, _ option: String) throws(DuoError) -> MonitorInfo {
            guard let m = monitors.first(where: { $0.index == index }) else {
                throw .usage("\(option) \(index): there are \(monitors.count) monitors (0...\(max(0, monitors.count - 1))); run duo-capture monitors to list them")
            }
            return m
        }
        let op: MonitorInfo?
        if let i = operatorIndex { op = try pick(i, "--operator-monitor") } else { op = monitors.first(where: \.primary) ?? monitors.first }
        var subject: String?
        if let i = subjectIndex {
            let s = try pick(i, "--subject-monitor")
            subject = s.connector
        }
        return MonitorChoice(operatorConnector: op?.connector, requestedSubjectConnector: subject)
    }

    public func operatorMonitor(in monitors: [MonitorInfo]) -> MonitorInfo? {
        monitors.first { $0.connector == operatorConnector } ?? monitors.first(where: \.primary) ?? monitors.first
    }

    /// The subject monitor now: the requested one if plugged in, else the first monitor that is not the
    /// operator's; nil when there is none.
    public func subjectMonitor(in monitors: [MonitorInfo]) -> MonitorInfo? {
        let op = operatorMonitor(in: monitors)
        if let wanted = requestedSubjectConnector { return monitors.first { $0.connector == wanted } }
        return monitors.first { $0.connector != op?.connector }
    }
}
