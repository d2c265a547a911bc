import DuoCore
import Foundation

//  The microphone as a run part. A named one (`--audio NAME|id:NODE`): MicrophoneHealth's decisions carried
//  out. Lost (unplugged, failed, gone quiet), its leg is taken out and the take goes on with silence; back
//  (the device monitor lists it again, or a retry delivers), a new leg joins the mixer. Each is an event
//  (`microphone-lost`, `microphone-restored`), a line on the HUD, and a gap in the take's sidecar. Any other
//  microphone lost ends the sound for the run, said once.
//
//   device port (listed or not) ─┐                                ┌─▶ capture (MicrophonePort: leg attached, detached)
//   each tick's buffers ─────────┼─▶ MicrophonePart ─ health ─────┼─▶ events, HUD's sound line, sidecar gaps
//   session (.microphoneLost) ───┘     (MicrophoneHealth)         └─▶ status and HUD's audio peak (none while lost)

/// The microphone's losses, restorations and gaps.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class MicrophonePart: RunPart {
    /// The named microphone's device node (nil: no named microphone, nothing is watched).
    private let node: String?
    private let label: String
    private var health = MicrophoneHealth()
    private let startWatch: @Sendable (String, @escaping @Sendable () -> Void) -> (any MicrophoneWatchPort)?
    private var watch: (any MicrophoneWatchPort)?

    init(plan: GraphPlan, watch: @escaping @Sendable (String, @escaping @Sendable () -> Void) -> (any MicrophoneWatchPort)?) {
        node = plan.audio.microphoneNode
        if case .microphone(_, let label) = plan.audio { self.label = label } else { label = "microphone" }
        startWatch = watch
    }

    private func port(_ run: isolated RunDirector) -> (any MicrophonePort)? {
        node == nil ? nil : run.capture as? any MicrophonePort
    }

    /// The run started: the session attached the first leg; watch the device from now on.
    func started(_ run: isolated RunDirector) async {
        guard let node else { return }
        health.attached(at: run.clock.now())
        let inbox = run.inbox
        watch = startWatch(node) { inbox.send(.devicesChanged) }
    }

    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async { await look(at: now, run) }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        if case .devicesChanged = input { await look(at: run.clock.now(), woken: true, run) }
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        guard case .microphoneLost(let reason) = event else { return false }
        let now = run.clock.now()
        if node != nil {
            // A named microphone's leg failed (the session took it out): lost, taken back when it returns.
            guard let port = port(run) else { return true }
            if let decision = health.failed(reason, at: now) { await carry(decision, port: port, at: now, run) } else { health.detached() }
        } else {
            run.sidecars.interrupted(at: now, device: "microphone", what: "lost", reason: reason)
            run.notify("the microphone was lost (\(reason)); the run and any take go on without sound", errorEvent: true)
        }
        return true
    }

    func figures(_ f: inout HudModel.Run, _ run: isolated RunDirector, at now: Int64) async {
        f.soundNote = soundNote(at: now, take: run.takes.current)
    }

    /// The sound's peak now, in whole dB: nil without sound, while the microphone is lost, or when the
    /// meter has said nothing for half a second (its chain ended).
    func audioPeak(at now: Int64, _ run: isolated RunDirector) async -> Double? {
        health.isLost ? nil : await run.capture.audioLevel?.currentPeak(at: now)
    }

    /// The spans without sound between `from` and `to` (a take's sidecar), seconds into it.
    func gaps(from: Int64, to: Int64) -> [(from: Double, to: Double)] { health.gaps(from: from, to: to) }

    /// The HUD's line about missing sound: while the microphone is lost, and during a take that lost it.
    func soundNote(at now: Int64, take: TakeSchedule.Current?) -> String? {
        if let missing = health.missing(at: now) {
            return tr("no sound: microphone lost %d s ago (the take records silence)", Int(Double(missing) / 1e9))
        }
        guard let start = take?.start else { return nil }
        let gaps = health.gaps(from: start, to: now)
        guard !gaps.isEmpty else { return nil }
        let total = gaps.reduce(0) { $0 + $1.to - $1.from }
        return trn("take: sound missing %1$s s (microphone lost %2$d time)", "take: sound missing %1$s s (microphone lost %2$d times)",
                   gaps.count, String(format: "%.1f", total), gaps.count)
    }

    /// The device monitor's word and the leg's buffers, each tick (and at once when the monitor wakes).
    private func look(at now: Int64, woken: Bool = false, _ run: isolated RunDirector) async {
        guard let port = port(run), run.isStarted else { return }
        if let listed = watch?.change(woken: woken),
           let decision = listed ? health.deviceAdded(at: now) : health.deviceRemoved(at: now) {
            await carry(decision, port: port, at: now, run)
        }
        let buffers = await port.microphoneBuffers ?? 0
        if let decision = health.observe(buffers: buffers, at: now) { await carry(decision, port: port, at: now, run) }
    }

    private func carry(_ decision: MicrophoneHealth.Decision, port: any MicrophonePort, at now: Int64, _ run: isolated RunDirector) async {
        let node = self.node ?? ""
        switch decision {
        case .lost(let reason):
            await port.detachMicrophone()
            health.detached()
            run.sidecars.interrupted(at: now, device: "microphone", what: "lost", reason: reason)
            run.events.emit(.microphoneLost(label: label, id: node, reason: reason))
            run.notify("microphone \(label) lost (\(reason)); the take goes on with silence; it is taken back when it returns")
        case .reattach:
            do throws(DuoError) {
                try await port.attachMicrophone()
                health.attached(at: now)
            } catch {
                run.parts.warnings.warn("microphone \(label) is listed again but cannot be opened: \(error.message)", run)
            }
        case .restored:
            let missing = health.gaps.last.flatMap { gap in gap.to.map { Double($0 - gap.from) / 1e9 } } ?? 0
            run.sidecars.interrupted(at: now, device: "microphone", what: "restored", reason: nil)
            run.events.emit(.microphoneRestored(label: label, id: node, missingSeconds: (missing * 10).rounded() / 10))
            run.log("duo-capture: microphone \(label) is back (sound was missing for \(String(format: "%.1f", missing)) s)")
            run.face.say("microphone \(label) is back")
        }
    }
}
