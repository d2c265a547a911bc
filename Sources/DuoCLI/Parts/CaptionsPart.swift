import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

//  Captions as a run part (issue 38): after each Matroska take recorded with a script and sound, the take
//  is captioned on a thread of its own at a lower priority (TakeCaptioner: recogniser, alignment,
//  TAKE.vtt/.srt, the subtitle track, the review in the sidecar), so the next take never waits for it;
//  the run's end waits for those under way.
//
//   take ended ─▶ CaptionsPart ─▶ duo-captions thread (TakeCaptioner) ─▶ result ─▶ task on the director ─▶ log line

/// Takes being captioned in the background.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it); each take on its own thread.
final class CaptionsPart: RunPart {
    /// The captioning under way, each followed by a task on the director; the run's end waits for them.
    private var jobs: [Task<Void, Never>] = []

    init() {}

    func takeEnded(_ result: TakeResult, _ run: isolated RunDirector) async {
        // A take split by camera is captioned once joined (by `duo-capture captions`), not per segment.
        guard !run.plan.individual, let script = run.scriptPath, run.plan.audio != .none,
              (result.audio?.frames ?? 0) > 0, !result.empty, result.path.lowercased().hasSuffix(".mkv"),
              FileManager.default.fileExists(atPath: result.path) else { return }
        let take = result.path, number = result.number
        let (lines, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let thread = Thread {
            BackgroundPriority.lowerThisThread()
            do throws(DuoError) {
                let subject = try ScriptParser.load(path: script).subject
                sink.yield("take \(number) captioned: " + (try TakeCaptioner.caption(take, subject: subject)))
            } catch {
                TakeCaptioner.recordWhy(take, error.english)
                sink.yield(tr("take %s has no captions: %s", number, error.message))
            }
            sink.finish()
        }
        thread.name = "duo-captions"
        thread.start()
        jobs.append(Task {
            for await line in lines { run.log(tr("duo-capture: %s", line)) }
        })
    }

    /// The run's end: captioning under way finishes first (the take is safe either way).
    func finish(_ run: isolated RunDirector) async {
        let running = jobs
        jobs.removeAll()
        if !running.isEmpty { run.log(trn("duo-capture: finishing the captions of a take…", "duo-capture: finishing the captions of %d takes…", running.count, running.count)) }
        for job in running { await job.value }
    }
}
