import DuoCore
import DuoMedia
import DuoRender
import Foundation

//  The teleprompter's script as a run part: the one on screen watched (FileWatch) and reloaded in place
//  when saved, keeping the reading position; another opened (O, a `script` command, a shot that names
//  one); each read and laid out off the director, a newer load superseding an older one; and the
//  teleprompter's commands (speed, pause, reverse, jump, font size), refused without a script.
//
//   tick (saved?) ──────┐                                   ┌─▶ presenter (install, scroll commands)
//   script command ─────┼─▶ ScriptPart ─ detached read ─▶ .scriptPrepared ─┼─▶ voice part (model rebuilt)
//   shots part (open) ──┘                                   └─▶ subject part, status, HUD's script lines

/// The script on screen.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class ScriptPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--script`: the script on screen from the start (nil: none).
        var path: String?
        init() {}
        init(_ options: Options) { path = options.subject.scriptPath }
    }

    /// A script load under way off the director: a newer one (a later save, another script opened)
    /// supersedes it, and its result is dropped when it comes.
    ///
    /// Thread: value type.
    struct Load {
        let ticket: Int
        let path: String
        let opening: Bool
        let stamp: FileStamp?
        let previousStamp: FileStamp?
    }

    /// The script on screen, watched for saves (nil: no script in this run).
    private var watch: FileWatch?
    /// The load under way, if any.
    private(set) var loading: Load?
    private var loads = 0

    init(_ settings: Settings) {
        // The version on screen (read a moment ago): a save from now on is a change, even before the
        // first look at the file.
        watch = settings.path.map { FileWatch($0) }
    }

    /// The script on screen; nil without one.
    var path: String? { watch?.path }

    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {
        guard watch?.due(at: now) == true else { return }
        // While another script is being opened, the one on screen is not reloaded (the opening wins).
        if loading?.opening == true { watch?.lookedAt = now; return }
        // Read and laid out off the director; the old text scrolls on until it is ready. A later save
        // supersedes this load.
        guard let save = watch?.look(at: now) else { return }
        await load(await run.presenter.reloadRequest(), stamp: save.saved, previousStamp: save.previous, run)
    }

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        let now = run.clock.now(), presenter = run.presenter
        switch command {
        case .script(let path):
            await open(path, run)
            return true
        case .speedStep, .speedPreset, .speedFactor, .pause, .reverse, .jump, .fontStep:
            guard path != nil else {
                run.refuse("no teleprompter script in this run; open one with O or {\"cmd\":\"script\",\"path\":…}, or give --script FILE")
                return true
            }
            switch command {
            case .speedStep(let step): await presenter.stepSpeed(step, at: now)
            case .speedPreset(let n): await presenter.preset(n, at: now)
            case .speedFactor(let factor): await presenter.setSpeedFactor(factor, at: now)
            case .pause: await presenter.togglePause(at: now)
            case .reverse: await presenter.reverse(at: now)
            case .jump(.next): await presenter.nextMarker(at: now)
            case .jump(.previous): await presenter.previousMarker(at: now)
            case .jump(.start): await presenter.restart(at: now)
            case .fontStep(let step): await presenter.stepFontSize(step, at: now)
            default: break
            }
            await run.status(trigger: "command")
            return true
        default:
            return false
        }
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        if case .scriptPrepared(let result, let ticket) = input { await prepared(result, ticket: ticket, run) }
    }

    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {
        guard path != nil else { return }
        let p = await run.presenter.status(at: now)
        f.scriptProgress = p.length > 0 ? min(1, p.position / p.length) : 0
        f.secondsLeft = p.secondsLeft
        f.speed = p.speed
        f.scrollPaused = p.paused
        f.scrollReversed = p.reversed
        f.follow = p.follow.map { f in
            f.state == .following && f.word != nil ? tr("following '%s'", f.word!) : Translation.operatorLanguage.text(f.stateName)
        }
        f.notes = p.notes
        f.confidence = p.confidence
    }

    /// Another script, opened while the run goes on: read and laid out off the director (the old one
    /// scrolls on meanwhile), then it becomes the one watched, remembered and scrolled.
    func open(_ path: String, _ run: isolated RunDirector) async {
        await load(await run.presenter.openRequest(path), stamp: FileStamp(path), run)
    }

    /// Reads and lays out a script in a detached task (seconds for a 2 MB script); `prepared` swaps it in
    /// when it is ready.
    private func load(_ request: SubjectPresenter.ScriptRequest?, stamp: FileStamp?, previousStamp: FileStamp? = nil,
                      _ run: isolated RunDirector) async {
        guard let request else { return }
        // A save whose reload is superseded by opening another script is looked at again should the
        // opening fail.
        if request.opening, let superseded = loading, !superseded.opening { watch?.stamp = superseded.previousStamp }
        loads += 1
        loading = Load(ticket: loads, path: request.path, opening: request.opening, stamp: stamp, previousStamp: previousStamp)
        let inbox = run.inbox, ticket = loads
        Task.detached(priority: .utility) {
            let result: Result<SubjectPresenter.PreparedScript, DuoError>
            do throws(DuoError) { result = .success(try SubjectPresenter.prepare(request)) } catch { result = .failure(error) }
            inbox.send(.scriptPrepared(result, ticket: ticket))
        }
    }

    private func prepared(_ result: Result<SubjectPresenter.PreparedScript, DuoError>, ticket: Int, _ run: isolated RunDirector) async {
        guard let load = loading, load.ticket == ticket else {
            // Superseded: a later save or opening is under way or done (said for --verbose and tests).
            Diagnostics.debug("script load \(ticket) finished after a newer one superseded it; its text is dropped")
            return
        }
        loading = nil
        switch result {
        case .success(let prepared):
            let path = prepared.request.path
            let problems = await run.presenter.install(prepared, at: run.clock.now())
            if prepared.request.opening {
                var opened = FileWatch(path, stamp: load.stamp)
                opened.lookedAt = watch?.lookedAt ?? 0
                watch = opened
                if let warning = ScriptChoice.standard().remember(path) { run.log(tr("duo-capture: warning: %s", warning.message)) }
                run.log(tr("duo-capture: opened script %s", path))
            } else {
                run.log(tr("duo-capture: script %s reloaded; the reading position is kept", path))
            }
            run.parts.voice.rebuildModel(run)
            for problem in problems { run.log(tr("duo-capture: warning: script %s %s (duo-capture check-script lists them)", path, problem)) }
            await run.parts.subject.updatePicture(run)
            await run.status(trigger: "script")
        case .failure(let error):
            if load.opening {
                // An opened script that cannot be read: the current one stays.
                run.refuse("script \(load.path): \(error.message)")
                run.face.say(error.message)
            } else {
                run.notify(.text("script %s was saved but cannot be read (%s); the previous text stays on screen", load.path, error.said),
                           .plain, errorEvent: true)
            }
        }
    }
}
