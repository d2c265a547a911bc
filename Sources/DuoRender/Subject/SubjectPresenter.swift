import DuoCore
import Foundation

/// The subject view's state and its commands: the session state (private fields included), the
/// whitelisted view model derived from it, and the live overlay that draws it into subject frames.
/// Every command takes the pipeline running time at which it happens, so scroll positions line up with
/// the frames' timestamps. Scripts are read and laid out off the actor (SubjectPresenter+ScriptReading.swift).
///
/// Thread: an actor; commands come from the CLI, the keys of the operator window and the control socket.
/// The overlay it feeds is drawn on the streaming thread from a lock-protected snapshot.
public actor SubjectPresenter {
    public nonisolated let drawer: any I420FrameDrawer
    /// Frames `drawer` has drawn the view into so far.
    public nonisolated var framesDrawn: Int { (drawer as? SubjectFrameDrawer)?.drawn.value ?? 0 }
    /// What the script held that could be a private note but is not well formed: kept from the subject,
    /// for the operator to fix (`duo-capture check-script`).
    public nonisolated let scriptProblems: [ScriptProblem]
    let overlay: SubjectOverlay
    var state: PrompterSessionState
    private var markers: [Double] = []
    private var unitsAreWords = true
    private let speedMemory: SpeedMemory?
    /// The last warning (a speed that could not be remembered), for the operator's log.
    public private(set) var lastWarning: String?

    /// Loads the script and display profile (one-line errors), lays the script out once for a
    /// `width`×`height` subject view: drawn into video frames (`.i420`, headless) or by the subject
    /// window itself (`.argb`, through `canvas(now:)`).
    public init(_ setup: SubjectSetup, width: Int, height: Int, format: PromptStrip.Format = .i420) throws(DuoError) {
        let script = try setup.scriptPath.map { path throws(DuoError) in try ScriptParser.load(path: path) }
        scriptProblems = script?.problems ?? []
        if setup.accessory == .teleprompter && script == nil {
            throw .usage("--accessory teleprompter needs --script FILE (a .txt or .md script); or use --accessory countdown, preview or off")
        }
        let loaded = try setup.displayProfilePath.map { path throws(DuoError) in try DisplayProfile.load(path: path) } ?? .plain
        let profile = setup.resolvedProfile(loaded)
        overlay = SubjectOverlay(width: width, height: height, profile: profile, format: format, language: setup.language)
        speedMemory = setup.speedMemory
        drawer = SubjectFrameDrawer(overlay: overlay)
        state = PrompterSessionState(
            accessory: setup.accessory, script: script, readingLine: setup.readingLine, mirror: setup.resolvedMirror(profile: loaded),
            // --lines asks for a size that fits the monitor: a remembered pixel size does not apply then.
            style: PromptStyle(fontSize: setup.fontSize ?? (setup.lines != nil ? nil : setup.scriptPath.flatMap { setup.speedMemory?.fontSize(for: $0) }),
                               lines: setup.lines, theme: setup.theme), countdown: setup.countdown,
            aspect: setup.aspect, scriptPath: setup.scriptPath)
        state.selfView = setup.selfView
        state.talentClock = setup.talentClock
        state.picture = setup.picture
        lastSelfView = setup.selfView
        if let subject = script?.subject {
            var speed = try ScrollSpeed.requested(wordsPerMinute: setup.wordsPerMinute, linesPerMinute: setup.linesPerMinute,
                                                  separatesWords: subject.separatesWords)
            if setup.wordsPerMinute == nil, setup.linesPerMinute == nil, let path = setup.scriptPath,
               let remembered = setup.speedMemory?.speed(for: path) {
                // Only a speed in this script's own unit (a script edited to lose its spaces changes unit).
                if case .wordsPerMinute = remembered, subject.separatesWords { speed = remembered }
                if case .linesPerMinute = remembered, !subject.separatesWords { speed = remembered }
            }
            unitsAreWords = subject.separatesWords
            state.scroll = overlay.scrollModel(for: .whitelisted(from: state), speed: speed)
            markers = overlay.markerUnits
        }
        overlay.update(.whitelisted(from: state))
    }

    /// The accessory kind on screen (the script command can make it the teleprompter).
    public var accessory: AccessoryKind { state.accessory }

    func publish(at time: Int64) {
        overlay.update(.whitelisted(from: state), preparingAt: time)
        for view in remoteViews.values { view.update(.whitelisted(from: state), preparingAt: time) }
    }

    /// The subject view for displays on other machines, each laid out for its own size (the same
    /// whitelisted view model as the local one: nothing else ever reaches them).
    private var remoteViews: [Int: SubjectOverlay] = [:]

    /// A drawer of the subject view at `width`×`height` for remote display `index` (replacing its last).
    public func remoteView(_ index: Int, width: Int, height: Int, at time: Int64) -> any I420FrameDrawer {
        // The remote display shows the subject's language, as the local subject monitor does.
        let view = SubjectOverlay(width: width, height: height, profile: overlay.profile, format: .i420, language: overlay.language)
        remoteViews[index] = view
        view.update(.whitelisted(from: state), preparingAt: time)
        return RemoteDisplayFrameDrawer(view: SubjectFrameDrawer(overlay: view, pictureIsUnmirrored: true), shown: remoteShown)
    }

    /// Whether the remote displays show the subject view now (the accessory enabled and available).
    private let remoteShown = RemoteShownFlag(true)
    public func setRemoteViewsShown(_ shown: Bool) { remoteShown.set(shown) }

    /// The subject window's painter, for a presenter made with the `.argb` format. `now` is the pipeline's
    /// running time (the time every command here is stamped with).
    public nonisolated func canvas(now: @escaping @Sendable () -> Int64) -> SubjectCanvas {
        SubjectCanvas(overlay: overlay, now: now)
    }

    /// The subject monitor is `width`×`height` (the window's size on it changed): the view is laid out
    /// again for it, keeping the reading place (as a font size change does).
    public func resize(width: Int, height: Int, at time: Int64) {
        guard width != overlay.width || height != overlay.height else { return }
        overlay.resize(width: width, height: height)
        relayout(at: time)
        publish(at: time)
    }

    /// A new scroll model after the layout changed (size of text or of the monitor), at the same word, or
    /// the same share of a script read in lines, scrolling or paused as before.
    private func relayout(at time: Int64) {
        guard let old = state.scroll else { return }
        let position = old.position(at: time)
        if var scroll = overlay.scrollModel(for: .whitelisted(from: state), speed: old.speed) {
            let kept = unitsAreWords || old.length <= 0 ? position : position * scroll.length / old.length
            scroll.jump(to: min(kept, scroll.length), at: time)
            if !old.isPaused { scroll.start(at: time) }
            state.scroll = scroll
            markers = overlay.markerUnits
        }
    }

    /// The text size on screen now: the chosen one, or the one picked for the monitor.
    private var currentFontSize: Double {
        let vm = SubjectViewModel.whitelisted(from: state)
        let selfView = vm.selfView == .off ? nil : vm.picture?.selfViewSize(vm.selfView, monitorWidth: overlay.width, monitorHeight: overlay.height)
        return SubjectScene.fontSize(state.style, profile: overlay.profile, width: overlay.width, height: overlay.height, selfView: selfView)
    }

    // MARK: Take lifecycle

    /// The current shot of `--shots` (nil: none): its card is shown during standby and the countdown.
    /// The shot card on the subject view now (nil: none).
    public var shownShot: SubjectShot? { state.shot }

    public func showShot(_ shot: SubjectShot?, at time: Int64) {
        guard state.shot != shot else { return }
        state.shot = shot
        publish(at: time)
    }

    public func countdownStarted(at time: Int64) {
        state.countdownStartedAt = time
        publish(at: time)
    }

    public func countdownCancelled(at time: Int64) {
        state.countdownStartedAt = nil
        publish(at: time)
    }

    /// The framing hints on the subject view now, as its whitelisted view model carries them.
    public var framingHints: [PersonHint] { SubjectViewModel.whitelisted(from: state).framingHints }

    /// The framing hints the subject sees now (FramingPolicy's decision; empty: none).
    public func setFramingHints(_ hints: [PersonHint], at time: Int64) {
        guard hints != state.framingHints else { return }
        state.framingHints = hints
        publish(at: time)
    }

    /// The take started recording: the light goes on and the script starts scrolling.
    public func takeStarted(at time: Int64) {
        state.countdownStartedAt = nil
        state.recordingStartedAt = time
        if !followsVoice { state.scroll?.start(at: time) }
        publish(at: time)
    }

    public func takeEnded(at time: Int64) {
        state.recordingStartedAt = nil
        state.scroll?.pause(at: time)
        publish(at: time)
    }

    // MARK: Script reload (the request and its reading off the actor: SubjectPresenter+ScriptReading.swift)

    /// A request to read the script on screen again (nil without one).
    public func reloadRequest() -> ScriptRequest? {
        guard let path = state.scriptPath, state.script != nil else { return nil }
        return ScriptRequest(path: path, opening: false, state: state, overlay: overlay, forVoice: voiceAvailable)
    }

    /// A request to open `path` (the O key, `{"cmd":"script","path":…}`).
    public func openRequest(_ path: String) -> ScriptRequest {
        var next = state
        next.scriptPath = path
        next.accessory = .teleprompter
        return ScriptRequest(path: path, opening: true, state: next, overlay: overlay, forVoice: voiceAvailable)
    }

    /// Puts a prepared script on screen. A reload (the file saved while running) keeps the reading
    /// position as it is now (the old text kept scrolling while the new one was laid out): the same word
    /// (or line) index, scrolling or paused as before, at the same speed. An opened script (the O key,
    /// `{"cmd":"script","path":…}`) starts from its beginning at the speed last used with it, scrolling if
    /// the take is, and the view becomes the teleprompter. The layout made off the presenter is reused
    /// unless the view changed meanwhile (then it is laid out again here). Returns the script's problems
    /// (malformed notes kept from the subject).
    @discardableResult
    public func install(_ prepared: PreparedScript, at time: Int64) -> [ScriptProblem] {
        if let scene = prepared.scene { overlay.offer(scene) }
        let path = prepared.request.path
        if prepared.request.opening {
            state.scriptPath = path
            state.accessory = .teleprompter
            install(prepared.parsed, position: 0, scrolling: state.recordingStartedAt != nil, speed: speedMemory?.speed(for: path),
                    voiceScript: prepared.voiceScript, at: time)
        } else {
            guard state.scriptPath == path else { return prepared.parsed.problems }   // another script came meanwhile
            let old = state.scroll
            install(prepared.parsed, position: old?.position(at: time) ?? 0, scrolling: old.map { !$0.isPaused } ?? false,
                    speed: old?.speed, voiceScript: prepared.voiceScript, at: time)
        }
        return prepared.parsed.problems
    }

    /// Puts `parsed` on screen at `position` (units of the new script, clamped), keeping `speed` when it is
    /// in the new script's unit (words or lines), else that unit's default.
    private func install(_ parsed: ParsedScript, position: Double, scrolling: Bool, speed: ScrollSpeed?,
                         voiceScript: VoiceScript? = nil, at time: Int64) {
        let separatesWords = parsed.subject.separatesWords
        let kept = speed.flatMap { speed -> ScrollSpeed? in
            switch speed {
            case .wordsPerMinute: separatesWords ? speed : nil
            case .linesPerMinute: separatesWords ? nil : speed
            }
        } ?? ScrollSpeed.defaultFor(separatesWords: separatesWords)
        state.script = parsed
        unitsAreWords = separatesWords
        if var scroll = overlay.scrollModel(for: .whitelisted(from: state), speed: kept) {
            scroll.jump(to: min(position, scroll.length), at: time)
            if scrolling { scroll.start(at: time) }
            state.scroll = scroll
        } else {
            state.scroll = nil
        }
        markers = overlay.markerUnits
        if voiceAvailable { makeAligner(at: time, voiceScript: voiceScript) }
        publish(at: time)
    }

    // MARK: Operator commands

    /// Pause: in timed scrolling, the scroll; following the voice, the following (held until pressed again).
    public func togglePause(at time: Int64) {
        if followsVoice {
            voiceHeld.toggle()
            if voiceHeld { state.scroll?.pause(at: time) } else { followFromScroll(at: time) }
        } else {
            state.scroll?.togglePause(at: time)
        }
        publish(at: time)
    }
    /// Scrolls the other way (back over what was read, or forward again). Following the voice, the voice
    /// sets the position, so this changes the timed scroll only.
    public func reverse(at time: Int64) { state.scroll?.reverse(at: time); publish(at: time) }
    public func restart(at time: Int64) { state.scroll?.jump(to: 0, at: time); followFromScroll(at: time); publish(at: time) }
    public func nextMarker(at time: Int64) { _ = state.scroll?.jumpToNextMarker(markers, at: time); followFromScroll(at: time); publish(at: time) }
    public func previousMarker(at time: Int64) { _ = state.scroll?.jumpToPreviousMarker(markers, at: time); followFromScroll(at: time); publish(at: time) }

    /// Text one step (1/8) larger (+1) or smaller (−1), between 12 and 400 pixels, remembered with the
    /// script. The reading position is kept: the same word, or the same share of a script read in lines.
    public func stepFontSize(_ direction: Int, at time: Int64) {
        let current = currentFontSize
        let next = min(400, max(12, (current * (direction > 0 ? 1.125 : 1 / 1.125)).rounded()))
        guard next != current else { return }
        state.style.fontSize = next
        relayout(at: time)
        if let memory = speedMemory, let path = state.scriptPath {
            lastWarning = memory.remember(fontSize: next, for: path)?.message
        }
        publish(at: time)
    }

    /// Speeds up (+1) or slows down (−1) by one preset step.
    public func stepSpeed(_ direction: Int, at time: Int64) {
        guard let scroll = state.scroll else { return }
        let presets = unitsAreWords ? ScrollSpeed.wordPresets : ScrollSpeed.linePresets
        let current = (timedSpeed ?? scroll.speed).unitsPerSecond * 60
        let next = direction > 0 ? presets.first { $0 > current + 0.01 } : presets.last { $0 < current - 0.01 }
        guard let value = next else { return }
        setTimedSpeed(unitsAreWords ? .wordsPerMinute(value) : .linesPerMinute(value), at: time)
    }

    /// The timed scroll's speed: applied now in timed scrolling; kept for later while following the voice.
    private func setTimedSpeed(_ speed: ScrollSpeed, at time: Int64) {
        if followsVoice { timedSpeed = speed } else { state.scroll?.setSpeed(speed, at: time) }
        rememberSpeed(speed)
        publish(at: time)
    }

    /// Speed preset 1–5 (number keys).
    public func preset(_ number: Int, at time: Int64) {
        guard let speed = ScrollSpeed.preset(number, separatesWords: unitsAreWords) else { return }
        setTimedSpeed(speed, at: time)
    }

    /// The timed scroll at `factor` times the script's default speed (the remote's `/duo/speed 1.5`).
    public func setSpeedFactor(_ factor: Double, at time: Int64) {
        guard state.scroll != nil, factor.isFinite, factor > 0 else { return }
        let base = ScrollSpeed.defaultFor(separatesWords: unitsAreWords).unitsPerSecond * 60
        setTimedSpeed(unitsAreWords ? .wordsPerMinute(base * factor) : .linesPerMinute(base * factor), at: time)
    }

    /// The subject's words around the reading position (at most `count`), for the remote page: the
    /// subject's own text only, never an operator note.
    public func readingWords(at time: Int64, count: Int = 12) -> String? {
        guard let script = state.script, let scroll = state.scroll else { return nil }
        let words = script.subject.words
        guard !words.isEmpty else { return nil }
        let start = min(max(0, Int(scroll.position(at: time))), words.count - 1)
        return words[start..<min(words.count, start + count)].joined(separator: script.subject.separatesWords ? " " : "")
    }
    /// The subject view's mirror now.
    public var mirror: MirrorFlags { state.mirror }

    /// Cycles none → horizontal → vertical → both (for beam-splitter glass).
    public func cycleMirror(at time: Int64) {
        let m = state.mirror
        state.mirror = !m.horizontal && !m.vertical ? MirrorFlags(horizontal: true, vertical: false)
            : m.horizontal && !m.vertical ? MirrorFlags(horizontal: false, vertical: true)
            : !m.horizontal ? MirrorFlags(horizontal: true, vertical: true) : .none
        publish(at: time)
    }

    /// The self-view's size last shown, for the toggle to bring back.
    private var lastSelfView: SelfViewSize = .small

    /// The self-view on the subject view now (off for kinds that do not show it).
    public var selfView: SelfViewSize { SubjectViewModel.whitelisted(from: state).selfView }

    /// Sets the self-view's size, or toggles it (nil: off ↔ the size last shown). Returns the new size.
    @discardableResult
    public func setSelfView(_ size: SelfViewSize?, at time: Int64) -> SelfViewSize {
        let next = size ?? state.selfView.toggled(shown: lastSelfView)
        if next != .off { lastSelfView = next }
        guard next != state.selfView else { return next }
        state.selfView = next
        relayout(at: time)
        publish(at: time)
        return next
    }

    private func rememberSpeed(_ speed: ScrollSpeed) {
        guard let memory = speedMemory, let path = state.scriptPath else { return }
        lastWarning = memory.remember(speed, for: path)?.message
    }

    // MARK: Voice-follow

    /// A recogniser runs (the graph has its branch): voice-follow can be switched on.
    private var voiceAvailable = false
    /// True while the scroll follows the voice rather than time.
    public private(set) var followsVoice = false
    /// The operator paused the following (the pause key while following the voice).
    private var voiceHeld = false
    /// The aligner over the script on screen (nil for a script voice-follow cannot read).
    private var aligner: VoiceAligner?
    /// The script's words as shown, for the operator's "following 'word'".
    private var scriptWords: [String] = []
    /// The timed scroll's speed while the voice sets the scroll's.
    private var timedSpeed: ScrollSpeed?

    /// The graph has a recogniser: voice-follow can be used; `follow` switches it on now. Returns why it
    /// cannot follow this script (nil when it can).
    public func enableVoice(follow: Bool, at time: Int64) -> String? {
        voiceAvailable = true
        makeAligner(at: time)
        return follow ? setFollow(voice: true, at: time) : nil
    }

    /// The recogniser failed: back to time for the rest of the run.
    public func disableVoice(at time: Int64) {
        if followsVoice { _ = setFollow(voice: false, at: time) }
        voiceAvailable = false
        aligner = nil
    }

    /// Follows the voice (true), time (false), or switches (nil). Returns why it cannot (no recogniser,
    /// a script voice-follow cannot read), changing nothing then.
    public func setFollow(voice: Bool?, at time: Int64) -> String? {
        let on = voice ?? !followsVoice
        guard on != followsVoice else { return nil }
        if on {
            guard voiceAvailable else { return "voice-follow needs --follow voice at start (and sound: --audio)" }
            guard aligner != nil, state.scroll != nil else {
                return "voice-follow reads only scripts with spaces between words in a language with an installed speech model (English)"
            }
            timedSpeed = state.scroll?.speed
            followsVoice = true
            voiceHeld = false
            followFromScroll(at: time)
        } else {
            followsVoice = false
            voiceHeld = false
            if let speed = timedSpeed { state.scroll?.setSpeed(speed, at: time) }
            timedSpeed = nil
            // Timed scrolling runs while a take records, as it always does.
            if state.recordingStartedAt != nil { state.scroll?.resume(at: time) } else { state.scroll?.pause(at: time) }
        }
        publish(at: time)
        return nil
    }

    /// The recogniser heard `text` (the utterance so far) at `time`.
    public func hear(_ text: String, isFinal: Bool, at time: Int64) {
        aligner?.feed(hypothesis: text, isFinal: isFinal, at: time)
    }

    /// Steers the scroll after the voice at `now` (every tick and after each hypothesis).
    public func steerVoice(at now: Int64) {
        guard followsVoice, !voiceHeld, let aligner, var scroll = state.scroll else { return }
        let before = scroll
        VoiceSteering.steer(&scroll, wantedNow: aligner.position(at: now),
                            wantedSoon: aligner.position(at: now + VoiceSteering.lookahead), at: now)
        guard scroll != before else { return }
        state.scroll = scroll
        publish(at: now)
    }

    /// The aligner starts again where the scroll is (a jump, a resume, a switch to the voice).
    private func followFromScroll(at time: Int64) {
        guard followsVoice, let scroll = state.scroll else { return }
        aligner?.reset(toWord: Int(scroll.position(at: time).rounded()), at: time)
    }

    private func makeAligner(at time: Int64, voiceScript: VoiceScript? = nil) {
        guard let subject = state.script?.subject, subject.separatesWords else {
            aligner = nil
            // A script voice-follow cannot read (opened or saved while following): back to time.
            if followsVoice { _ = setFollow(voice: false, at: time) }
            return
        }
        scriptWords = subject.words
        aligner = VoiceAligner(script: voiceScript ?? VoiceScript(script: subject), startWord: Int((state.scroll?.position(at: time) ?? 0).rounded()))
    }

    private func followStatus(at time: Int64) -> FollowStatus? {
        guard followsVoice, let aligner else { return nil }
        let said = Int(aligner.matchedPosition.rounded()) - 1
        return FollowStatus(state: aligner.state(at: time), word: scriptWords.indices.contains(said) ? scriptWords[said] : nil, held: voiceHeld)
    }

    /// The script's headings the reading position moved past between `start` and `end` (pipeline running
    /// time, ns), with the time into the take at which it did: the sidecar's "markers passed". A heading
    /// counts once the position is beyond its start, so scrolling held by a `[PAUSE]` just before a
    /// heading has not passed it. Headings already behind the position when the take began do not count.
    public func markersPassed(from start: Int64, to end: Int64) -> [TakeSidecar.Marker] {
        guard let scroll = state.scroll, let script = state.script?.subject, end > start else { return [] }
        return scroll.markersPassed(zip(markers, script.headingTitles).map { ($0, $1) }, from: start, to: end)
    }

    /// Where the teleprompter is at `time` (a take's script range, the session journal); nil without a script.
    public func place(at time: Int64) -> ScriptPlace? {
        guard let scroll = state.scroll, let script = state.script, let path = state.scriptPath else { return nil }
        return ScriptPlace(script: path, position: scroll.position(at: time), length: scroll.length, unitsAreWords: unitsAreWords, parsed: script)
    }

    /// The script's headings and where each starts (the scroll's unit): a shot's `heading:` is found here.
    public var headings: [(title: String, position: Double)] {
        zip(state.script?.subject.headingTitles ?? [], markers).map { ($0, $1) }
    }

    /// Moves the reading position to `position` (a re-take's rewind, a resumed session), scrolling or not as before.
    public func rewind(to position: Double, at time: Int64) { state.scroll?.jump(to: position, at: time); followFromScroll(at: time); publish(at: time) }

    // MARK: Operator view

    public func status(at time: Int64) -> PrompterStatus {
        let scroll = state.scroll
        let position = scroll?.position(at: time) ?? 0
        var notes: [String] = []
        if let script = state.script {
            // Notes of the block being read: the last heading/paragraph boundary at or before the position.
            let block = script.subject.blockIndex(atWord: Int(position))
            notes = script.operatorNotes.filter { $0.blockIndex == block }.map(\.text)
        }
        return PrompterStatus(
            accessory: state.accessory, position: position, length: scroll?.length ?? 0, unitsAreWords: unitsAreWords,
            secondsLeft: scroll?.secondsLeft(at: time) ?? 0, paused: scroll?.isPaused ?? true,
            heldAtCue: scroll?.isHeldAtCue(at: time) ?? false, speed: scroll?.speed.description ?? "-",
            mirror: state.mirror,
            countdownValue: state.countdownStartedAt.flatMap { state.countdown.displayedValue(elapsed: time - $0) },
            notes: notes, fontSize: currentFontSize, follow: followStatus(at: time), reversed: scroll?.direction == .reverse,
            confidence: confidence(at: position))
    }

    /// The confidence strip at scroll position `position` (ConfidenceStrip.swift). The operator's view only.
    private func confidence(at position: Double) -> [ConfidenceLine] {
        guard let script = state.script, state.accessory == .teleprompter, let layout = overlay.currentScene?.strip?.layout else { return [] }
        return ConfidenceStrip.lines(script, layout: layout, at: position)
    }

    /// Blocks until the overlay has built the latest scene (tests, shutdown).
    public func settle() { overlay.waitUntilIdle() }
}
