import DuoCore
import Foundation

//  The shot list as a run part (`--shots`): the walk through its shots (ShotWalk decides), the current shot's
//  card on the subject view, each take tied to its shot (file name, sidecar, events), marks, re-takes that
//  rewind the script (to the shot's `heading:` or its first take's start), the list reloaded when it is
//  saved (FileWatch), keeping the current shot by id, and the session's journal (ShotsPart+Journal.swift).
//
//   shot/mark/retake commands ─┐                       ┌─▶ take core (names, record, stop), sidecars (marks)
//   tick (saved?) ─────────────┼─▶ ShotsPart ─ walk ───┼─▶ presenter (the shot's card, rewind), script part
//   takes starting ────────────┘   (ShotWalk)          ├─▶ events (shot, shot-take, mark, shots-reloaded), HUD
//                                                      └─▶ journal (duo-capture-session.json, --resume)

/// The shot list walked.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class ShotsPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--shots`: the shot list walked, and its file (watched: saved, it is reloaded keeping the shot).
        var list: ShotList?
        var path: String?
        /// `--allow-any-script`: shot scripts outside the list's folder, of any kind.
        var allowAnyScript = false
        /// `--resume`: the journal of the session taken up again, and its folder.
        var resume: SessionJournal?
        var resumeFolder: String?
        init() {}
        init(list: ShotList?, path: String?, allowAnyScript: Bool = false, resume: SessionJournal? = nil) {
            self.list = list
            self.path = path
            self.allowAnyScript = allowAnyScript
            self.resume = resume
        }
        init(_ options: Options) {
            self.init(list: options.shots, path: options.shotsPath, allowAnyScript: options.allowAnyScript, resume: options.resumeJournal)
            resumeFolder = options.resumeFolder
        }
    }

    let settings: Settings
    /// The current shot, each shot's takes and marks (nil: no shot list in this run).
    var walk: ShotWalk?
    private var watch: FileWatch?
    /// The session's journal (ShotsPart+Journal.swift): the last one written, when, and a teleprompter
    /// place a resumed session still has to restore (its script may be loading).
    var journal = JournalState()
    /// Why a resumed session is not at its journal's shot (said once the run starts).
    private var resumeNotice: String?
    /// The record folder whose earlier takes were counted (ShotWalk.earlier).
    private var scannedFolder: String?
    /// The current shot's `heading:` is still to be shown (its script may be loading).
    private var headingPending = false

    init(_ settings: Settings) {
        self.settings = settings
        walk = settings.list.map(ShotWalk.init)
        watch = settings.path.map { FileWatch($0) }
        // --resume: the session's shot and takes from the start (a --record take may begin before `started`).
        if let journal = settings.resume { resumeNotice = walk?.resume(shot: journal.shot, takes: journal.takes) }
    }

    /// The graph plays: the first shot is announced (event, subject card, HUD), and the list's malformed
    /// note markup is said (it was kept from the subject). A resumed session is taken up first.
    func started(_ run: isolated RunDirector) async {
        guard walk != nil else { return }
        for problem in walk!.list.problems { run.log(tr("duo-capture: warning: shot list %s (kept from the subject)", problem)) }
        if let journal = settings.resume { await resume(journal, notice: resumeNotice, run) }
        await announce(trigger: settings.resume == nil ? "start" : "resume", run)
        await restorePlace(run)
    }

    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {
        guard walk != nil else { return }
        await showHeading(run)
        await restorePlace(run)
        await saveJournalIfMoved(run, at: now)
        guard watch?.due(at: now) == true else { return }
        await reloadIfSaved(now, run)
    }

    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async { await saveJournal(run) }

    /// The run's end: the journal keeps the teleprompter's last place (when this run wrote one).
    func finish(_ run: isolated RunDirector) async { if journal.writtenAt != nil { await saveJournal(run) } }

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        switch command {
        case .shot, .mark, .retake: break
        default: return false
        }
        guard walk != nil else {
            run.refuse("no shot list in this run; give --shots FILE (a Markdown list of '## 01 — Title' shots)")
            return true
        }
        let takes = run.takes
        switch command {
        case .shot(let next, let id):
            if takes.isBusy {
                run.refuse("take \(takes.pending?.take ?? takes.current?.take ?? 0) is \(takes.pending != nil ? "counting down" : "recording"); stop it before moving to another shot")
                return true
            }
            let move = id.map { walk!.go(to: $0) } ?? walk!.step(forward: next ?? true)
            switch move {
            case .refuse(let why): run.refuse("shot: \(why)")
            case .moved: await announce(trigger: "command", run)
            }
            await saveJournal(run)
        case .mark(let good, let take):
            mark(good ? .good : .noGood, take: take, by: "operator", run)
            await saveJournal(run)
        case .retake:
            // The key stops a running take and records again; a remote only between takes (RemoteRetake).
            switch RemoteRetake.decide(remote: run.commandSource?.isRemote ?? false, countingDown: takes.pending != nil,
                                       recording: takes.current?.take) {
            case .refuse(let why):
                run.refuse(why)
                return true
            case .stopThenRecord:
                let running = takes.current!.take
                await run.carry(run.takes.stop())
                if walk?.takes.last(where: { $0.take == running })?.mark == nil { mark(.noGood, take: running, by: "retake", run) }
            case .record:
                if let replaced = walk?.retakeReplaces { mark(.noGood, take: replaced.take, by: "retake", run) }
            }
            await run.record()
        default: break
        }
        return true
    }

    /// The current shot's id (nil without a shot list): a note's shot.
    var currentShotID: String? { walk?.current.id }

    /// The shot and its take number for a take about to begin (nil without a shot list).
    /// `folder`: the record folder, whose takes of this shot list from earlier sessions are numbered on from.
    func naming(_ take: Int, folder: String) -> (shot: String, shotTake: Int)? {
        guard walk != nil else { return nil }
        if scannedFolder != folder {
            scannedFolder = folder
            walk!.earlier = Self.earlierTakes(in: folder, list: settings.path.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        }
        return (walk!.current.id, walk!.nextShotTake)
    }

    /// The highest take number of each shot in `folder`'s sidecars of the shot list `list`.
    static func earlierTakes(in folder: String, list: String?) -> [String: Int] {
        var earlier: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".json") && name.contains("-shot") {
            guard let s = try? TakeSidecar.read((folder as NSString).appendingPathComponent(name)), s.shotList == list,
                  let shot = s.shot, let n = s.shotTake else { continue }
            earlier[shot] = max(earlier[shot] ?? 0, n)
        }
        return earlier
    }

    /// A take of the current shot is about to count down or begin: the teleprompter goes to where the
    /// shot starts (its `heading:`, else where its first take began; ShotWalk decides).
    func rewindForTake(_ run: isolated RunDirector) async {
        // A script still being opened (the shot's own) starts from its beginning, or its heading, once it is on screen.
        guard let walk, run.parts.script.loading == nil, let place = await run.presenter.place(at: run.clock.now()) else { return }
        switch walk.rewind(script: URL(fileURLWithPath: place.script).standardizedFileURL.path, headings: await run.presenter.headings) {
        case .stay: break
        case .to(let position): await run.presenter.rewind(to: position, at: run.clock.now())
        case .headingMissing(let title):
            run.notify(.text("shot %s: heading: %s is not a heading of %s; the script stays where it is", walk.current.id, title, place.script))
        }
    }

    /// Take `take` begins into `path` with the teleprompter at `place`: it is the current shot's (for its
    /// sidecar; nil without a shot list).
    func takeBegins(_ take: Int, path: String, place: ScriptPlace?) -> (id: String, take: Int, list: String?)? {
        guard walk != nil else { return nil }
        // By its absolute path: the journal's takes match the script however a later run names it.
        let t = walk!.takeBegan(take, place: place.map {
            ScriptPlace(script: URL(fileURLWithPath: $0.script).standardizedFileURL.path, position: $0.position, length: $0.length,
                        unitsAreWords: $0.unitsAreWords, line: $0.line)
        })
        walk!.setFile(path, take: take)
        let list = settings.path.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        return (t.shot, t.shotTake, list)
    }

    func takeStarted(_ number: Int, path: String, _ run: isolated RunDirector) async {
        guard let t = walk?.takes.last(where: { $0.take == number }) else { return }
        run.events.emit(.shotTake(take: t.take, shot: t.shot, shotTake: t.shotTake, file: t.file))
        await saveJournal(run)
    }

    /// The HUD's shot lines: the current shot with its takes, the next one, the shot's private notes.
    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {
        guard let walk else { return }
        let shot = walk.current, taken = walk.takes(of: shot.id)
        let good = taken.filter { $0.mark == .good }.count, noGood = taken.filter { $0.mark == .noGood }.count
        // Each item a phrase of its own; the shot list's id and title as written.
        var items = [trn("shot %1$s %2$s  (%3$d/%4$d)  %5$d take", "shot %1$s %2$s  (%3$d/%4$d)  %5$d takes", taken.count,
                         shot.id, shot.title, walk.index + 1, walk.list.shots.count, taken.count)]
        if good + noGood > 0 { items[0] += " " + tr("(%1$d good, %2$d no good)", good, noGood) }
        if let framing = shot.framing {
            // The shot list's keyword (single, interview) in the operator's words, as the framing line says it.
            let words = Translation.operatorLanguage.text(FramingMode(rawValue: framing.rawValue)?.words ?? framing.rawValue)
            items.append(words + (shot.aspect.map { " \($0)" } ?? ""))
        }
        else if let aspect = shot.aspect { items.append("\(aspect)") }
        if let seconds = shot.expectedSeconds {
            items.append(tr("length %s", "\(Int(seconds) / 60):\(String(format: "%02d", Int(seconds) % 60))"))
        }
        f.shot = items.joined(separator: "  ")
        f.nextShot = walk.next.map { next in
            let count = walk.takes(of: next.id).count
            return trn("next %1$s %2$s  %3$d take  (N next, B back, G good, X no good, A re-take)",
                       "next %1$s %2$s  %3$d takes  (N next, B back, G good, X no good, A re-take)", count, next.id, next.title, count)
        } ?? tr("last shot  (B back, G good, X no good, A re-take)")
        f.shotNotes = shot.notes
    }

    /// Marks a take (the latest by default): the walk, its sidecar, a `mark` event.
    private func mark(_ mark: ShotWalk.Mark, take: Int?, by: String, _ run: isolated RunDirector) {
        switch walk?.mark(mark, take: take) {
        case .success(let t)?:
            if let file = t.file { run.sidecars.mark(take: t.take, path: file, mark: mark.rawValue) }
            run.events.emit(.mark(take: t.take, shot: t.shot, shotTake: t.shotTake, mark: mark.rawValue, file: t.file, by: by))
            run.log(tr("duo-capture: take %1$s (shot %2$s take %3$s) marked %4$s", t.take, t.shot, t.shotTake, mark.rawValue))
        case .failure(let why)?: run.refuse("mark: \(why.message)")
        case nil: break
        }
    }

    /// The current shot is said: a `shot` event, the log, its card on the subject view, and its script
    /// opened when it names one that is not on screen.
    private func announce(trigger: String, _ run: isolated RunDirector) async {
        guard let walk else { return }
        let shot = walk.current
        await run.presenter.showShot(shot.subject, at: run.clock.now())
        run.events.emit(.shot(id: shot.id, title: shot.title, index: walk.index + 1, count: walk.list.shots.count,
                              takes: walk.takes(of: shot.id).count, next: walk.next?.id, trigger: trigger))
        run.log(walk.next.map { tr("duo-capture: shot %1$s (%2$s of %3$s): %4$s; next %5$s %6$s", shot.id, walk.index + 1, walk.list.shots.count, shot.title, $0.id, $0.title) }
                ?? tr("duo-capture: shot %1$s (%2$s of %3$s): %4$s; the last shot", shot.id, walk.index + 1, walk.list.shots.count, shot.title))
        if let script = shot.script {
            let path = ShotScripts.resolve(script, listPath: settings.path ?? "./shots.md")
            if path != run.parts.script.path { await run.parts.script.open(path, run) }
        }
        headingPending = shot.heading != nil
        await showHeading(run)
    }

    /// A shot that names its `heading:` shows the script there as soon as the script is on screen (standby).
    private func showHeading(_ run: isolated RunDirector) async {
        guard headingPending, run.parts.script.loading == nil, !run.takes.isBusy else { return }
        headingPending = false
        await rewindForTake(run)
    }

    /// The shot list saved while the run goes on is read again: the current shot is kept by id (a removed
    /// one falls to the next, with a notice); a save that does not parse keeps the old list and says why.
    private func reloadIfSaved(_ now: Int64, _ run: isolated RunDirector) async {
        guard let path = watch?.path, watch?.look(at: now) != nil else { return }
        let list: ShotList
        do throws(DuoError) {
            list = try ShotList.load(path: path)
            try ShotScripts.check(list, listPath: path, allowAny: settings.allowAnyScript)
        } catch {
            return run.notify(.text("shot list %s was saved but cannot be read (%s); the previous list stays", path, error.said), .plain, errorEvent: true)
        }
        let before = walk!.current.subject
        // The code book is the run's from its start (the page and the note field offer it): said, not changed.
        if list.noteCodes != walk!.list.noteCodes {
            run.log(tr("duo-capture: shot list %s: its note-codes: line is read at the start of a run; the notes keep their codes until the next run", path))
        }
        let notice = walk!.reload(list)
        for problem in list.problems { run.log(tr("duo-capture: warning: shot list %s (kept from the subject)", problem)) }
        run.events.emit(.shotsReloaded(count: list.shots.count, current: walk!.current.id, notice: notice))
        run.log(trn("duo-capture: shot list %s reloaded; %d shot", "duo-capture: shot list %s reloaded; %d shots", list.shots.count, path, list.shots.count))
        if let notice { run.notify(notice, .plain) }
        if notice != nil || before != walk!.current.subject { await announce(trigger: "reload", run) }
        await saveJournal(run)
        await run.showFigures()
    }
}
