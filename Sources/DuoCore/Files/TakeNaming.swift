import Foundation

/// File names for takes: `duo-2026-11-29_143005-take03.mkv`. Date and time are local, the take number
/// counts within the session, and an existing file is never overwritten: a suffix (`-2`, `-3`, …) is
/// added instead.
///
/// Thread: value type; the `exists` closure is called synchronously on the caller's thread.
public struct TakeNaming: Sendable {
    public let directory: String
    public let fileExtension: String
    /// With a shot list: the shot's id, and the take number counts within the shot
    /// (`duo-2026-11-29_143005-shot03-take02.mkv`).
    public var shot: String?

    public init(directory: String, fileExtension: String, shot: String? = nil) {
        self.directory = directory
        self.fileExtension = fileExtension
        self.shot = shot
    }

    public func baseName(take: Int, at date: Date, timeZone: TimeZone = .current) -> String {
        "\(stem(at: date, timeZone: timeZone))-take\(Self.two(take))"
    }

    /// A replay's name (`--replay`, `save-replay`): a take's, with `replayNN` for `takeNN`
    /// (`duo-2026-11-29_143005-replay01.mkv`; with a shot list, the shot's id too).
    public func replayBaseName(replay: Int, at date: Date, timeZone: TimeZone = .current) -> String {
        "\(stem(at: date, timeZone: timeZone))-replay\(Self.two(replay))"
    }

    private static func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }

    /// `duo-DATE_TIME` and the shot, local time.
    private func stem(at date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let two = Self.two
        return "duo-\(c.year ?? 0)-\(two(c.month))-\(two(c.day))_\(two(c.hour))\(two(c.minute))\(two(c.second))\(shot.map { "-shot\($0)" } ?? "")"
    }

    /// The first path for this replay that does not exist yet.
    public func path(replay: Int, at date: Date, timeZone: TimeZone = .current, exists: (String) -> Bool) -> String {
        firstFree(replayBaseName(replay: replay, at: date, timeZone: timeZone), exists: exists)
    }

    /// The first path for this take that does not exist yet.
    public func path(take: Int, at date: Date, timeZone: TimeZone = .current, exists: (String) -> Bool) -> String {
        firstFree(baseName(take: take, at: date, timeZone: timeZone), exists: exists)
    }

    /// `name.ext` in the directory, or `name-2.ext`, `name-3.ext`… when it exists: never an existing file.
    private func firstFree(_ name: String, exists: (String) -> Bool) -> String {
        let base = (directory as NSString).appendingPathComponent(name)
        var candidate = "\(base).\(fileExtension)"
        var n = 2
        while exists(candidate) {
            candidate = "\(base)-\(n).\(fileExtension)"
            n += 1
        }
        return candidate
    }
}

extension TakeNaming {
    /// The takes among a folder's file names, sorted: every `.mkv` and `.mp4`, less the MP4 copies `remux`
    /// made beside a Matroska take (`TAKE.mp4`, `TAKE-2.mp4`… next to `TAKE.mkv`): a copy shares the take's
    /// sidecar and is the same take, so a report or an export counts it once.
    public static func takeFiles(among names: [String]) -> [String] {
        let matroska = Set(names.filter { $0.hasSuffix(".mkv") }.map { String($0.dropLast(4)) })
        func isCopy(_ name: String) -> Bool {
            guard name.hasSuffix(".mp4") else { return false }
            let base = String(name.dropLast(4))
            if matroska.contains(base) { return true }
            // TAKE-N.mp4: the remux's name when TAKE.mp4 was there already.
            guard let dash = base.lastIndex(of: "-"), base[base.index(after: dash)...].allSatisfy(\.isNumber),
                  base.index(after: dash) < base.endIndex else { return false }
            return matroska.contains(String(base[..<dash]))
        }
        return names.filter { ($0.hasSuffix(".mkv") || $0.hasSuffix(".mp4")) && !isCopy($0) }.sorted()
    }
}
