import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

/// `duo-capture report DIR`: writes DIR/report.html for the takes in DIR (every .mkv and .mp4, with their
/// sidecars when present). A take that does not decode is in the report as damaged, never left out.
///
/// Thread: main task; synchronous (decodes each take).
enum ReportCommand {
    static func run(_ arguments: [String]) throws(DuoError) -> String {
        // DIR [--json] [--shots FILE]: with a shot list (given, or named by the takes' sidecars) the takes
        // are grouped by shot; --json prints the same for scripts.
        var rest = arguments, json = false, shotsPath: String?
        if let i = rest.firstIndex(of: "--json") { json = true; rest.remove(at: i) }
        if let i = rest.firstIndex(of: "--shots") {
            guard i + 1 < rest.count else { throw .usage(tr("report: --shots needs a FILE, the shot list the takes were recorded with")) }
            shotsPath = rest[i + 1]
            rest.removeSubrange(i...(i + 1))
        }
        guard rest.count == 1, let folder = rest.first, !folder.hasPrefix("-") else {
            throw .usage(tr("usage: duo-capture report DIR [--json] [--shots FILE] (DIR: a folder of takes, such as ~/Videos/duo-capture)"))
        }
        var list = try shotsPath.map { path throws(DuoError) in try ShotList.load(path: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .input(tr("%s is not a folder; give the folder the takes were recorded into (--record-dir)", folder))
        }
        let names = TakeNaming.takeFiles(among: (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        guard !names.isEmpty else { throw .input(tr("%s holds no takes (.mkv or .mp4)", folder)) }
        // The thumbnails are made in one scratch folder (TMPDIR's duo-report-…), removed at the end and
        // also when a signal ends the command half-way: an interrupted report leaves nothing behind.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("duo-report-\(UUID().uuidString)").path
        let names_ = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"]
        let signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { signal in
            removeScratch(scratch)
            let line = Array(tr("duo-capture: report interrupted by %s; no report written", names_[signal] ?? "signal \(signal)").appending("\n").utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(128 + signal)
        }
        defer {
            signals.cancel()
            removeScratch(scratch)
        }
        // Made once the signals are watched, so no signal can come between the two.
        do { try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true) } catch {
            throw .runtime(tr("cannot make a scratch folder in %s; check TMPDIR and free space", FileManager.default.temporaryDirectory.path))
        }
        // The takes are read with English messages: why one is damaged (GStreamer's words among them) goes
        // into report --json, which reads the same in every language (the page's words around it are translated).
        let takes = Gettext.inEnglish { names.map { name -> SessionReport.Take in
            let file = (folder as NSString).appendingPathComponent(name)
            // A sidecar that is there but does not read (a value out of its type's range, a cut-off
            // file) is said on the take, like one whose values no take can have.
            let sidecarPath = TakeSidecar.path(forTake: file)
            var sidecar: TakeSidecar?, unreadable: String?
            var info = stat()
            if lstat(sidecarPath, &info) == 0 {
                do throws(DuoError) { sidecar = try TakeSidecar.read(sidecarPath) } catch { unreadable = tr("it does not read (%s)", error.message) }
            }
            let a = TakeAnalysis.analyse(file, scratch: scratch)
            var take = SessionReport.Take(file: file, sidecar: sidecar, thumbnails: a.thumbnails, levels: a.levels, seconds: a.seconds,
                                          frames: a.frames, width: a.width, height: a.height, damage: a.damage)
            if let unreadable { take.sidecarDamage = unreadable }
            return take
        } }
        if list == nil, let named = takes.lazy.compactMap({ $0.sidecar?.shotList }).first {
            // The list the takes name, when it is still there: its shots never recorded are listed too.
            do throws(DuoError) { list = try ShotList.load(path: named) } catch {
                FileHandle.standardError.write(Data(tr("duo-capture: warning: the takes' shot list %s cannot be read (%s); shots never recorded are not listed; give --shots FILE", named, error.message).appending("\n").utf8))
            }
        }
        // The notes made between takes (duo-session-notes.jsonl), when the session has any.
        let sessionNotes = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(TakeNote.sessionFile))
            .map { TakeNote.readSession($0).notes } ?? []
        let out = (folder as NSString).appendingPathComponent("report.html")
        do {
            try Data(SessionReport.html(folder: folder, takes: takes, list: list, sessionNotes: sessionNotes).utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw .runtime(tr("cannot write %s; check that the folder is writable", out))
        }
        if json { return SessionReport.json(folder: folder, takes: takes, list: list, sessionNotes: sessionNotes) }
        let damaged = takes.filter { $0.damage != nil }.count
        let sidecars = takes.filter { $0.sidecarDamage != nil }.count
        return trn("%s: %d take", "%s: %d takes", takes.count, out, takes.count) + (damaged > 0 ? tr(", %d damaged", damaged) : "")
            + (sidecars > 0 ? trn(", %d damaged sidecar left out", ", %d damaged sidecars left out", sidecars, sidecars) : "")
    }

    /// Removes the scratch folder, again while something (a graph still writing a thumbnail as a signal
    /// came) puts a file back in it.
    private static func removeScratch(_ path: String) {
        for _ in 0..<50 {
            try? FileManager.default.removeItem(atPath: path)
            if !FileManager.default.fileExists(atPath: path) { return }
            usleep(10_000)
        }
    }
}
