import DuoCore
import DuoMedia
import Foundation

//  The run director's named microphone (`--audio NAME|id:NODE`): MicrophoneHealth's decisions carried out.
//  Lost (unplugged, failed, gone quiet), its leg is taken out and the take goes on with silence; back (the
//  device monitor lists it again, or a retry delivers), a new leg joins the mixer. Each is an event
//  (`microphone-lost`, `microphone-restored`), a line on the HUD, and a gap in the take's sidecar.
//
//  Thread: the run director's actor.

/// The named microphone coming and going (the device monitor): the real one in a run, a scripted one
/// in the director's tests.
///
/// Thread: owned by the run director's actor.
protocol MicrophoneWatchPort: AnyObject, Sendable {
    /// Whether the microphone is listed, when that changed since the last look (nil: no change).
    func change(woken: Bool) -> Bool?
}

extension MicrophoneWatch: MicrophoneWatchPort {}

extension RunDirector {
    var microphonePort: (any MicrophonePort)? { plan.audio.microphoneNode == nil ? nil : capture as? any MicrophonePort }
    var microphoneLabel: String {
        if case .microphone(_, let label) = plan.audio { return label }
        return "microphone"
    }

    /// The run started: the session attached the first leg; watch the device from now on.
    func microphoneStarted() {
        guard let node = plan.audio.microphoneNode else { return }
        microphone.attached(at: clock.now())
        let sink = inputSink
        microphoneWatch = watchMicrophoneDevice(node) { sink.yield(.devicesChanged) }
    }

    /// The device monitor's word and the leg's buffers, each tick (and at once when the monitor wakes).
    func watchMicrophone(at now: Int64, woken: Bool = false) async {
        guard let port = microphonePort, isStarted else { return }
        if let listed = microphoneWatch?.change(woken: woken),
           let decision = listed ? microphone.deviceAdded(at: now) : microphone.deviceRemoved(at: now) {
            await carry(decision, port: port, at: now)
        }
        let buffers = await port.microphoneBuffers ?? 0
        if let decision = microphone.observe(buffers: buffers, at: now) { await carry(decision, port: port, at: now) }
    }

    /// The session took a failed leg out.
    func microphoneFailed(_ reason: String) async {
        guard let port = microphonePort else { return }
        let now = clock.now()
        if let decision = microphone.failed(reason, at: now) { await carry(decision, port: port, at: now) } else { microphone.detached() }
    }

    func carry(_ decision: MicrophoneHealth.Decision, port: any MicrophonePort, at now: Int64) async {
        let node = plan.audio.microphoneNode ?? ""
        switch decision {
        case .lost(let reason):
            await port.detachMicrophone()
            microphone.detached()
            interruptions.append((now, "microphone", "lost", reason))
            events.emit(.microphoneLost(label: microphoneLabel, id: node, reason: reason))
            notify("microphone \(microphoneLabel) lost (\(reason)); the take goes on with silence; it is taken back when it returns")
        case .reattach:
            do throws(DuoError) {
                try await port.attachMicrophone()
                microphone.attached(at: now)
            } catch {
                warn("microphone \(microphoneLabel) is listed again but cannot be opened: \(error.message)")
            }
        case .restored:
            let missing = microphone.gaps.last.flatMap { gap in gap.to.map { Double($0 - gap.from) / 1e9 } } ?? 0
            interruptions.append((now, "microphone", "restored", nil))
            events.emit(.microphoneRestored(label: microphoneLabel, id: node, missingSeconds: (missing * 10).rounded() / 10))
            log("duo-capture: microphone \(microphoneLabel) is back (sound was missing for \(String(format: "%.1f", missing)) s)")
            face.say("microphone \(microphoneLabel) is back")
        }
    }

    /// The HUD's line about missing sound: while the microphone is lost, and during a take that lost it.
    func soundNote(at now: Int64) -> String? {
        if let missing = microphone.missing(at: now) {
            return "no sound: microphone lost \(Int(Double(missing) / 1e9)) s ago (the take records silence)"
        }
        guard let start = current?.start else { return nil }
        let gaps = microphone.gaps(from: start, to: now)
        guard !gaps.isEmpty else { return nil }
        let total = gaps.reduce(0) { $0 + $1.to - $1.from }
        return String(format: "take: sound missing %.1f s (microphone lost %d time%@)", total, gaps.count, gaps.count == 1 ? "" : "s")
    }
}

extension RunDirector {
    /// Replaces how the named microphone's device is watched (the director's tests script it).
    func setMicrophoneWatch(_ make: @escaping @Sendable (String, @escaping @Sendable () -> Void) -> (any MicrophoneWatchPort)?) {
        watchMicrophoneDevice = make
    }
}
