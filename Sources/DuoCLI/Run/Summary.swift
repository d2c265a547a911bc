import DuoCore
import DuoMedia
import Foundation

/// The end-of-run report: frames through each branch, dropped frames, takes with their files.
///
/// Thread: value type, built on the main task after the session stopped.
struct RunSummary: Encodable {
    struct Branch: Encodable {
        let frames: Int64
        /// Frames missing from the branch's timestamp sequence (the leaky queues' drops). For the two views
        /// these are frames the screen skipped, never the take's: `skipped` says so (`dropped` is kept equal
        /// for scripts written against earlier versions).
        let dropped: Int64
        var skipped: Int64?
        func view() -> Branch { var b = self; b.skipped = dropped; return b }
    }
    struct Take: Encodable {
        let number: Int
        let file: String
        let frames: Int64
        let durationSeconds: Double
        /// First recorded frame after the countdown's end, ms (capture timestamps).
        let startLatencyMs: Double?
        let audioBuffers: Int64?
        /// Dropped frames and the largest and smallest steps between recorded frames, encoded flat
        /// (`dropped`, `maxGapMs`, `minGapMs`) with the take's other keys.
        let timing: FrameTiming
        var dropped: Int64 { timing.dropped ?? 0 }
        /// Caps changes that reached the recording (a virtual-camera swap must cause none).
        let capsChanges: Int64
        let swaps: Int
        let error: String?
        /// The camera delivered too few frames for the take's length (issue 37, `KeepUp.message`).
        var keepUp: String? = nil
        /// A take joined from its segments: each segment, and whether its file is still on disk.
        var segments: [Segment]? = nil

