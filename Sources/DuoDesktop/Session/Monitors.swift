import CGtk
import CDuoSession
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
    /// The windowing system GTK chose (`GDK_BACKEND` picks it as usual): "x11" or "wayland".
    public static var backend: String { String(cString: duo_gdk_backend_name(gdk_display_get_default())) }

    public static func list() -> [MonitorInfo] {
        guard let display = gdk_display_get_default() else { return [] }
        let n = gdk_display_get_n_monitors(display)
        // On Wayland, GDK's model is the same for every output of one make ("headless"): the outputs' own
        // names come from the compositor (xdg-output), matched to GDK's monitors by geometry.
        var names = [DuoOutputName](repeating: DuoOutputName(), count: 16)
        let named = Int(duo_wayland_output_names(display, &names, Int32(names.count)))
        var out: [MonitorInfo] = []
        for i in 0..<max(0, n) {
            guard let m = gdk_display_get_monitor(display, i) else { continue }
            var r = GdkRectangle()
            gdk_monitor_get_geometry(m, &r)
            let output = names.prefix(named).first { $0.x == r.x && $0.y == r.y && $0.width == r.width && $0.height == r.height }
            let outputName: String? = output.map { o in withUnsafeBytes(of: o.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
            let gdkModel: String? = gdk_monitor_get_model(m).map { String(cString: $0) }
            let model = outputName ?? gdkModel ?? "monitor-\(i)"
            out.append(MonitorInfo(index: Int(i), connector: model, x: Int(r.x), y: Int(r.y),
                                   width: Int(r.width), height: Int(r.height), primary: gdk_monitor_is_primary(m) != 0))
        }
        return out
    }
}

/// A monitor as the user names it: by index (as `duo-capture monitors` lists them) or by connector
/// (`DP-2`, `HDMI-1`; a Wayland compositor's output name such as `HEADLESS-2`).
///
/// Thread: value type, Sendable.
public enum MonitorRef: Sendable, Hashable, CustomStringConvertible {
    case index(Int)
    case connector(String)

    /// A number is an index; anything else a connector name.
    public static func parse(_ text: String, option: String) throws(DuoError) -> MonitorRef {
        if let n = Int(text) {
            guard (0..<64).contains(n) else {
                throw .usage(tr("%s %s: give a monitor index such as 0 or 1, or a connector name such as DP-2; run duo-capture monitors to list them", option, text))
            }
            return .index(n)
        }
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else {
            throw .usage(tr("%s '%s': give a monitor index such as 0 or 1, or a connector name such as DP-2; run duo-capture monitors to list them", option, text))
        }
        return .connector(text)
    }

    public var description: String {
        switch self {
        case .index(let n): "\(n)"
        case .connector(let name): name
        }
    }

    public func matches(_ monitor: MonitorInfo) -> Bool {
        switch self {
        case .index(let n): monitor.index == n
        case .connector(let name): monitor.connector == name
        }
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

    /// Resolves `--operator-monitor` / `--subject-monitor` (index or connector) against the monitors
    /// present at start. Defaults: the primary monitor (else the first) for the operator; another one for
    /// the subject. A subject connector that is not plugged in yet is kept: the view shows when it is.
    public static func resolve(_ monitors: [MonitorInfo], operator opRef: MonitorRef?, subject subjectRef: MonitorRef?) throws(DuoError) -> MonitorChoice {
        let names = monitors.map(\.connector).joined(separator: ", ")
        func pick(_ ref: MonitorRef, _ option: String) throws(DuoError) -> MonitorInfo? {
            switch ref {
            case .index(let index):
                guard let m = monitors.first(where: { $0.index == index }) else {
                    throw .usage(tr("%s %s: there are %s monitors (0...%s); run duo-capture monitors to list them", option, index, monitors.count, max(0, monitors.count - 1)))
                }
                return m
            case .connector(let name):
                return monitors.first { $0.connector == name }
            }
        }
        var op = monitors.first(where: \.primary) ?? monitors.first
        if let ref = opRef {
            guard let m = try pick(ref, "--operator-monitor") else {
                throw .usage(tr("--operator-monitor %s: no monitor has that connector (there are %s); run duo-capture monitors to list them", ref, names.isEmpty ? tr("none") : names))
            }
            op = m
        }
        var subject: String?
        if let ref = subjectRef {
            if case .connector(let name) = ref { subject = name } else { subject = try pick(ref, "--subject-monitor")?.connector }
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
