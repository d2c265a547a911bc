/// Do not disturb on the subject's monitor: desktop notification banners (a chat message shown to the
/// person being filmed, and recorded if a screen is in shot) are kept off while the subject view is shown
/// or a take runs (or counts down), and given back afterwards. `--allow-notifications` opts out.
///
/// The setting a run changed is written down first (a marker in the state directory), so a run that
/// dies before giving it back has it given back by the next one at its start.
///
/// Thread: value type; owned by the GTK main thread. Pure: the desktop adapter (`NotificationBanners`)
/// carries out what it says.
public struct DoNotDisturb: Sendable, Equatable {
    public let allowNotifications: Bool
    public private(set) var silenced = false

    public init(allowNotifications: Bool) { self.allowNotifications = allowNotifications }

    /// The run's facts now; returns true (silence) or false (give back) when that changes, nil otherwise.
    public mutating func update(subjectShown: Bool, recording: Bool) -> Bool? {
        let want = !allowNotifications && (subjectShown || recording)
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

    /// The marker's text: which setting was changed, and the value to give back.
    public static func marker(schema: String, key: String, previous: Bool) -> String {
        "\(schema) \(key) \(previous)\n"
    }

    /// Reads a marker: the setting and the value to give back; nil for anything else.
    public static func parseMarker(_ text: String) -> (schema: String, key: String, previous: Bool)? {
        let f = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard f.count == 3, let previous = Bool(f[2]), !f[0].isEmpty, !f[1].isEmpty else { return nil }
        return (f[0], f[1], previous)
    }
}
