import DuoCore
import DuoMedia
import DuoRender
import Foundation

//  The run director's framing hints: the face detector's boxes go to DuoCore's FramingPolicy; its hints
//  go to the subject view (through the whitelisted view model), the operator HUD and a `framing` event.
//
//  Thread: the run director's actor.

/// What the last `framing` event said, so one is sent when something a reader would notice changed.
///
/// Thread: value type; owned by the run director's actor.
struct FramingReport: Sendable {
    var faceCount = -1
    var at: Int64?
}

extension RunDirector {
    /// One detector frame's faces (fractions of the unmirrored camera frame).
    func facesSeen(_ boxes: [FaceBox]) async {
        guard framing != nil else { return }
        let now = clock.now()
        let decision = framing!.observe(boxes, at: now)
        await framingChanged(decision, at: now)
    }

    /// A tick: "no one in frame" can come due, and a hint confirmed, with no new detector frame.
    func framingTick(_ now: Int64) async {
        guard framing != nil else { return }
        await framingChanged(framing!.update(at: now), at: now)
    }

    /// Carries out a decision (nil: the hints stand) and sends a `framing` event: at the first detector
    /// frame, when the hints change, and at most once a second otherwise, while someone is in the picture
    /// (the boxes move) or when the number of faces changed.
    private func framingChanged(_ decision: FramingDecision?, at now: Int64) async {
        guard let policy = framing else { return }
        if let decision {
            await presenter.setFramingHints(decision.hints, at: now)
            Diagnostics.debug("framing: \(decision.text ?? "no hint") (\(decision.reason))")
        }
        let faces = policy.faces
        // A detector that loses and finds a face frame by frame says so at most once a second.
        let second = framingReport.at.map { now - $0 >= nanosecondsPerSecond } ?? true
        let due = decision != nil || framingReport.at == nil || (second && (!faces.isEmpty || faces.count != framingReport.faceCount))
        guard due else { return }
        framingReport = FramingReport(faceCount: faces.count, at: now)
        let text = FramingDecision(hints: policy.shown, faces: faces, reason: "").text
        events.emit(.framing(.init(
            mode: policy.mode.rawValue,
            faces: faces.map { .init(x: Self.rounded($0.x), y: Self.rounded($0.y), width: Self.rounded($0.width), height: Self.rounded($0.height)) },
            hint: text,
            hints: policy.shown.map { .init(person: $0.person?.rawValue, hint: $0.hint.text) },
            reason: decision?.reason)))
    }

    private static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

    /// The detector is not installed or failed: one line, and the run goes on without hints.
    func framingUnavailable(_ why: String) async {
        guard framing != nil else { return }
        framing = nil
        log("duo-capture: framing hints are off: \(why)")
        await presenter.setFramingHints([], at: clock.now())
    }
}
