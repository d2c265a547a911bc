import DuoCore
import Foundation

//  The capture session's doors to the replay buffer (Branches/ReplayBranch.swift, `--replay SECONDS`):
//  attached once the graph plays, saved on demand (one save at a time; the write runs off this actor,
//  so the graph's other changes never wait for it).

extension CaptureSession {
    /// Starts keeping the last `seconds` of encoded video (and sound) in memory: the replay branch on the
    /// tees. Throws when the graph is not running or the branch cannot be made.
    public func startReplay(seconds: Int) throws(DuoError) {
        guard let p = pipeline, let t = tee else { throw .runtime(.text("the capture session is not running")) }
        guard replay == nil else { throw .runtime(.text("the replay buffer is already on")) }
        let branch = ReplayBranch(plan: plan, seconds: seconds, pipeline: p)
        replay = branch
        do throws(DuoError) { try branch.attach(plan: plan, tee: t, audioTee: audioTee) } catch {
            branch.detach()
            replay = nil
            throw error
        }
    }

    /// Writes the buffer into `path` (see ReplayPort.saveReplay). Refused while another save runs, when
    /// the buffer is off or failed, or holds no keyframe yet.
    public func saveReplay(to path: String, chaptersAt: @escaping @Sendable (Int64, Int64) -> [TakeChapter]) async throws(DuoError) -> ReplayClip {
        guard let branch = replay else {
            throw .usage(.text("save-replay: there is no replay buffer; start duo-capture with --replay SECONDS (1 to 300)"))
        }
        guard !branch.hasFailed else { throw .runtime(.text("save-replay: the replay buffer stopped earlier in this run (see its error); the preview and any take go on")) }
        guard !branch.saving else { throw .runtime(.text("save-replay: a replay is being saved; save again once it is written (the replay-saved event)")) }
        guard let snapshot = branch.store.snapshot() else {
            throw .runtime(.text("save-replay: the replay buffer holds no keyframe yet; save again in a moment"))
        }
        branch.saving = true
        defer { branch.saving = false }
        let plan = self.plan
        let result: Result<ReplayClip, DuoError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                defer { snapshot.release() }
                do throws(DuoError) {
                    continuation.resume(returning: .success(try ReplayWriter.write(snapshot, plan: plan, to: path, chapters: chaptersAt)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        var clip = try result.get()
        clip.buffer = branch.store.figures
        return clip
    }

    /// The buffer's figures now (nil while it is off).
    public var replayFigures: ReplayFigures? { replay?.store.figures }
}
