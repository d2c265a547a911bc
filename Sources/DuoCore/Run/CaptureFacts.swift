import Foundation

//  What the capture reports to the run: the values that cross from the media (DuoMedia's CaptureSession)
//  to the run director through `CapturePort`. They live here, in the pure layer, so a fake capture needs
//  DuoCore only.

/// What a frame counter saw on one pad.
///
/// Thread: value type, Sendable; a snapshot of a counter written on a streaming thread.
public struct FrameCount: Sendable, Equatable, Codable {
    public var frames: Int64
    /// PTS of the first and last buffer, ns (nil before the first buffer).
    public var firstPTS: Int64?
    /// When the first buffer arrived, CLOCK_MONOTONIC in µs (the clock Python's time.monotonic reads).
    public var firstArrivalMicros: Int64?
    public var lastPTS: Int64?
    /// Largest step between consecutive PTS, ns: more than one frame interval means frames were lost.
    public var maxGap: Int64
    /// Smallest step between consecutive PTS, ns (nil before the second buffer): under half a frame
    /// interval means two frames nearly at once (a cadence broken by a swap).
    public var minGap: Int64? = nil
    public var backwardSteps: Int64
    /// Whether the first buffer was a keyframe (not a delta unit); nil before the first buffer.
    public var firstIsKeyframe: Bool?
    /// First luma byte of the last buffer, and the largest seen, when sampling is on (raw video only).
    public var lumaSample: Int?
    public var lumaMax: Int?
    /// Caps changes seen on the pad (renegotiations); a camera swap in virtual mode must cause none.
    public var capsChanges: Int64 = 0
    /// Time between the first and last buffer when the branch was shut on purpose (the subject view
    /// hidden), ns: frames not sent then are not dropped ones.
    public var shutSpan: Int64 = 0
    /// Frames the sink at the end of the branch dropped itself, too late to draw (never shown).
    public var sinkDropped: Int64 = 0

    public init(frames: Int64, firstPTS: Int64?, firstArrivalMicros: Int64?, lastPTS: Int64?, maxGap: Int64, minGap: Int64? = nil,
                backwardSteps: Int64, firstIsKeyframe: Bool?, lumaSample: Int?, lumaMax: Int?, capsChanges: Int64 = 0, shutSpan: Int64 = 0) {
        self.frames = frames; self.firstPTS = firstPTS; self.firstArrivalMicros = firstArrivalMicros; self.lastPTS = lastPTS
        self.maxGap = maxGap; self.minGap = minGap; self.backwardSteps = backwardSteps; self.firstIsKeyframe = firstIsKeyframe
        self.lumaSample = lumaSample; self.lumaMax = lumaMax; self.capsChanges = capsChanges; self.shutSpan = shutSpan
    }

    public static let zero = FrameCount(frames: 0, firstPTS: nil, firstArrivalMicros: nil, lastPTS: nil, maxGap: 0, backwardSteps: 0, firstIsKeyframe: nil, lumaSample: nil, lumaMax: nil)
}

/// Frames seen on each branch so far.
///
/// Thread: value type, Sendable; a snapshot read on the session actor.
public struct BranchCounts: Sendable, Equatable {
    public var camera: FrameCount
    public var operatorView: FrameCount
    public var subjectView: FrameCount
    public init(camera: FrameCount, operatorView: FrameCount, subjectView: FrameCount) {
        self.camera = camera; self.operatorView = operatorView; self.subjectView = subjectView
    }
}

/// One reading of the audio level meter (`level`, first channel).
///
/// Thread: value type, Sendable; parsed on the bus thread, kept by the session actor, read when wanted
/// (ten readings a second are not worth waking the director for).
public struct AudioLevel: Sendable, Equatable {
    public let rmsDB: Double
    public let peakDB: Double
    /// Pipeline running time when the session received it, ns.
    public let runningTime: Int64
    public init(rmsDB: Double, peakDB: Double, runningTime: Int64) {
        self.rmsDB = rmsDB; self.peakDB = peakDB; self.runningTime = runningTime
    }

    /// The peak in whole dB while the reading is current at `now` (the meter reads every 100 ms; a sound
    /// chain that ended leaves a stale one).
    public func currentPeak(at now: Int64) -> Double? {
        now - runningTime <= 500_000_000 ? peakDB.rounded() : nil
    }
}

