import DuoCore
import DuoMedia
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's take core: the TakeSchedule's decisions carried out through the capture and take-file
//  ports (a countdown, a take begun at its end, stopped, ended by itself), each take's sidecar and events,
//  and the parts told (RunPart.takeStarted/takeEnded); and how a line reaches the operator.
//
//  Thread: the run director's actor.

extension RunDirector {
    // MARK: Takes

    /// Starts the countdown; the take begins at its end, in pipeline time. A 0 s countdown starts at once.
    /// `endingRun`: the `--record` take, whose start `--duration` counts from.
    func record(endingRun endsRun: Bool = false) async {
        if !takes.isBusy, recordDirectory == nil {
            do throws(DuoError) { recordDirectory = try files.prepareDirectory(settings.recordDirectoryOption) } catch {
                return takeCannotStart(error)
            }
        }
        await carry(takes.record(at: clock.now(), endsRun: endsRun))
    }

    /// Carries out the take schedule's decision.
    func carry(_ decision: TakeSchedule.Decision) async {
        let now = clock.now()
        switch decision {
        case .nothing: break
        case .refuse(let why): refuse(why)
        case .countdown(let take, let seconds, let attachAt):
            log("duo-capture: recording starts in \(seconds) s")
            events.emit(.countdown(seconds: seconds, take: take))
            // A re-take, or a shot recorded again, starts the script where the shot starts (ShotsPart).
            await parts.shots.rewindForTake(self)
            await presenter.countdownStarted(at: now)
            wake(at: attachAt)
        case .cancelCountdown(let take):
            await presenter.countdownCancelled(at: now)
            events.emit(.countdownCancelled(take: take))
            log("duo-capture: countdown cancelled")
        case .begin(let take, let at, let endsRun):
            if takes.countdown.seconds == 0 { await parts.shots.rewindForTake(self) }
            await begin(take: take, at: at, endsRun: endsRun)
        case .stop: await stopTake()
        }
    }

    /// Cancels a countdown that has not started its take: nothing is recorded, nothing is left behind.
    func cancelCountdown() async {
        guard takes.pending != nil else { return }
        await carry(takes.cancel())
    }

    func begin(take number: Int, at start: Int64, endsRun: Bool) async {
        guard let dir = recordDirectory else { return }
        // With a shot list the file carries the shot and counts takes within it (…-shot03-take02.mkv).
        let shotName = parts.shots.naming(number, folder: dir)
        let path = files.claim(TakeNaming(directory: dir, fileExtension: plan.container.rawValue, shot: shotName?.shot),
                               take: shotName?.shotTake ?? number)
        let actual: Int64
        do throws(DuoError) { actual = try await capture.beginTake(number: number, path: path, startingAt: start) } catch {
            files.discard(path)
            takeCannotStart(error)
            // A run that exists to record one take (--record) cannot go on without it.
            if endsRun { end(.failed(error)) }
            return
        }
        takes.began(take: number, at: actual, endsRun: endsRun)
        await presenter.takeStarted(at: actual)
        // Where the teleprompter starts the take: its sidecar's script range, the shot's re-takes.
        let place = await presenter.place(at: actual)
        // Individual mode: the files of one take split by camera share an id and count their segments.
        let segment = plan.individual ? takes.segment(forFile: path) : nil
        sidecars.started(take: number, path: path, camera: await capture.activeCamera, segment: segment,
                         shot: parts.shots.takeBegins(number, path: path, place: place), scriptStart: place)
        events.emit(.takeStarted(take: number, file: path))
        for part in parts.all { await part.takeStarted(number, path: path, self) }
        log("duo-capture: recording take \(number) to \(path)")
        if endsRun, let end = takes.runEnd { wake(at: end) }
    }

    func takeCannotStart(_ error: DuoError) {
        notify(error.message, .plain, errorEvent: true)
    }

    /// How a line to the operator is logged.
    enum Tone { case plain, warning }

    /// One thing the operator must hear of: the log (as a warning, or plain), the HUD's message line, and
    /// an `error` event for control clients and the events file when `errorEvent`.
    /// `shown`: the words for the operator (the log and the HUD) when they differ from the event's
    /// English `message` (a translated notice).
    func notify(_ message: String, _ tone: Tone = .warning, errorEvent: Bool = false, hud: Bool = true, shown: String? = nil) {
        if errorEvent { events.emit(.error(message: message)) }
        log("duo-capture: \(tone == .warning ? "warning: " : "")\(shown ?? message)")
        if hud { face.say(shown ?? message) }
    }

    func stopTake() async {
        guard takes.current != nil, let result = await capture.endTake() else { return }
        await takeEnded(result)
    }

    /// Every take's end, whether a command stopped it or it failed by itself: reported exactly once.
    func takeEnded(_ result: TakeResult) async {
        guard !ended.contains(where: { $0.number == result.number }) else { return }
        takes.ended(take: result.number)
        ended.append(result)
        // The markers are read before the presenter hears of the end (which resets the scroll).
        let markers = await presenter.markersPassed(from: result.startRunningTime, to: result.endRunningTime)
        let scriptEnd = await presenter.place(at: result.endRunningTime)
        await presenter.takeEnded(at: result.endRunningTime)
        // The last segment of a take split by camera lists every segment's file.
        sidecars.ended(result, markers: markers, scriptEnd: scriptEnd, segments: plan.individual ? takes.finishedSegments : nil,
                       soundGaps: parts.microphone.gaps(from: result.startRunningTime, to: result.endRunningTime))
        if let failure = result.failure { notify(failure.message, .plain) }
        let kept = files.exists(result.path)
        // Against the take's own camera rate: a 15 fps camera's segment is not missing every other 30 fps frame.
        let dropped = result.frames.dropped(interval: result.frameInterval(or: plan.format))
        events.emit(.takeEnded(take: result.number, file: result.path, frames: Int(result.frames.frames), dropped: Int(dropped),
                                kept: kept, empty: result.empty, error: result.failure?.message))
        log("duo-capture: take \(result.number) ended: \(kept ? result.path : "nothing kept"), \(result.frames.frames) frames, \(dropped) dropped"
            + (result.empty ? " (stopped before its first frame)" : ""))
        // Too few frames for the take's length, each on time (no gap to count as dropped): said on the HUD too.
        if let short = result.keepUp(format: plan.format) {
            notify("take \(result.number): \(short.message)", shown: tr("take %1$d: %2$s", result.number, short.shown))
        }
        // The parts hear of it (the last segment of a take split by camera: the joins part joins them).
        for part in parts.all { await part.takeEnded(result, self) }
    }
}
