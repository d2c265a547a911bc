import Foundation

/// A shot-list session's journal (`duo-capture-session.json` in the session folder): the shot list, the
/// current shot, every take so far (its numbers, mark, file and where the teleprompter began it) and the
/// teleprompter's place. Written atomically as the session goes (a crash leaves the old copy or the new
/// one, never half of one), so `--resume` takes the session up where it stopped; a normal start with one
/// present only offers that, in one line, until the new session's first change replaces it.
///
/// Thread: value type, Sendable; read at start, written by the shots part on the run director's actor.
public struct SessionJournal: Codable, Sendable, Equatable {
    public static let fileName = "duo-capture-session.json"
    /// A journal is a few hundred takes at most: one larger than this is no journal of ours.
    public static let maximumBytes = 4 * 1024 * 1024

    public var version = 1
    /// The shot list's file (absolute).
    public var shotList: String
    /// The current shot's id.
    public var shot: String
    public var takes: [ShotWalk.Take]
    /// The teleprompter's script and reading position (its unit) when last written.
    public var script: String?
    public var position: Double?
    /// ISO 8601, local offset.
    public var updated: String

    public init(shotList: String, shot: String, takes: [ShotWalk.Take], place: ScriptPlace?, at date: Date = Date()) {
        self.shotList = shotList
        self.shot = shot
        self.takes = takes
        script = place?.script
        position = place.map { ($0.position * 1000).rounded() / 1000 }
        updated = TakeSidecar.timestamp(date)
    }

    public static func path(inFolder folder: String) -> String { (folder as NSString).appendingPathComponent(fileName) }

    /// The last take number of the run that wrote it (a resumed run numbers on from it).
    public var lastTake: Int { takes.map(\.take).max() ?? 0 }

    /// The journal at `path`: nil when there is none; one that cannot be read as a journal is a one-line
    /// error that says what to do, and the file is left as it is.
    public static func read(_ path: String) throws(DuoError) -> SessionJournal? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        let fix = Said.text("move it aside (the takes beside it are kept) and start without --resume, or fix it")
        guard !isDirectory.boolValue, let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? Int, size <= maximumBytes,
              let data = fm.contents(atPath: path) else {
            throw .input(.text("session journal %s cannot be read (not a file, unreadable or over 4 MB); %s", path, fix))
        }
        let journal = try JSONProblem.decode(SessionJournal.self, from: data) { problem in
            let what = switch problem {
            case .missing(let key, _): Said.text("%s is missing", key)
            case .wrongType(let at), .null(let at), .invalid(let at): Said.text("%s is wrong", at)
            case .notJSON: Said.text("not JSON")
            }
            return .input(.text("session journal %s is damaged (%s); %s", path, what, fix))
        }
        guard journal.version == 1, !journal.shot.isEmpty, !journal.shotList.isEmpty else {
            throw .input(.text("session journal %s is not one this duo-capture writes (version %s); %s", path, journal.version, fix))
        }
        return journal
    }

    /// Writes atomically to `path` (a temporary file renamed over it).
    public func write(to path: String) throws(DuoError) {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { try e.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw .runtime(.text("cannot write the session journal %s: %s", path, WriteProblem.said(error)))
        }
    }

    /// What a normal start says of it: one line offering `--resume`.
    public func offer(path: String) -> String {
        let shotTakes = takes.filter { $0.shot == shot }.map(\.shotTake).max() ?? 0
        return trn("a shot-list session (%1$s) stopped at shot %2$s, take %3$s next, %4$d take so far (%5$s, %6$s); give --resume to go on with it (a new session's first take replaces it)",
                   "a shot-list session (%1$s) stopped at shot %2$s, take %3$s next, %4$d takes so far (%5$s, %6$s); give --resume to go on with it (a new session's first take replaces it)",
                   takes.count, (shotList as NSString).lastPathComponent, shot, shotTakes + 1, takes.count, path, updated)
    }
}
