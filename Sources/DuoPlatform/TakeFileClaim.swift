import DuoCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Take files are claimed before they are written: created exclusively (O_EXCL), so two runs recording
/// into one folder in the same second never share a file; the name moves on (`-2`, `-3`, …) instead.
///
/// Thread: any; synchronous file-system calls.
public enum TakeFileClaim {
    public static func claim(_ naming: TakeNaming, take number: Int, at date: Date = Date()) -> String {
        naming.path(take: number, at: date) { candidate in
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { close(fd); return false }
            // Taken (by a file of ours, another run's, or the user's); any other failure is the take's to report.
            return errno == EEXIST
        }
    }
}

/// A join's output claimed before it is written (issue 35: `join` silently replaced an existing file).
/// The claim is the join's journal (`….join.json`), created exclusively: the default name moves on
/// (`…-joined-2.mkv`, `-3`, …) while a file or another join holds it, except that a journal left by a join
/// of the very same segments (one a kill cut short) is taken over, so `join` finishes it under its name.
/// A name the user gave (`--output`) is refused when it exists, unless `replace` (`--force`). The joined
/// file itself is put in place without replacing anything (`SegmentJoiner`), so a file that appears
/// meanwhile is kept too.
///
/// Thread: any; synchronous file-system calls.
public enum JoinOutputClaim {
    /// The default output for `segments`, claimed: `…-joined.mkv`, else `…-joined-2.mkv`, ….
    public static func claim(segments: [String]) throws(DuoError) -> String {
        let base = SegmentJoin.outputPath(forFirstSegment: segments.first ?? "take.mkv")
        let ext = (base as NSString).pathExtension, stem = (base as NSString).deletingPathExtension
        for n in 1...999 {
            let candidate = n == 1 ? base : "\(stem)-\(n)" + (ext.isEmpty ? "" : ".\(ext)")
            guard !FileManager.default.fileExists(atPath: candidate) else { continue }
            let journal = SegmentJoin.journalPath(forOutput: candidate)
            if try create(journal, Self.journal(segments, output: candidate)) { return candidate }
            if SegmentJoin.readJournal(journal)?.segments == segments { return candidate }
        }
        throw .runtime(.text("join: %s and 998 more names after it are taken; give --output FILE", base))
    }

    /// The output the user named: claimed when it is free; an existing one only with `replace`.
    public static func claim(given path: String, segments: [String], replace: Bool) throws(DuoError) -> String {
        if FileManager.default.fileExists(atPath: path), !replace {
            throw .usage(.text("join: %s exists; give another --output, or --force to replace it", TerminalText.escaped(path, limit: 200)))
        }
        let journal = SegmentJoin.journalPath(forOutput: path)
        guard try create(journal, Self.journal(segments, output: path)) || replace || SegmentJoin.readJournal(journal)?.segments == segments else {
            throw .usage(.text("join: another join is writing %s (%s); give another --output", TerminalText.escaped(path, limit: 200), journal))
        }
        return path
    }

    /// The journal's first words: already a whole journal (a kill right after the claim is offered again).
    private static func journal(_ segments: [String], output: String) -> [UInt8] {
        let journal = SegmentJoin.Journal(segments: segments, output: output, keepSegments: false, command: "")
        return Array((try? JSONEncoder().encode(journal)) ?? Data())
    }

    /// Creates `path` exclusively with `contents` (true), or says it exists (false); any other failure is an error.
    private static func create(_ path: String, _ contents: [UInt8]) throws(DuoError) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd >= 0 {
            _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            return true
        }
        if errno == EEXIST { return false }
        let reason = String(cString: strerror(errno))
        throw .runtime(.text("join: cannot create %s (%s); check the folder", TerminalText.escaped(path, limit: 200), reason))
    }
}
