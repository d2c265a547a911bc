/// Do not disturb on the subject's monitor: desktop notification banners (a chat message shown to the
/// person being filmed, and recorded if a screen is in shot) are kept off while the run holds the subject's
/// monitor (the subject view or the curtain, see `SubjectCurtain`) or a take runs (or counts down), and
/// given back afterwards. `--allow-notifications` opts out.
///
/// The setting a run changed is written down first (a marker in the state directory, tagged with the run:
/// its pid and the machine's boot id), so a run that dies before giving it back has it given back by the
/// next one at its start (headless or desktop); a marker of a run still alive is left alone, and a marker
/// stays until the setting really is given back (a run without a session bus cannot, so it keeps it).
///
/// Thread: value type; owned by the GTK main thread. Pure: the desktop adapter (`NotificationBanners`)
/// carries out what it says.
public struct DoNotDisturb: Sendable, Equatable {
    public let allowNotifications: Bool
    public private(set) var silenced = false

    public init(allowNotifications: Bool) { self.allowNotifications = allowNotifications }

    /// The run's facts now; returns true (silence) or false (give back) when that changes, nil otherwise.
    /// `monitorHeld`: the subject's monitor shows the view or the curtain.
    public mutating func update(monitorHeld: Bool, recording: Bool) -> Bool? {
        let want = !allowNotifications && (monitorHeld || recording)
        guard want != silenced else { return nil }
        silenced = want
        return want
    }

    /// The end of the run: give back what was silenced (true), or nothing to do.
    public mutating func end() -> Bool {
        defer { silenced = false }
        return silenced
    }

    /// The marker's file name in duo-capture's state directory (`$XDG_STATE_HOME/duo-capture`).
    public static let markerName = "notifications-silenced"

    /// The run a marker belongs to: its process id and the boot it ran in
    /// (`/proc/sys/kernel/random/boot_id`); a pid only names the same process within one boot.
    public struct RunTag: Sendable, Hashable {
        public let pid: Int32
        public let bootID: String
        public init(pid: Int32, bootID: String) { self.pid = pid; self.bootID = bootID }
    }

    /// A marker read back.
    public struct Marker: Sendable, Hashable {
        public let schema: String
        public let key: String
        public let previous: Bool
        /// nil for a marker written before markers were tagged: its run is taken for gone.
        public let run: RunTag?
    }

    /// The marker's text: which setting was changed, the value to give back, and the run that changed it.
    public static func marker(schema: String, key: String, previous: Bool, run: RunTag) -> String {
        "\(schema) \(key) \(previous) \(run.pid) \(run.bootID)\n"
    }

    /// Reads a marker (tagged, or the older untagged form); nil for anything else.
    public static func parseMarker(_ text: String) -> Marker? {
        let f = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard f.count == 3 || f.count == 5, let previous = Bool(f[2]), !f[0].isEmpty, !f[1].isEmpty else { return nil }
        var run: RunTag?
        if f.count == 5 {
            guard let pid = Int32(f[3]), pid > 0 else { return nil }
            run = RunTag(pid: pid, bootID: f[4])
        }
        return Marker(schema: f[0], key: f[1], previous: previous, run: run)
    }

    /// What a run does at its start with a marker it finds.
    public enum Leftover: Sendable, Equatable {
        /// Its run is alive (this boot, that pid still a duo-capture): its setting is its own, left alone.
        case leaveAlone
        /// Its run is gone: give the setting back, then delete the marker.
        case giveBack
    }

    /// `alive(pid)`: whether that process exists now and is a duo-capture. A marker from another boot,
    /// an untagged one, or this very process's pid (a leftover of an earlier process that had it) is gone.
    public static func leftover(_ marker: Marker, bootID: String, ownPid: Int32, alive: (Int32) -> Bool) -> Leftover {
        guard let run = marker.run, run.bootID == bootID, run.pid != ownPid, alive(run.pid) else { return .giveBack }
        return .leaveAlone
    }
}
