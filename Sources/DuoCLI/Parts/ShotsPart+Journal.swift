import DuoCore
import Foundation

//  The shot-list session's journal (SessionJournal, `duo-capture-session.json` in the record folder): written
//  atomically as the session goes (a take begun or ended, a shot moved to, a mark, the list reloaded, and the
//  teleprompter's place at most once a second while it moves), and read back by `--resume`, which takes the
//  session up: its shot, its takes (numbers go on), and the teleprompter's place once its script is on screen.
//
//   takes, marks, shot moves, ticks ─▶ ShotsPart ─▶ SessionJournal.write (atomic) ─▶ record folder
//   --resume (Options) ─▶ started ─▶ ShotWalk.resume, TakeSchedule.continueNumbering, presenter.rewind

/// What the shots part knows of its journal.
///
/// Thread: value type; owned by the ShotsPart on the run director's actor.
struct JournalState {
    /// When this run last wrote it (nil: not yet; a new session leaves an old journal alone until then).
    var writtenAt: Int64?
    /// The teleprompter position last written.
    var position: Double?
    /// A resumed session's teleprompter place, restored once its script is on screen.
    var pendingPlace: (script: String, position: Double)?
    /// The journal's script was opened for the place (no script was on screen).
    var openedForPlace = false
    /// A write failed (said once).
    var failed = false
}

extension ShotsPart {
    /// The journal's folder: the record folder, once there is one (or the resumed session's).
    private func journalFolder(_ run: isolated RunDirector) -> String? {
        run.recordDirectory ?? settings.resume.map { _ in settings.resumeFolder ?? SessionSetup.defaultRecordDirectory() }
    }

    private static func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    /// `--resume` (the walk took the journal's shot and takes, and take numbers went on after its last,
    /// when the run was made): said, and its teleprompter place waits to be restored.
    func resume(_ journal: SessionJournal, notice: String?, _ run: isolated RunDirector) async {
        if let notice { run.notify(notice) }
        if let script = journal.script, let position = journal.position { self.journal.pendingPlace = (script, position) }
        let current = walk.map { "shot \($0.current.id), take \($0.nextShotTake) next" } ?? ""
        run.notify(.text("resuming the shot-list session of %s: %s, %s takes so far", journal.updated, current, journal.takes.count), .plain)
        self.journal.writtenAt = run.clock.now()
    }

    /// A resumed session's teleprompter place, once its script is on screen (opened from the journal when
    /// no script is); another script on screen keeps its own place, and the log says so.
    func restorePlace(_ run: isolated RunDirector) async {
        guard let want = journal.pendingPlace, run.parts.script.loading == nil else { return }
        let onScreen = run.parts.script.path.map(Self.absolute)
        if onScreen == Self.absolute(want.script) {
            journal.pendingPlace = nil
            await run.presenter.rewind(to: want.position, at: run.clock.now())
            let place = await run.presenter.place(at: run.clock.now())
            run.log(tr("duo-capture: the teleprompter goes on at %s line %s", want.script, place?.line ?? 1))
            await run.status(trigger: "resume")
        } else if onScreen == nil, !journal.openedForPlace, FileManager.default.isReadableFile(atPath: want.script) {
            journal.openedForPlace = true
            await run.parts.script.open(want.script, run)
        } else {
            journal.pendingPlace = nil
            run.log(onScreen.map { tr("duo-capture: the resumed session's teleprompter place (%s) is not restored: %s is on screen", want.script, $0) }
                    ?? tr("duo-capture: the resumed session's teleprompter place (%s) is not restored: no script is on screen", want.script))
        }
    }

    /// Writes the journal now: nothing without a shot list or a record folder, and nothing before a new
    /// session's first take (a journal left by another session is kept until then, as its offer says).
    func saveJournal(_ run: isolated RunDirector) async {
        guard let walk, journal.writtenAt != nil || !walk.takes.isEmpty, let list = settings.path,
              let folder = journalFolder(run), FileManager.default.fileExists(atPath: folder) else { return }
        let now = run.clock.now()
        let place = await run.presenter.place(at: now)
        var entry = SessionJournal(shotList: Self.absolute(list), shot: walk.current.id, takes: walk.takes, place: place)
        entry.script = entry.script.map(Self.absolute)
        // A place still to be restored is the session's place.
        if let pending = journal.pendingPlace { entry.script = pending.script; entry.position = pending.position }
        do throws(DuoError) {
            try entry.write(to: SessionJournal.path(inFolder: folder))
            journal.writtenAt = now
            journal.position = entry.position
        } catch {
            if !journal.failed { run.notify(.text("%s; --resume cannot go on with this session", error.said)) }
            journal.failed = true
        }
    }

    /// The teleprompter moved since the journal was written (at most once a second, once this run wrote one).
    func saveJournalIfMoved(_ run: isolated RunDirector, at now: Int64) async {
        guard let last = journal.writtenAt, now - last >= 1_000_000_000, journal.pendingPlace == nil,
              let place = await run.presenter.place(at: now), abs(place.position - (journal.position ?? -1)) >= 0.5 else { return }
        await saveJournal(run)
    }
}