/// A switch between the two cameras of a virtual-camera session.
///
/// Thread: value type, Sendable.
public struct CameraSwap: Sendable, Equatable {
    /// Pipeline running time of the switch, ns.
    public let runningTime: Int64
    public let from: String
    public let to: String
    /// The (unchanged) format the session runs at.
    public let format: String
    public init(runningTime: Int64, from: String, to: String, format: String) {
        self.runningTime = runningTime; self.from = from; self.to = to; self.format = format
    }
}

/// A finished take, as the session saw it.
///
/// Thread: value type, Sendable; made by the session actor when a take ends.
public struct TakeResult: Sendable {
    public let number: Int
    public let path: String
    /// Frames that entered the record branch.
    public let frames: FrameCount
    /// Audio buffers that entered the record branch (nil without audio).
    public let audio: FrameCount?
    /// Pipeline running time at which the take started (the countdown's end) and when it was detached, ns.
    public let startRunningTime: Int64
    public let endRunningTime: Int64
    /// Running time of the first video frame and first audio buffer let into the take, ns.
    public let firstFrameRunningTime: Int64?
    public let firstAudioRunningTime: Int64?
    public let startDate: Date
    public let endDate: Date
    /// Set when the take ended because of an error (disk full, encoder failure); the file holds what was
    /// written before it. A take stopped before its first frame is `empty`, not failed.
    public let failure: DuoError?
    /// Camera swaps while the take recorded.
    public var swaps: [CameraSwap] = []
    /// The format the file records at: its camera's (in individual mode each camera records at its own
    /// rate, so a segment's dropped frames and length are reckoned at this rate, never another camera's).
    /// Nil when not told (then the plan's format applies).
    public var format: VideoFormat?

    public init(number: Int, path: String, frames: FrameCount, audio: FrameCount? = nil, startRunningTime: Int64,
                endRunningTime: Int64, firstFrameRunningTime: Int64? = nil, firstAudioRunningTime: Int64? = nil,
                startDate: Date, endDate: Date, failure: DuoError? = nil, swaps: [CameraSwap] = []) {
        self.number = number; self.path = path; self.frames = frames; self.audio = audio
        self.startRunningTime = startRunningTime; self.endRunningTime = endRunningTime
        self.firstFrameRunningTime = firstFrameRunningTime; self.firstAudioRunningTime = firstAudioRunningTime
        self.startDate = startDate; self.endDate = endDate; self.failure = failure; self.swaps = swaps
    }

    /// Stopped before its first frame: no file is kept, and it is no failure.
    public var empty: Bool { frames.frames == 0 }

    /// The frame interval the take's frames are reckoned against, ns: its own format's, else `fallback`'s.
    public func frameInterval(or fallback: VideoFormat) -> Int64 { (format ?? fallback).frameRate.frameDurationNanoseconds }

    /// Record-start latency: the first recorded frame's capture time after the take's start, ns.
    public var startLatency: Int64? { firstFrameRunningTime.map { $0 - startRunningTime } }
}

/// Thread: value type, Sendable; emitted by the session actor, read by any task.
public enum SessionEvent: Sendable {
    case takeStarted(number: Int, path: String)
    case takeEnded(TakeResult)
    /// The session cannot go on; the graph has been stopped.
    case failed(DuoError)
    case warning(String)
    /// The subject view's branch failed (an element named subject_*): it is shut for the rest of the run,
    /// the preview and the take go on.
    case subjectFailed(String)
    /// Camera `index` (0 = A, 1 = B) failed while the graph ran (an unplugged device's error): its source
    /// is stopped; the run director decides what follows.
    case cameraLost(index: Int, reason: String)
    /// The microphone failed: its branch was ended (EOS), so every take goes on with video only.
    case microphoneLost(String)
    /// Voice-follow's recogniser heard `text` (the utterance so far; `isFinal`: it ended), at pipeline
    /// running time `at` (the audio's own time, so the recogniser's delay does not count).
    case speech(text: String, isFinal: Bool, at: Int64)
    /// The recogniser's branch failed: it is shut; the sound, the preview and the take go on.
    case recogniserFailed(String)
    /// Remote display `index`'s branch failed (the display went, the network broke): it was detached.
    case remoteLost(index: Int, reason: String)
    /// The face detector (framing hints) looked at a frame at pipeline time `at`: the faces it found, as
    /// fractions of the unmirrored camera frame (empty: nobody).
    case faces([FaceBox], at: Int64)
    /// The face detector is not installed, or failed: the run goes on without framing hints (said once).
    case framingUnavailable(String)
    /// The replay buffer's branch failed (`--replay`): it is dropped, the preview and any take go on.
    case replayFailed(String)
}

