import DuoCore
import Foundation

//  Notes and flags on the take's clock as a run part (issue 39): a note during a take goes into its
//  sidecar at once (a killed run keeps it), its file's chapters and a `note` event; between takes it is
//  the session's, a line of duo-session-notes.jsonl in the takes' folder. Never on the subject view: the
//  presenter never hears of a note.
//
//   note/flag commands ─▶ NotesPart ─ NoteBook ─┬─▶ sidecar (notes), chapters (capture port)
//   takes starting ─────┘  (take, shot)         └─▶ session notes file, `note` event, log

/// Notes and flags.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class NotesPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        var codes = NoteCodeBook.standard
        init() {}
        init(_ options: Options) { codes = options.noteCodeBook }
    }

    private var book: NoteBook
    /// The take recording: its number, file and shot.
    private var take: (number: Int, path: String, shot: String?)?
    /// Ended takes whose chapters are being written (off the director), by file: how many, and the work.
    private var writing: [String: (count: Int, task: Task<String?, Never>)] = [:]

    init(_ settings: Settings) { book = NoteBook(codes: settings.codes) }

    /// Every note and flag of the run so far, in order (the replay part's chapters come from those made
    /// in a replay's span, by their wall clock).
    var allNotes: [TakeNote] { book.notes }

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        let flag: Bool, code: String?, text: String
        switch command {
        case .note(let c, let t): (flag, code, text) = (false, c, t)
        case .flag: (flag, code, text) = (true, nil, "")
        default: return false
        }
        let running = run.takes.current.flatMap { current in take.map { (current, $0) } }
            .flatMap { $0.take == $1.number ? $0 : nil }
        let note: TakeNote
        do throws(DuoError) {
            note = try book.make(flag: flag, code: code, text: text, at: run.clock.now(), wall: Date(),
                                 take: running.map { ($0.take, $0.start) }, shot: take?.shot ?? run.parts.shots.currentShotID)
        } catch {
            run.refuse(error.message)
            return true
        }
        if let running, let take {
            run.sidecars.note(take: running.take, path: take.path, note: note)
            await run.capture.setTakeChapters(TakeChapter.of(take: take.number, shot: take.shot, notes: book.notes(ofTake: take.number)))
        } else {
            writeSessionNote(note, run)
        }
        run.events.emit(.note(kind: note.kind, code: note.code, text: note.text, take: note.take, at: note.atSeconds,
                              wall: note.wall, shot: note.shot))
        let shown = TerminalText.escaped(note.text, limit: 80), at = String(format: "%.3f", note.atSeconds ?? 0)
        let line = switch (note.take, note.text.isEmpty) {
        case (let take?, true): tr("duo-capture: %1$s %2$s for take %3$s at %4$s s", note.kind, note.code, take, at)
        case (let take?, false): tr("duo-capture: %1$s %2$s for take %3$s at %4$s s: %5$s", note.kind, note.code, take, at, shown)
        case (nil, true): tr("duo-capture: %1$s %2$s for the session (between takes)", note.kind, note.code)
        case (nil, false): tr("duo-capture: %1$s %2$s for the session (between takes): %3$s", note.kind, note.code, shown)
        }
        run.log(line)
        return true
    }

    func takeStarted(_ number: Int, path: String, _ run: isolated RunDirector) async {
        let shot = run.parts.shots.currentShotID
        take = (number, path, shot)
        await run.capture.setTakeChapters(TakeChapter.of(take: number, shot: shot, notes: []))
    }

    /// The take's file is closed: the chapters of its notes and script headings go in (matroskamux wrote
    /// only its start; mp4mux none, so an MP4 take with notes gets them all, MP4ChapterWriter).
    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async {
        guard let t = take, t.number == result.number else { return }
        take = nil
        let notes = book.notes(ofTake: t.number)
        // The script headings passed are in the final sidecar, written just before the parts hear of the end.
        let headings = (try? TakeSidecar.read(TakeSidecar.path(forTake: result.path)))?.markersPassed ?? []
        guard !notes.isEmpty || !headings.isEmpty, run.files.exists(result.path) else { return }
        let chapters = TakeChapter.of(take: t.number, shot: t.shot, notes: notes, headings: headings)
        let length = Double(max(result.endRunningTime - result.startRunningTime, 0)) / 1e9, path = result.path
        // Written off the director (mkvpropedit, or an MP4 take's index copied once: mp4mux writes none), so
        // commands go on being carried out meanwhile; the run's end waits for it (finish).
        let container = run.plan.container
        let task = Self.writing(path, then: run.send) {
            switch container {
            case .mkv: ChapterWriter.write(chapters, lengthSeconds: length, into: path)
            case .mp4: MP4ChapterWriter.write(chapters, into: path)
            }
        }
        writing[path] = (chapters.count, task)
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        guard case .chaptersWritten(let path, let problem) = input, let w = writing.removeValue(forKey: path) else { return }
        written(problem, count: w.count, path: path, run)
    }

    /// The run ends only once every ended take's chapters are in its file (or said not to be).
    func finish(_ run: isolated RunDirector) async {
        let left = writing
        writing = [:]
        for (path, w) in left.sorted(by: { $0.key < $1.key }) { written(await w.task.value, count: w.count, path: path, run) }
    }

    private func written(_ problem: String?, count: Int, path: String, _ run: isolated RunDirector) {
        if let problem { return run.notify(problem, .warning, errorEvent: true) }
        run.sidecars.chaptersWritten(count, path: path)
    }

    /// `work` (a short process or a file copy) on a thread of its own, never the concurrency pool's; its
    /// result sent back to the director (`send`) and returned.
    private static func writing(_ path: String, then send: @escaping @Sendable (RunInput) -> Void,
                                _ work: @escaping @Sendable () -> String?) -> Task<String?, Never> {
        Task.detached {
            let problem = await withCheckedContinuation { done in
                DispatchQueue.global(qos: .utility).async { done.resume(returning: work()) }
            }
            send(.chaptersWritten(path: path, problem: problem))
            return problem
        }
    }

    /// A take killed mid-way in the record folder keeps its notes in its sidecar: their chapters go
    /// into its file now.
    func started(_ run: isolated RunDirector) async {
        guard let folder = run.recordDirectory ?? run.settings.recordDirectoryOption,
              FileManager.default.fileExists(atPath: folder) else { return }
        let recovered = ChapterWriter.recover(in: folder)
        for file in recovered.done { run.log(tr("duo-capture: the notes' chapters of %s (a take cut short) were written from its sidecar", file)) }
        for problem in recovered.problems { run.notify(problem, .warning) }
    }

    /// A note between takes: a line of the session notes file in the takes' folder (made if need be).
    private func writeSessionNote(_ note: TakeNote, _ run: isolated RunDirector) {
        if run.recordDirectory == nil {
            do throws(DuoError) { run.recordDirectory = try run.files.prepareDirectory(run.settings.recordDirectoryOption) } catch {
                return run.notify(.text("the session's note was not kept: %s", error.said), .warning, errorEvent: true)
            }
        }
        let path = (run.recordDirectory! as NSString).appendingPathComponent(TakeNote.sessionFile)
        var line = note.jsonLine
        line.append(UInt8(ascii: "\n"))
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            return run.notify(.text("the session's note was not kept: cannot write %s; check that the folder is writable", path), .warning, errorEvent: true)
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: line)
        } catch {
            run.notify(.text("the session's note was not kept: cannot write %s: %s", path, WriteProblem.said(error)), .warning, errorEvent: true)
        }
    }
}
