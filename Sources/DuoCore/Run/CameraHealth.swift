/// The cameras' health: which are lost, which sources are stopped, which devices are gone, which are held
/// out by the test hub, each camera's progress, and when a lost one is tried again. Facts in (frame counts,
/// device changes, what the media did), decisions out (lost with a reason, restored, try again); the run
/// director decides what a loss means for the take (the other camera goes on, the take is finalised, the
/// run ends) and carries it out.
///
/// Thread: value type; owned by the run director's actor. Time is a parameter (pipeline running time, ns).
public struct CameraHealth: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// `reason` in English (events, the sidecar) and in the operator's language (the HUD, the log).
        case lost(Int, reason: Said)
        case restored(Int)
    }

    /// Two cameras: each is watched on its own (one lost, the other goes on).
    public let cameraCount: Int
    /// A camera of two that delivers nothing for this long is lost (four frame intervals, at least 0.3 s).
    public let lossTimeout: Int64
    /// The camera on the air delivering nothing for this long stalls the run (four intervals, at least 2 s).
    public let stallTimeout: Int64
    /// How often a lost camera (not unplugged on purpose, its device not gone) is tried again.
    public let reattachInterval: Int64

    public private(set) var lost: Set<Int> = []
    /// Cameras whose source is stopped (pulled out, unplugged by the hub, stopped after an error): frames
    /// still in flight from before the stop never count as the camera coming back.
    public private(set) var stopped: Set<Int> = []
    /// Cameras whose device the device monitor reported removed: taken back when it is added again.
    public private(set) var gone: Set<Int> = []
    /// Cameras the test hub unplugged: not tried again by themselves.
    public private(set) var heldOut: Set<Int> = []
    private var progress: [Progress] = []
    private var reattachAt: [Int: Int64] = [:]
    /// The camera on the air, as a whole: its frame count and when it last grew.
    private var activeFrames: Int64 = 0
    private var activeProgressAt: Int64 = 0

    struct Progress: Sendable, Equatable { var frames: Int64; var at: Int64 }

    public init(cameraCount: Int, frameRate: Double, reattachInterval: Int64 = 2_000_000_000) {
        self.cameraCount = cameraCount
        let rate = max(frameRate, 0.001)
        lossTimeout = Int64(max(0.3, 4.0 / rate) * 1e9)
        stallTimeout = Int64(max(2.0, 4.0 / rate) * 1e9)
        self.reattachInterval = reattachInterval
    }

    public mutating func started(at now: Int64) { activeProgressAt = now }

    /// The frames of the camera on the air (what the selector passes): a single camera's frames coming
    /// back restore it; silence past `stallTimeout` after its first frame loses the camera on the air.
    public mutating func observeActive(frames: Int64, active: Int, at now: Int64) -> Decision? {
        if frames != activeFrames {
            activeFrames = frames
            activeProgressAt = now
            if cameraCount == 1, lost.contains(0), !stopped.contains(0) { return restore(0) }
        }
        let quiet = now - activeProgressAt
        if frames > 0, quiet > stallTimeout, !lost.contains(active) {
            return .lost(active, reason: .text("delivered no frame for %s s (unplugged or stalled)", Self.seconds(quiet)))
        }
        return nil
    }

    /// Each of two cameras' frames. The camera on the air is judged first: the selector holds the other
    /// one's frames back while it waits for the active stream, so the other is judged only while the
    /// active one delivers.
    public mutating func observe(cameraFrames frames: [Int64], active: Int, at now: Int64) -> [Decision] {
        guard cameraCount == 2, frames.count == 2 else { return [] }
        if progress.count != 2 { progress = frames.map { Progress(frames: $0, at: now) } }
        var decisions: [Decision] = []
        var activeSilent = false
        for i in [active, 1 - active] {
            if frames[i] > progress[i].frames {
                progress[i] = Progress(frames: frames[i], at: now)
                if lost.contains(i), !stopped.contains(i) { decisions.append(restore(i)) }
            } else if frames[i] > 0, !lost.contains(i), now - progress[i].at > lossTimeout {
                if i != active && activeSilent { continue }
                if i == active { activeSilent = true }
                decisions.append(.lost(i, reason: .text("delivered no frame for %s s", Self.seconds(now - progress[i].at))))
                // The camera that goes on the air gets a fresh window: it was held back, not silent.
                progress[1 - i].at = now
                if i == active { break }
            }
        }
        return decisions
    }

    /// Records a loss the director acted on; false when the camera was already lost (report it once).
    public mutating func markLost(_ index: Int, at now: Int64) -> Bool {
        guard !lost.contains(index) else { return false }
        lost.insert(index)
        reattachAt[index] = now + reattachInterval
        return true
    }

    private mutating func restore(_ index: Int) -> Decision {
        lost.remove(index)
        reattachAt[index] = nil
        return .restored(index)
    }

    /// The camera's source was stopped (`false`) or started again (`true`).
    public mutating func sourceRunning(_ index: Int, _ running: Bool) {
        if running { stopped.remove(index) } else { stopped.insert(index) }
    }

    /// The test hub unplugged (`false`) or plugged back (`true`) a camera.
    public mutating func hubPlugged(_ index: Int, _ plugged: Bool) {
        if plugged { heldOut.remove(index) } else { heldOut.insert(index) }
    }

    /// The device monitor saw camera `index`'s device go: true the first time (then lose it).
    public mutating func deviceRemoved(_ index: Int) -> Bool {
        gone.insert(index).inserted
    }

    /// The device monitor saw camera `index`'s device come back: true when it was gone.
    public mutating func deviceAdded(_ index: Int) -> Bool {
        gone.remove(index) != nil
    }

    /// The lost cameras whose time to be tried again has come (never one held out or whose device is gone).
    public mutating func due(at now: Int64) -> [Int] {
        var due: [Int] = []
        for (index, at) in reattachAt.sorted(by: { $0.key < $1.key })
        where now >= at && lost.contains(index) && !heldOut.contains(index) && !gone.contains(index) {
            reattachAt[index] = now + reattachInterval
            due.append(index)
        }
        return due
    }

    static func seconds(_ ns: Int64) -> String {
        let tenths = Int((Double(ns) / 1e8).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
