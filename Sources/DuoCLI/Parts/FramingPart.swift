import DuoCore
import DuoMedia
import Foundation

//  Framing hints as a run part (`--framing`): the face detector's boxes go to DuoCore's FramingPolicy; its
//  hints go to the subject view (through the whitelisted view model), the operator HUD and a `framing` event.
//
//   session (.faces, .framingUnavailable) ─┐                             ┌─▶ presenter (the subject's hint)
//   tick (a hint comes due) ───────────────┴─▶ FramingPart ─ policy ─────┼─▶ `framing` events
//                                                (FramingPolicy)         └─▶ HUD (hint, face boxes)

/// Framing hints.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class FramingPart: RunPart {
    /// What the last `framing` event said, so one is sent when something a reader would notice changed.
    ///
    /// Thread: value type.
    private struct Report {
        var faceCount = -1
        var at: Int64?
    }

    /// The policy (nil: no framing hints in this run, or the detector is not there).
    private var policy: FramingPolicy?
    private var report = Report()

    init(plan: GraphPlan) {
        if plan.framing != .off {
            policy = FramingPolicy(mode: plan.framing, aspect: plan.aspect, frameWidth: plan.format.width, frameHeight: plan.format.height)
        }
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        switch event {
        case .faces(let boxes, _):
            // One detector frame's faces (fractions of the unmirrored camera frame).
            guard policy != nil else { return true }
            let now = run.clock.now()
            await changed(policy!.observe(boxes, at: now), at: now, run)
        case .framingUnavailable(let why):
            // The detector is not installed or failed: one line, and the run goes on without hints.
            guard policy != nil else { return true }
            policy = nil
            run.log("duo-capture: framing hints are off: \(why)")
            await run.presenter.setFramingHints([], at: run.clock.now())
        default: return false
        }
        return true
    }

    /// A tick: "no one in frame" can come due, and a hint confirmed, with no new detector frame.
    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {
        guard policy != nil else { return }
        await changed(policy!.update(at: now), at: now, run)
    }

    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {
        guard let policy else { return }
        f.framing = policy.mode.rawValue
        // The operator's language on the HUD (the subject's view has the subject's).
        f.framingHint = policy.shown.isEmpty ? nil : policy.shown.map { $0.text(in: Translation.operatorLanguage) }.joined(separator: " · ")
        f.faces = policy.faces
        f.previewMirrored = run.plan.mirrors(activeCamera: await run.capture.activeCamera).operatorPreview
    }

    /// Carries out a decision (nil: the hints stand) and sends a `framing` event: at the first detector
    /// frame, when the hints change, and at most once a second otherwise, while someone is in the picture
    /// (the boxes move) or when the number of faces changed.
    private func changed(_ decision: FramingDecision?, at now: Int64, _ run: isolated RunDirector) async {
        guard let policy else { return }
        if let decision {
            await run.presenter.setFramingHints(decision.hints, at: now)
            Diagnostics.debug("framing: \(decision.text ?? "no hint") (\(decision.reason))")
        }
        let faces = policy.faces
        // A detector that loses and finds a face frame by frame says so at most once a second.
        let second = report.at.map { now - $0 >= nanosecondsPerSecond } ?? true
        let due = decision != nil || report.at == nil || (second && (!faces.isEmpty || faces.count != report.faceCount))
        guard due else { return }
        report = Report(faceCount: faces.count, at: now)
        let text = FramingDecision(hints: policy.shown, faces: faces, reason: "").text
        run.events.emit(.framing(.init(
            mode: policy.mode.rawValue,
            faces: faces.map { .init(x: Self.rounded($0.x), y: Self.rounded($0.y), width: Self.rounded($0.width), height: Self.rounded($0.height)) },
            hint: text,
            hints: policy.shown.map { .init(person: $0.person?.rawValue, hint: $0.hint.text) },
            reason: decision?.reason)))
    }

    private static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
