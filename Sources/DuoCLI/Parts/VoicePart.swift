import DuoCore
import Foundation

//  Voice-follow as a run part: switched on as the graph plays (`--follow voice`, or F), the recogniser's
//  words steering the teleprompter, its model rebuilt off the director for each new script (VoicePort),
//  the recogniser failing (time takes over), and a `follow` event whenever what it says changes.
//
//   session (.speech, .recogniserFailed) ─┐                       ┌─▶ presenter (hear, steer, follow mode)
//   follow command, tick ─────────────────┼─▶ VoicePart ──────────┼─▶ voice port (detached) ─▶ .voiceModel input
//   script part (a new script) ───────────┘                       └─▶ capture (recogniser replaced), `follow` events

/// Voice-follow.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class VoicePart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--follow voice`: the teleprompter follows the voice from the start.
        var follow = false
        init() {}
        init(_ options: Options) { follow = options.followVoice }
    }

    private let settings: Settings
    /// Voice-follow's model for another script, built and loaded off the director.
    private let port: any VoicePort
    /// The recogniser failed (possibly before the graph played): voice-follow is not switched on.
    private var recogniserDown = false
    /// Voice models built so far: only the newest one's result is used (a later script supersedes it).
    private var builds = 0
    /// What voice-follow last said (mode, state, word, position): a `follow` event when one of them
    /// changes, the position by a word or more.
    private var lastFollow: (said: [String], position: Double)?

    init(_ settings: Settings, port: any VoicePort) {
        self.settings = settings
        self.port = port
    }

    func started(_ run: isolated RunDirector) async {
        if run.plan.voice != nil, !recogniserDown {
            if let why = await run.presenter.enableVoice(follow: settings.follow, at: run.clock.now()) {
                run.notify(.text("voice-follow: %s; following by time", why))
            }
            await report(run)
        } else if settings.follow {
            // Asked for, but the script cannot be followed (said at start), or the recogniser could not
            // load its model (said when it failed): time.
            await report(run)
        }
    }

    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {
        guard run.plan.voice != nil else { return }
        await run.presenter.steerVoice(at: now)
        await report(run)
    }

    func handle(_ command: ControlCommand, _ run: isolated RunDirector) async -> Bool {
        guard case .follow(let voice) = command else { return false }
        if let why = await run.presenter.setFollow(voice: voice, at: run.clock.now()) { run.refuse("follow: \(why)") } else { await report(run) }
        return true
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        switch event {
        case .speech(let text, let isFinal, let at):
            await run.presenter.hear(text, isFinal: isFinal, at: at)
            await run.presenter.steerVoice(at: run.clock.now())
            await report(run)
        case .recogniserFailed(let why):
            // Also before the graph plays (a model the recogniser cannot load): voice-follow stays off.
            recogniserDown = true
            if let files = run.plan.voice { VoiceModelCache.forget(files) }   // the next run builds it again
            await run.presenter.disableVoice(at: run.clock.now())
            run.notify(.text("voice-follow stopped (%s); the teleprompter follows time, the sound and any take go on", why), errorEvent: true)
            await report(run)
        default: return false
        }
        return true
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        if case .voiceModel(let result, let notices, let ticket) = input { await modelReady(result, notices: notices, ticket: ticket, run) }
    }

    /// The script changed while voice-follow listens: its model is built and the recogniser loads it off
    /// the director (reading the pronouncing dictionary, and pocketsphinx reading a large script's model,
    /// take a moment); the recogniser is replaced when it is ready.
    func rebuildModel(_ run: isolated RunDirector) {
        guard run.plan.voice != nil, let path = run.parts.script.path else { return }
        builds += 1
        let inbox = run.inbox, ticket = builds, plan = run.plan, port = self.port
        Task.detached {
            var notices: [String] = []
            let result: Result<(any PreparedRecogniser)?, DuoError>
            do throws(DuoError) {
                result = .success(try port.prepare(scriptPath: path, plan: plan, notices: &notices))
            } catch { result = .failure(error) }
            inbox.send(.voiceModel(result, notices: notices, ticket: ticket))
        }
    }

    private func modelReady(_ result: Result<(any PreparedRecogniser)?, DuoError>, notices: [String], ticket: Int,
                            _ run: isolated RunDirector) async {
        guard ticket == builds else { return }
        for notice in notices { run.log(tr("duo-capture: %s", notice)) }
        switch result {
        case .success(let loaded?):
            do throws(DuoError) {
                try await run.capture.installRecogniser(loaded)
                run.log(tr("duo-capture: voice-follow listens for the new script's words"))
            } catch {
                run.log(tr("duo-capture: warning: voice-follow keeps the previous script's words: %s", error.message))
            }
        case .success(nil): break
        case .failure(let error): run.log(tr("duo-capture: warning: voice-follow keeps the previous script's words: %s", error.message))
        }
        await report(run)
    }

    private func report(_ run: isolated RunDirector) async {
        let now = run.clock.now()
        let s = await run.presenter.status(at: now)
        let f = s.follow
        let said = [f == nil ? "time" : "voice", f?.stateName ?? "", f?.word ?? ""]
        if let last = lastFollow, last.said == said, abs(s.position - last.position) < 1 { return }
        lastFollow = (said, s.position)
        run.events.emit(.follow(mode: said[0], state: f?.stateName, word: f?.word,
                                position: (s.position * 10).rounded() / 10, at: (Double(now) / 1e6).rounded() / 1e3))
    }
}
