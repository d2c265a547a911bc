import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

//  The run director's joins: a take recorded in segments (--swap-policy segment) composed into one file
//  at the first segment's format, on a thread of its own at a lower priority, so the live run never
//  waits for it; its progress on the HUD and in `join` events; the run's end waits for it to finish.
//
//  Thread: the run director's actor; the join itself on its own thread.

extension RunDirector {
    /// What a join's thread reports, in order.
    enum JoinUpdate: Sendable {
        case progress(Double)
        case done(Result<JoinOutcome, DuoError>)
    }

    /// Starts joining take `take`'s segment files (names in the record folder) into one file.
    func startJoin(_ names: [String], take: Int) {
        guard let dir = recordDirectory, names.count > 1 else { return }
        let paths = names.map { (dir as NSString).appendingPathComponent($0) }
        let library = plan.library, encoder = plan.encoder, container = plan.container, keep = settings.keepSegments
        let audio = plan.audio != .none
        let output = SegmentJoin.outputPath(forFirstSegment: paths[0])
        emitJoin(take: take, state: "started", progress: 0, file: output, segments: names, error: nil)
        log("duo-capture: joining take \(take)'s \(names.count) segments into \(output) (in the background)")
        let (updates, sink) = AsyncStream.makeStream(of: JoinUpdate.self, bufferingPolicy: .unbounded)
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
        joinJobs.append(Task {
            var shown = 0
            for await update in updates {
                switch update {
                case .progress(let fraction):
                    // Every tenth: the HUD and an event; never more often.
                    let tenth = Int(fraction * 10)
                    guard tenth > shown, tenth < 10 else { continue }
                    shown = tenth
                    emitJoin(take: take, state: "progress", progress: Double(tenth) / 10, file: output, segments: names, error: nil)
                    face.say("joining take \(take): \(tenth * 10)%")
                case .done(.success(let outcome)):
                    joined(take: take, outcome: outcome, output: output, names: names, keep: keep)
                case .done(.failure(let error)):
                    emitJoin(take: take, state: "failed", progress: nil, file: output, segments: names, error: error.message)
                    notify("take \(take): \(error.message)")
                }
            }
        })
    }

    private func joined(take: Int, outcome: JoinOutcome, output: String, names: [String], keep: Bool) {
        let sidecar = outcome.sidecar
        let seconds = sidecar.durationSeconds ?? 0
        joinedTakes.append(.init(take: take, file: output, segments: names, sidecar: sidecar, kept: keep))
        emitJoin(take: take, state: "done", progress: 1, file: output, segments: names, error: nil)
        let conversion = outcome.repeatedFrames + outcome.droppedFrames == 0 ? ""
            : " (to \(sidecar.format): \(outcome.repeatedFrames) frames repeated, \(outcome.droppedFrames) dropped)"
        let line = "take \(take) joined into \(output): \(outcome.decoded.video.frames) frames, \(String(format: "%.2f", seconds)) s"
            + conversion + (keep ? "; segments kept" : "; segments removed")
        log("duo-capture: \(line)")
        face.say(line)
    }

    private func emitJoin(take: Int, state: String, progress: Double?, file: String, segments: [String], error: String?) {
        events.emit(.join(take: take, state: state, progress: progress, file: file, segments: segments, error: error))
    }

    /// The run's end: every join still running finishes first (its segments are safe either way).
    func finishJoins() async {
        let jobs = joinJobs
        joinJobs.removeAll()
        if !jobs.isEmpty { log("duo-capture: finishing the join of \(jobs.count == 1 ? "a take's segments" : "\(jobs.count) takes' segments")…") }
        for job in jobs { await job.value }
    }
}