        private enum CodingKeys: String, CodingKey {
            case number, file, frames, durationSeconds, startLatencyMs, audioBuffers, capsChanges, swaps, error, segments
            case keepUp
        }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(number, forKey: .number); try c.encode(file, forKey: .file); try c.encode(frames, forKey: .frames)
            try c.encode(durationSeconds, forKey: .durationSeconds)
            try c.encodeIfPresent(startLatencyMs, forKey: .startLatencyMs)
            try c.encodeIfPresent(audioBuffers, forKey: .audioBuffers)
            try c.encode(capsChanges, forKey: .capsChanges); try c.encode(swaps, forKey: .swaps)
            try c.encodeIfPresent(error, forKey: .error)
            try c.encodeIfPresent(segments, forKey: .segments)
            try c.encodeIfPresent(keepUp, forKey: .keepUp)
            try timing.encode(to: encoder)
        }
    }
    /// One segment of a joined take, as recorded (its own frames, length and drops at its own rate).
    struct Segment: Encodable {
        let file: String
        let frames: Int64
        let durationSeconds: Double
        let dropped: Int64
        /// Still on disk (`--keep-segments`, or a join that failed); false once the join removed it.
        let kept: Bool
    }
    let source: String
    let format: String
    let encoder: String
    let container: String
    let seconds: Double
    let endReason: String
    let camera: Branch
    let operatorView: Branch
    let subjectView: Branch
    let takes: [Take]
    /// From entering main to the first frame reaching the operator preview, ms.
    let firstPreviewFrameMs: Double?
    /// The same instant as CLOCK_MONOTONIC µs, so a caller can measure from before it spawned the process.
    let firstPreviewFrameMonotonicMicros: Int64?

    /// The summary of a finished run, headless or desktop, from what the session saw.
    /// `joined`: takes whose segments were joined: each is listed once, as its joined file (what is on disk).
    init(plan: GraphPlan, counts: BranchCounts, takes: [TakeResult], joined: [JoinedTake] = [], started: Date, endReason: String) {
        let interval = plan.format.frameRate.frameDurationNanoseconds
        self.init(source: plan.camera.label, format: plan.format.description, encoder: plan.encoder.element,
                  container: plan.container.element, seconds: Date().timeIntervalSince(started), endReason: endReason,
                  camera: Self.branch(counts.camera, interval: interval),
                  operatorView: { let b = Self.branch(counts.operatorView, interval: plan.operatorFrameInterval)
                      return Branch(frames: b.frames, dropped: b.dropped + counts.operatorView.sinkDropped) }(),
                  subjectView: Self.branch(counts.subjectView, interval: interval),
                  takes: Self.onDisk(takes.map { Self.take($0, plan: plan) }, joined: joined),
                  firstPreviewFrame: counts.operatorView.firstArrivalMicros)
    }

    init(source: String, format: String, encoder: String, container: String, seconds: Double, endReason: String,
         camera: Branch, operatorView: Branch, subjectView: Branch, takes: [Take], firstPreviewFrame: Int64? = nil) {
        firstPreviewFrameMonotonicMicros = firstPreviewFrame
        firstPreviewFrameMs = firstPreviewFrame.map { Double($0 - DuoCaptureMain.launchMicros) / 1000 }
        self.source = source; self.format = format; self.encoder = encoder; self.container = container
        self.seconds = seconds; self.endReason = endReason; self.camera = camera
        self.operatorView = operatorView.view(); self.subjectView = subjectView.view(); self.takes = takes
    }

    /// A take's line in the summary, from what the session saw.
    static func take(_ r: TakeResult, plan: GraphPlan) -> Take {
        // The take's own rate (individual mode: each camera records at its own).
        let interval = r.frameInterval(or: plan.format)
        var take = Take(number: r.number, file: r.path, frames: r.frames.frames,
                        durationSeconds: Double(r.frames.frames) * Double(interval) / 1e9,
                        startLatencyMs: r.startLatency.map { Double($0) / 1e6 }, audioBuffers: r.audio?.frames,
                        timing: r.frames.timing(interval: interval), capsChanges: r.frames.capsChanges, swaps: r.swaps.count, error: r.failure?.message)
        take.keepUp = r.keepUp(format: plan.format)?.message
        return take
    }

    /// The takes as they are on disk: a joined take's segments give way to its joined file (which lists
    /// them, each said kept or not), in the first segment's place.
    static func onDisk(_ takes: [Take], joined: [JoinedTake]) -> [Take] {
        var list = takes
        for j in joined {
            let parts = list.filter { j.segments.contains(($0.file as NSString).lastPathComponent) }
            guard let first = parts.first, let at = list.firstIndex(where: { $0.file == first.file }) else { continue }
            let s = j.sidecar
            let segments = parts.map { Segment(file: $0.file, frames: $0.frames, durationSeconds: $0.durationSeconds, dropped: $0.dropped,
                                               kept: FileManager.default.fileExists(atPath: $0.file)) }
            let timing = FrameTiming(dropped: parts.reduce(0) { $0 + $1.dropped }, maxGapMs: parts.map(\.timing.maxGapMs).max() ?? 0,
                                     minGapMs: parts.compactMap(\.timing.minGapMs).min())
            let whole = Take(number: j.take, file: j.file, frames: s.frames ?? 0, durationSeconds: s.durationSeconds ?? 0,
                             startLatencyMs: first.startLatencyMs, audioBuffers: s.audio?.buffers, timing: timing,
                             capsChanges: parts.reduce(0) { $0 + $1.capsChanges }, swaps: s.swaps.count,
                             error: parts.compactMap(\.error).first, segments: segments)
            list.removeAll { part in parts.contains { $0.file == part.file } }
            list.insert(whole, at: min(at, list.count))
        }
        return list
    }

    static func branch(_ c: FrameCount, interval: Int64) -> Branch {
        Branch(frames: c.frames, dropped: c.dropped(interval: interval))
    }

    /// The summary printed at the end of a run, in the operator's language (the JSON one stays English).
    var text: String {
        var lines = [
            tr("duo-capture: %s s from %s at %s (%s)", String(format: "%.1f", seconds), source, format, endReason),
            tr("  camera    %s frames, %s dropped", camera.frames, camera.dropped),
            tr("  operator  %s frames, %s skipped by the preview", operatorView.frames, operatorView.dropped)
                + (firstPreviewFrameMs.map { tr(", first after %s ms", String(format: "%.0f", $0)) } ?? ""),
            tr("  subject   %s frames, %s skipped by the subject view", subjectView.frames, subjectView.dropped),
        ]
        for t in takes {
            lines.append(tr("  take %s    %s: %s frames, %s s, %s in %s", t.number, t.file, t.frames, String(format: "%.2f", t.durationSeconds), encoder, container)
                         + (t.audioBuffers.map { tr(", %s audio buffers", $0) } ?? "")
                         + (t.startLatencyMs.map { tr(", first frame %s ms after the countdown", String(format: "%.1f", $0)) } ?? "")
                         + tr(", %s dropped", t.dropped)
                         + (t.segments.map { s in
                             let kept = s.filter(\.kept).count
                             return kept == s.count ? tr(", joined from %s segments (kept)", s.count)
                                 : kept == 0 ? tr(", joined from %s segments (removed)", s.count)
                                 : tr(", joined from %s segments (%s kept)", s.count, kept)
                         } ?? "")
                         + (t.error.map { " — \($0)" } ?? "")
                         + (t.keepUp.map { " — \($0)" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// A take whose segments were joined into one file (Parts/JoinsPart): its number, the joined file (full
/// path), its segments' names and the joined take's sidecar.
///
/// Thread: value type, Sendable.
struct JoinedTake: Sendable {
    let take: Int
    let file: String
    let segments: [String]
    let sidecar: TakeSidecar
    let kept: Bool
}
