import DuoCore
import Foundation

//  The replay buffer as a run part (`--replay SECONDS`, issue 39): it turns the buffer on once the graph
//  plays, and on `save-replay` (the control socket, the Y key, the control bar, the web remote, OSC)
//  has the media write it out as a replay of its own in the takes' folder. The write runs off the
//  director; its result comes back as an input: the sidecar (marked replay, with the wall-clock span and
//  the notes made in it), the `replay-saved` event and a log line. One save at a time: a second while
//  one is written is refused (said, not queued).
//
//   started ─▶ ReplayPart ─▶ capture (ReplayPort: startReplay)
//   save-replay ─▶ ReplayPart ─▶ capture.saveReplay (off the director) ─▶ .replayWritten ─▶ sidecar, event, log
//                     └── notes in the span (NotesPart) ─▶ chapters

/// The replay buffer.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class ReplayPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--replay SECONDS`; nil: no buffer.
        var seconds: Int?
        init() {}
        init(_ options: Options) { seconds = options.replaySeconds }
    }

    /// A save being written: its number, file, shot, the moment it was asked for (running time and wall
    /// clock, to turn the span into wall-clock times), the notes its chapters came from, and its task.
    /// When a save was asked for: running time and wall clock together.
    ///
    /// Thread: value type, Sendable.
    struct AskedAt: Sendable {
        let running: Int64
        let wall: Date
    }

    private struct Pending {
        let number: Int
        let path: String
        let shot: String?
        let askedAt: AskedAt
        let task: Task<Result<ReplayClip, DuoError>, Never>
    }

    private let settings: Settings
    private var isOn = false
    private var saved = 0
    private var pending: Pending?

    init(_ settings: Settings) { self.settings = settings }

    private func port(_ run: isolated RunDirector) -> (any ReplayPort)? { run.capture as? any ReplayPort }

    func started(_ run: isolated RunDirector) async {
        guard let seconds = settings.seconds else { return }
        guard let port = port(run) else { return run.notify(.text("the replay buffer is not available in this run"), .warning, errorEvent: true) }
        do throws(DuoError) {
            try await port.startReplay(seconds: seconds)
            isOn = true
            run.log(tr("duo-capture: the replay buffer keeps the last %s s (save it with {\"cmd\":\"save-replay\"} or the Y key)", seconds))
        } catch {
            run.notify(.text("the replay buffer did not start: %s; the run goes on without it", error.said), .warning, errorEvent: true)
        }
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        guard case .replayFailed(let why) = event else { return false }
        isOn = false
        run.notify(why, .warning, errorEvent: true)
        return true
    }

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        guard command == .saveReplay else { return false }
        guard settings.seconds != nil, let port = port(run) else {
            refuse(.text("save-replay: there is no replay buffer; start duo-capture with --replay SECONDS (1 to 300)"), run)
            return true
        }
        guard isOn else {
            refuse(.text("save-replay: the replay buffer is off (it failed earlier in this run; see its error)"), run)
            return true
        }
        guard pending == nil else {
            refuse(.text("save-replay: a replay is being saved; save again once it is written (the replay-saved event)"), run)
            return true
        }
        if run.recordDirectory == nil {
            do throws(DuoError) { run.recordDirectory = try run.files.prepareDirectory(run.settings.recordDirectoryOption) } catch {
                refuse(.text("save-replay: %s", error.said), run)
                return true
            }
        }
        let shot = run.parts.shots.currentShotID
        let naming = TakeNaming(directory: run.recordDirectory!, fileExtension: "mkv", shot: shot)
        let number = saved + 1
        let files = run.files
        let path = naming.path(replay: number, at: Date(), exists: { files.exists($0) })
        let askedAt = AskedAt(running: run.clock.now(), wall: Date())
        let notes = run.parts.notes.allNotes
        let task = Self.saving(port, to: path, number: number, notes: notes, askedAt: askedAt, then: run.send)
        pending = Pending(number: number, path: path, shot: shot, askedAt: askedAt, task: task)
        return true
    }

    /// A save refused: an `error` event (English) for the sender, and the HUD's line (the Y key, the
    /// bar's button: the operator reads it there).
    private func refuse(_ said: Said, _ run: isolated RunDirector) {
        run.refuse(said.english)
        run.face.say(said.text)
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        guard case .replayWritten(let result, let number) = input, let p = pending, p.number == number else { return }
        written(result, p, run)
    }

    /// A save still being written when the run ends is waited for, and said.
    func finish(_ run: isolated RunDirector) async {
        guard let p = pending else { return }
        written(await p.task.value, p, run)
    }

    private func written(_ result: Result<ReplayClip, DuoError>, _ p: Pending, _ run: isolated RunDirector) {
        pending = nil
        switch result {
        case .failure(let error):
            run.notify(error.said, .warning, errorEvent: true)
        case .success(let clip):
            saved = p.number
            let start = Self.wall(clip.startRunningTime, p.askedAt), end = Self.wall(clip.endRunningTime, p.askedAt)
            let notes = run.parts.notes.allNotes.filter { note in TakeSidecar.date(note.wall).map { (start...end).contains($0) } ?? false }
            run.sidecars.replay(clip, number: p.number, bufferSeconds: settings.seconds ?? 0, span: (start, end), notes: notes,
                                chapters: notes.count + 1, shot: p.shot)
            let startText = TakeSidecar.timestamp(start), endText = TakeSidecar.timestamp(end)
            run.events.emit(.replaySaved(file: clip.path, seconds: (clip.seconds * 1000).rounded() / 1000, start: startText, end: endText,
                                         frames: clip.videoFrames, chapters: notes.count + 1))
            run.log(tr("duo-capture: replay %1$s saved: %2$s (%3$s s, %4$s to %5$s)", p.number, clip.path,
                       String(format: "%.1f", clip.seconds), startText, endText))
            if let b = clip.buffer {
                func kB(_ bytes: Int) -> String { "\((bytes + 512) / 1024)" }
                run.log(tr("duo-capture: the replay buffer holds %1$s kB (%2$s s); at most %3$s kB so far, its cap %4$s kB",
                           kB(b.bytes), String(format: "%.1f", b.heldSeconds), kB(b.peakBytes), kB(b.byteCap)))
            }
        }
    }

    /// The save's task: written off the director, its result sent back to it (`send`) and returned.
    private static func saving(_ port: any ReplayPort, to path: String, number: Int, notes: [TakeNote], askedAt: AskedAt,
                               then send: @escaping @Sendable (RunInput) -> Void) -> Task<Result<ReplayClip, DuoError>, Never> {
        Task.detached {
            let result = await save(port, to: path, number: number, notes: notes, askedAt: askedAt)
            send(.replayWritten(result, number: number))
            return result
        }
    }

    /// Has the media write the buffer into `path`, its chapters from `notes` in the span. Off the director.
    private static func save(_ port: any ReplayPort, to path: String, number: Int, notes: [TakeNote],
                             askedAt: AskedAt) async -> Result<ReplayClip, DuoError> {
        let chapters: @Sendable (Int64, Int64) -> [TakeChapter] = { start, end in
            Self.chapters(replay: number, notes: notes, span: Self.wall(start, askedAt)...Self.wall(end, askedAt))
        }
        do throws(DuoError) {
            return .success(try await port.saveReplay(to: path, chaptersAt: chapters))
        } catch {
            return .failure(error)
        }
    }

    /// Running time `t` on the wall clock, from the moment the save was asked for.
    static func wall(_ t: Int64, _ askedAt: AskedAt) -> Date {
        askedAt.wall.addingTimeInterval(Double(t - askedAt.running) / 1e9)
    }

    /// The replay's chapters: its start, then each note and flag made within `span` (wall clock), at
    /// its time from the span's start.
    static func chapters(replay number: Int, notes: [TakeNote], span: ClosedRange<Date>) -> [TakeChapter] {
        let within = notes.compactMap { note -> TakeChapter? in
            guard let wall = TakeSidecar.date(note.wall), span.contains(wall) else { return nil }
            return TakeChapter(atSeconds: (wall.timeIntervalSince(span.lowerBound) * 1000).rounded() / 1000, title: note.title)
        }
        return [TakeChapter(atSeconds: 0, title: "Replay \(number)")] + within.sorted { $0.atSeconds < $1.atSeconds }
    }
}
