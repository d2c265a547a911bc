import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

//  Joins as a run part: a take recorded in segments (--swap-policy segment) composed into one file at the
//  first segment's format, on a thread of its own at a lower priority, so the live run never waits for it;
//  its progress on the HUD and in `join` events; the run's end waits for it to finish.
//
//   take ended (its last segment) ─▶ JoinsPart ─▶ duo-join thread (SegmentJoiner) ─▶ updates ─▶ task on the director
//                                                                                      └─▶ `join` events, HUD, summary

/// Segmented takes being joined in the background, and those joined.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it); each join on its own thread.
final class JoinsPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--keep-segments`: a joined take's segment files stay.
        var keepSegments = false
        init() {}
        init(_ options: Options) { keepSegments = options.keepSegments }
    }

    /// What a join's thread reports, in order.
    ///
    /// Thread: value type, Sendable; sent from the join's thread to the task that follows it on the director.
    enum Update: Sendable {
        case progress(Double)
        case done(Result<JoinOutcome, DuoError>)
    }

    private let settings: Settings
    /// The joins under way, each followed by a task on the director; the run's end waits for them.
    private var jobs: [Task<Void, Never>] = []
    /// Takes whose segments were joined (the summary lists the joined file in their place).
    private(set) var joined: [JoinedTake] = []

    init(_ settings: Settings) { self.settings = settings }

    /// The last segment of a take split by camera ended: its segments are joined into one file.
    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async {
        guard run.plan.individual, let segments = run.takes.finishedSegments else { return }
        start(segments, take: result.number - segments.count + 1, run)
    }

    /// The run's end: every join still running finishes first (its segments are safe either way).
    func finish(_ run: isolated RunDirector) async {
        let running = jobs
        jobs.removeAll()
        if !running.isEmpty { run.log(trn("duo-capture: finishing the join of a take's segments…", "duo-capture: finishing the join of %d takes' segments…", running.count, running.count)) }
        for job in running { await job.value }
    }

    /// Starts joining take `take`'s segment files (names in the record folder) into one file.
    private func start(_ names: [String], take: Int, _ run: isolated RunDirector) {
        guard let dir = run.recordDirectory, names.count > 1 else { return }
        let plan = run.plan
        let paths = names.map { (dir as NSString).appendingPathComponent($0) }
        let library = plan.library, encoder = plan.encoder, container = plan.container, keep = settings.keepSegments
        let audio = plan.audio != .none
        // Claimed before the join: a file already there (the user's, another run's) is never replaced.
        let output = (try? JoinOutputClaim.claim(segments: paths)) ?? SegmentJoin.outputPath(forFirstSegment: paths[0])
        emit(take: take, state: "started", progress: 0, file: output, segments: names, error: nil, run)
        run.log(tr("duo-capture: joining take %1$s's %2$s segments into %3$s (in the background)", take, names.count, output))
        let (updates, sink) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .unbounded)
        let thread = Thread {
            BackgroundPriority.lowerThisThread()
            let result: Result<JoinOutcome, DuoError>
            do throws(DuoError) {
                let facts = try paths.map { path throws(DuoError) in try SegmentJoiner.facts(path) }
                let join = SegmentJoin(segments: paths, format: facts[0].format, encoder: encoder, container: container,
                                       audio: audio && facts.allSatisfy(\.audio), keepSegments: keep, output: output)
                // The joined take's sidecar (written by the join) is the take's: its number, every swap.
                result = .success(try SegmentJoiner.run(join, library: library, known: facts, take: take, toolVersion: DuoCaptureMain.version) {
                    sink.yield(.progress($0))
                })
            } catch {
                result = .failure(error)
            }
            sink.yield(.done(result))
            sink.finish()
        }
        thread.name = "duo-join"
        thread.start()
        // On the director (it captures it), so the updates are carried out between its inputs.
        jobs.append(Task {
            var shown = 0
            for await update in updates {
                switch update {
                case .progress(let fraction):
                    // Every tenth: the HUD and an event; never more often.
                    let tenth = Int(fraction * 10)
                    guard tenth > shown, tenth < 10 else { continue }
                    shown = tenth
                    emit(take: take, state: "progress", progress: Double(tenth) / 10, file: output, segments: names, error: nil, run)
                    run.face.say(tr("joining take %s: %s%%", take, tenth * 10))
                case .done(.success(let outcome)):
                    done(take: take, outcome: outcome, output: output, names: names, keep: keep, run)
                case .done(.failure(let error)):
                    emit(take: take, state: "failed", progress: nil, file: output, segments: names, error: error.english, run)
                    run.notify(.text("take %s: %s", take, error.said))
                }
            }
        })
    }

    private func done(take: Int, outcome: JoinOutcome, output: String, names: [String], keep: Bool, _ run: isolated RunDirector) {
        let sidecar = outcome.sidecar
        let seconds = sidecar.durationSeconds ?? 0
        joined.append(.init(take: take, file: output, segments: names, sidecar: sidecar, kept: keep))
        emit(take: take, state: "done", progress: 1, file: output, segments: names, error: nil, run)
        let frames = outcome.decoded.video.frames, duration = String(format: "%.2f", seconds)
        let line = switch (outcome.repeatedFrames + outcome.droppedFrames == 0, keep) {
        case (true, true): tr("take %1$s joined into %2$s: %3$s frames, %4$s s; segments kept", take, output, frames, duration)
        case (true, false): tr("take %1$s joined into %2$s: %3$s frames, %4$s s; segments removed", take, output, frames, duration)
        case (false, true):
            tr("take %1$s joined into %2$s: %3$s frames, %4$s s (to %5$s: %6$s frames repeated, %7$s dropped); segments kept",
               take, output, frames, duration, sidecar.format, outcome.repeatedFrames, outcome.droppedFrames)
        case (false, false):
            tr("take %1$s joined into %2$s: %3$s frames, %4$s s (to %5$s: %6$s frames repeated, %7$s dropped); segments removed",
               take, output, frames, duration, sidecar.format, outcome.repeatedFrames, outcome.droppedFrames)
        }
        run.log(tr("duo-capture: %s", line))
        run.face.say(line)
    }

    private func emit(take: Int, state: String, progress: Double?, file: String, segments: [String], error: String?,
                      _ run: isolated RunDirector) {
        run.events.emit(.join(take: take, state: state, progress: progress, file: file, segments: segments, error: error))
    }
}
