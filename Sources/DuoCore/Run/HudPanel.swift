/// The operator HUD as a laid-out panel rather than a list of lines: the state and the take's elapsed
/// time large, the take and time left under it, then the other lines, a sound meter, and beside it the
/// confidence strip (what the subject reads). `HudRenderer` lays it out with Pango at the window's size;
/// this is what it shows, worked out without drawing (so it can be tested and compared).
///
/// Thread: value types, Sendable; pure.
public struct HudPanel: Sendable, Hashable {
    /// "● REC 0:12", "COUNTDOWN 3" or "STANDBY": drawn largest.
    public var headline: HudModel.Line
    /// Under the headline, smaller: what to press ("Space records, ? keys"), or the take and time left.
    public var facts: String
    /// The other lines of the HUD (shot, camera and format, accessory, script, notes, figures), in order.
    public var rows: [HudModel.Line]
    /// The sound meter's fill, 0…1 (-60 dBFS … 0 dBFS), nil without a level meter; drawn at the end of
    /// row `meterRow` (the "audio peak" line).
    public var meter: Double?
    public var meterRow: Int?
    /// The confidence strip's lines (empty: no strip).
    public var confidence: [ConfidenceLine]
    /// The key list over the picture, nil while hidden.
    public var keyHelp: [KeyHelp]?
}

/// One line of the confidence strip: a line of the subject view as laid out there, or an operator's
/// private note inline where it falls (drawn marked as private; the subject view never shows it).
///
/// Thread: value type, Sendable.
public struct ConfidenceLine: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A line the subject sees; `reading` marks the one on the reading line.
        case subject(reading: Bool)
        /// An operator note from the script (`[[note: …]]`): private.
        case privateNote
    }
    public let text: String
    public let kind: Kind
    public init(text: String, kind: Kind) { self.text = text; self.kind = kind }
    public var isReading: Bool { kind == .subject(reading: true) }
}

/// One entry of the key help: the key and what it does.
///
/// Thread: value type, Sendable.
public struct KeyHelp: Sendable, Hashable {
    public let key: String
    public let does: String
    public init(key: String, does: String) { self.key = key; self.does = does }
}

/// The file a take was saved to, shown on the HUD for `duration` after the take ends, then gone.
///
/// Thread: value type; owned by the run director's operator window part.
public struct TakeFileNotice: Sendable {
    /// How long the file stays on the HUD, ns.
    public static let duration: Int64 = 10_000_000_000
    private var shown: (file: String, until: Int64)?
    public init() {}

    /// A take saved to `path` ended at `now`: its file name (not the folder) is shown.
    public mutating func ended(path: String, at now: Int64) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        shown = (name, now + Self.duration)
    }

    /// A new take began: the last one's file goes.
    public mutating func takeStarted() { shown = nil }

    /// The file name to show at `now`, nil once its time is up.
    public func file(at now: Int64) -> String? {
        guard let shown, now < shown.until else { return nil }
        return shown.file
    }
}

extension HudModel {
    /// The panel the HUD draws: the same facts as `toned`, arranged.
    public var panel: HudPanel {
        let all = toned
        let headline: Line
        var facts: String
        if let c = run.countdown {
            headline = Line(text: tr("COUNTDOWN %d", c), tone: .live)
            facts = tr("Esc cancels")
        } else if run.recording {
            headline = Line(text: tr("● REC  %s", Self.clock(run.elapsedSeconds)), tone: .live)
            facts = tr("take %d", run.takeNumber ?? 0)
        } else {
            headline = Line(text: tr("STANDBY"), tone: .plain)
            facts = tr("Space records  ·  ? keys")
        }
        if run.countdown == nil, let left = run.secondsLeft, run.scriptProgress != nil {
            facts += "  ·  " + tr("%s left", Self.clock(left))
        }
        let meter = run.audioPeakDB.map { min(1, max(0, ($0 + 60) / 60)) }
        let rows = Array(all.dropFirst())
        return HudPanel(headline: headline, facts: facts, rows: rows, meter: meter.map { ($0 * 40).rounded() / 40 },
                        meterRow: meter == nil ? nil : run.audioPeakDB.flatMap { db in
                            rows.firstIndex { $0.text == tr("audio peak %s dB", String(format: "%.0f", db)) } },
                        confidence: run.confidence, keyHelp: keyHelp)
    }
}
