import DuoCore
import DuoMedia
import DuoRender
import Foundation

//  The run director's shot list (`--shots`): the walk through its shots (ShotWalk decides), the current
//  shot's card on the subject view, each take tied to its shot (file name, sidecar, events), marks, re-takes,
//  and the list reloaded when it is saved, keeping the current shot by id.
//
//  Thread: the run director's actor.

extension RunDirector {
    /// The graph plays: the first shot is announced (event, subject card, HUD), and the list's malformed
    /// note markup is said (it was kept from the subject).
    func shotsStarted() async {
        guard let walk = shotWalk else { return }
        for problem in walk.list.problems { log("duo-capture: warning: shot list \(problem) (kept from the subject)") }
        await announceShot(trigger: "start")
    }

    func handleShot(_ command: ControlCommand) async {
        guard shotWalk != nil else {
            return refuse("no shot list in this run; give --shots FILE (a Markdown list of '## 01 — Title' shots)")
        }
        switch command {
        case .shot(let next, let id):
            if takes.isBusy {
                return refuse("take \(pending?.take ?? current?.take ?? 0) is \(pending != nil ? "counting down" : "recording"); stop it before moving to another shot")
            }
            let move = id.map { shotWalk!.go(to: $0) } ?? shotWalk!.step(forward: next ?? true)
            switch move {
            case .refuse(let why): refuse("shot: \(why)")
            case .moved: await announceShot(trigger: "command")
            }
        case .mark(let good, let take):
            mark(good ? .good : .noGood, take: take, by: "operator")
        case .retake:
            if pending != nil { return refuse("retake: a countdown is running; it records the shot already") }
            if current != nil {
                let running = current!.take
                await carry(takes.stop())
                if shotWalk?.takes.last(where: { $0.take == running })?.mark == nil { mark(.noGood, take: running, by: "retake") }
            } else if let replaced = shotWalk?.retakeReplaces {
                mark(.noGood, take: replaced.take, by: "retake")
            }
            await record()
        default: break
        }
    }

    /// Marks a take (the latest by default): the walk, its sidecar, a `mark` event.
    func mark(_ mark: ShotWalk.Mark, take: Int?, by: String) {
        switch shotWalk?.mark(mark, take: take) {
        case .success(let t)?:
            if let file = t.file { sidecars.mark(take: t.take, path: file, mark: mark.rawValue) }
            events.emit(.mark(take: t.take, shot: t.shot, shotTake: t.shotTake, mark: mark.rawValue, file: t.file, by: by))
            log("duo-capture: take \(t.take) (shot \(t.shot) take \(t.shotTake)) marked \(mark.rawValue)")
        case .failure(let why)?: refuse("mark: \(why.message)")
        case nil: break
        }
    }

    /// The current shot is said: a `shot` event, the log, its card on the subject view, and its script
    /// opened when it names one that is not on screen.
    func announceShot(trigger: String) async {
        guard let walk = shotWalk else { return }
        let shot = walk.current
        await presenter.showShot(shot.subject, at: clock.now())
        events.emit(.shot(id: shot.id, title: shot.title, index: walk.index + 1, count: walk.list.shots.count,
                          takes: walk.takes(of: shot.id).count, next: walk.next?.id, trigger: trigger))
        log("duo-capture: shot \(shot.id) (\(walk.index + 1) of \(walk.list.shots.count)): \(shot.title)"
            + (walk.next.map { "; next \($0.id) \($0.title)" } ?? "; the last shot"))
        if let script = shot.script {
            let base = ((settings.shotsPath ?? ".") as NSString).deletingLastPathComponent
            let path = script.hasPrefix("/") ? script : (base as NSString).appendingPathComponent(script)
            if path != scriptPath { await openScript(path, at: clock.now()) }
        }
    }

    /// The shot and its take number for a take about to begin (nil without a shot list).
    func shotNaming(_ take: Int) -> (shot: String, shotTake: Int)? {
        shotWalk.map { ($0.current.id, $0.nextShotTake) }
    }

    /// Take `take` began into `path`: it is the current shot's.
    func shotTakeBegan(_ take: Int, path: String) -> (id: String, take: Int, list: String?)? {
        guard shotWalk != nil else { return nil }
        let t = shotWalk!.takeBegan(take)
        shotWalk!.setFile(path, take: take)
        let list = settings.shotsPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        return (t.shot, t.shotTake, list)
    }

    func shotTakeAnnounced(_ take: Int) {
        guard let t = shotWalk?.takes.last(where: { $0.take == take }) else { return }
        events.emit(.shotTake(take: t.take, shot: t.shot, shotTake: t.shotTake, file: t.file))
    }

    /// The shot list saved while the run goes on is read again: the current shot is kept by id (a removed
    /// one falls to the next, with a notice); a save that does not parse keeps the old list and says why.
    func watchShots(_ now: Int64) async {
        lastShotsCheckAt = now
        guard let path = settings.shotsPath, shotWalk != nil else { return }
        let stamp = ScriptStamp(path)
        guard let stamp, stamp != shotsStamp else { return }
        shotsStamp = stamp
        let list: ShotList
        do throws(DuoError) { list = try ShotList.load(path: path) } catch {
            return notify("shot list \(path) was saved but cannot be read (\(error.message)); the previous list stays", .plain, errorEvent: true)
        }
        let before = shotWalk!.current.subject
        let notice = shotWalk!.reload(list)
        for problem in list.problems { log("duo-capture: warning: shot list \(problem) (kept from the subject)") }
        events.emit(.shotsReloaded(count: list.shots.count, current: shotWalk!.current.id, notice: notice))
        log("duo-capture: shot list \(path) reloaded; \(list.shots.count) shots")
        if let notice { notify(notice, .plain) }
        if notice != nil || before != shotWalk!.current.subject { await announceShot(trigger: "reload") }
        await showFigures()
    }

    /// The HUD's shot lines: the current shot with its takes, the next one, the shot's private notes.
    func shotFigures(_ f: inout HudModel.Run) {
        guard let walk = shotWalk else { return }
        let shot = walk.current, taken = walk.takes(of: shot.id)
        let good = taken.filter { $0.mark == .good }.count, noGood = taken.filter { $0.mark == .noGood }.count
        var line = "shot \(shot.id) \(shot.title)  (\(walk.index + 1)/\(walk.list.shots.count))  \(taken.count) take\(taken.count == 1 ? "" : "s")"
        if good + noGood > 0 { line += " (\(good) good, \(noGood) no good)" }
        if let framing = shot.framing { line += "  \(framing.rawValue)" }
        if let aspect = shot.aspect { line += " \(aspect)" }
        if let seconds = shot.expectedSeconds { line += "  length \(Int(seconds) / 60):\(String(format: "%02d", Int(seconds) % 60))" }
        f.shot = line
        f.nextShot = walk.next.map { "next \($0.id) \($0.title)  \(walk.takes(of: $0.id).count) takes  (N next, B back, G good, X no good, A re-take)" }
            ?? "last shot  (B back, G good, X no good, A re-take)"
        f.shotNotes = shot.notes
    }
}
