import Foundation

//  A microphone by name (`--audio NAME|id:NODE`): the graph's silence-and-mixer head, the policy that says
//  when the microphone is lost and taken back, and the memory of the microphone last used.

extension AudioSource {
    /// The sound every microphone leg is converted to, and the silence it is mixed over (audio.gst pins
    /// the same caps after the mixer).
    public static let microphoneCaps = "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2"

    /// A live silence into the mixer the microphone's leg joins: the mixer goes on with the silence alone
    /// while the microphone is gone, so the sound's timeline never stops (10 ms buffers, like the test
    /// tone). The mixer waits 100 ms for a leg's late buffers (PipeWire delivers in quanta of ~20 ms).
    static var silenceAndMixer: String {
        "audiotestsrc name=\(GraphElement.audioSilence.rawValue) is-live=true wave=silence samplesperbuffer=480"
            + " ! \(microphoneCaps) ! audiomixer name=\(GraphElement.audioMixer.rawValue) latency=100000000"
    }

    /// The microphone's stable identity (`node.name`) when the sound is a named microphone.
    public var microphoneNode: String? {
        if case .microphone(let node, _) = self { return node }
        return nil
    }
}

/// The named microphone's health: lost when it is unplugged (the device monitor), fails (an error in its
/// leg) or goes quiet (its leg delivers nothing for `lossTimeout`); taken back when the device monitor
/// reports it again, or tried again every `retryInterval` while it is lost but still listed. Keeps every
/// span without sound, so each take's sidecar can list its own. Facts in, decisions out; the run
/// director carries them out (the leg detached, attached, the events).
///
/// Thread: value type; owned by the run director's actor. Time is a parameter (pipeline running time, ns).
public struct MicrophoneHealth: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// Take the leg out (if still in) and say the microphone is lost.
        /// `reason` in English (events, the sidecar) and in the operator's language (the HUD, the log).
        case lost(reason: Said)
        /// Attach a new leg (taking out a silent one first).
        case reattach
        /// The new leg delivers: say the microphone is back.
        case restored
    }

    /// A span without the microphone's sound, running time ns; `to` nil while it lasts.
    public struct Gap: Sendable, Equatable {
        public var from: Int64
        public var to: Int64?
        public init(from: Int64, to: Int64?) { self.from = from; self.to = to }
    }

    public let lossTimeout: Int64
    public let retryInterval: Int64
    public private(set) var isLost = false
    /// Whether the device monitor lists the microphone now.
    public private(set) var devicePresent = true
    /// Whether a leg is attached (after `attached`, until `detached`).
    public private(set) var legAttached = false
    public private(set) var gaps: [Gap] = []
    private var buffers: Int64 = 0
    private var progressAt: Int64 = 0
    private var attachedAt: Int64 = 0

    public init(lossTimeout: Int64 = 600_000_000, retryInterval: Int64 = 2_000_000_000) {
        self.lossTimeout = lossTimeout
        self.retryInterval = retryInterval
    }

    /// A leg was attached at `now` (at the start, or to take the microphone back): its count starts at 0.
    public mutating func attached(at now: Int64) {
        legAttached = true
        buffers = 0
        attachedAt = now
        progressAt = now
    }

    public mutating func detached() { legAttached = false }

    /// The attached leg's buffer count at `now`.
    public mutating func observe(buffers count: Int64, at now: Int64) -> Decision? {
        if legAttached, count > buffers {
            buffers = count
            progressAt = now
            if isLost { return restore(at: now) }
            return nil
        }
        if !isLost {
            // A leg that never delivered (PipeWire sometimes links a new stream to nothing): a new one.
            if legAttached, buffers == 0, now - attachedAt >= retryInterval {
                attachedAt = now
                return .reattach
            }
            // Quiet after it delivered: lost since its last sound.
            guard legAttached, buffers > 0, now - progressAt > lossTimeout else { return nil }
            return lose(at: progressAt, reason: .text("delivered no sound for %s s", CameraHealth.seconds(now - progressAt)))
        }
        // Lost, and listed: try again (a new leg) every retryInterval.
        if devicePresent, now - (legAttached ? attachedAt : progressAt) >= retryInterval {
            progressAt = now
            return .reattach
        }
        return nil
    }

    /// The leg failed (an error from one of its elements).
    public mutating func failed(_ reason: String, at now: Int64) -> Decision? {
        guard !isLost else { return nil }
        return lose(at: now, reason: Said(verbatim: reason))
    }

    /// The device monitor no longer lists the microphone.
    public mutating func deviceRemoved(at now: Int64) -> Decision? {
        devicePresent = false
        guard !isLost else { return nil }
        return lose(at: now, reason: .text("unplugged (the device is gone)"))
    }

    /// The device monitor lists the microphone again: taken back at once when it was lost.
    public mutating func deviceAdded(at now: Int64) -> Decision? {
        let wasGone = !devicePresent
        devicePresent = true
        guard isLost, wasGone else { return nil }
        progressAt = now
        return .reattach
    }

    private mutating func lose(at from: Int64, reason: Said) -> Decision {
        isLost = true
        gaps.append(Gap(from: from, to: nil))
        return .lost(reason: reason)
    }

    private mutating func restore(at now: Int64) -> Decision {
        isLost = false
        if let last = gaps.indices.last, gaps[last].to == nil { gaps[last].to = now }
        return .restored
    }

    /// The spans without sound inside `start…end`, in seconds from `start` (for a take's sidecar); a
    /// span still open ends at `end`.
    public func gaps(from start: Int64, to end: Int64) -> [(from: Double, to: Double)] {
        gaps.compactMap { gap in
            let a = max(gap.from, start), b = min(gap.to ?? end, end)
            guard b > a else { return nil }
            return (Double(a - start) / 1e9, Double(b - start) / 1e9)
        }
    }

    /// How long the sound has been missing at `now` (nil while it is there).
    public func missing(at now: Int64) -> Int64? {
        guard isLost, let open = gaps.last, open.to == nil else { return nil }
        return max(0, now - open.from)
    }
}

extension CameraMemory {
    /// The microphone last used, by `node.name` (`$XDG_STATE_HOME/duo-capture/last-microphone`): `--audio
    /// auto` takes it again when it is there.
    public static func microphone() -> CameraMemory {
        CameraMemory(file: (SpeedMemory.stateDirectory() as NSString).appendingPathComponent("last-microphone"))
    }
}
