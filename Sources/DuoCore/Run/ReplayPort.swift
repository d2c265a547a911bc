import Foundation

//  The replay buffer's port (`--replay SECONDS`, issue 39): the run's replay part asks the media to keep
//  the last SECONDS of encoded video and sound, and to write them out as a file of their own. DuoMedia's
//  CaptureSession is the real one (its conformance is in DuoCLI).

/// A replay written out: the file, the span it holds (pipeline running time, ns) and what it holds.
///
/// Thread: value type, Sendable.
public struct ReplayClip: Sendable, Equatable {
    public var path: String
    /// The first frame's capture time (a keyframe), running time ns.
    public var startRunningTime: Int64
    /// The last frame's end, running time ns.
    public var endRunningTime: Int64
    public var videoFrames: Int
    public var audioPackets: Int
    /// Bytes written (the packets' payload; the container adds a little).
    public var bytes: Int
    /// The buffer's figures when it was saved (the most it ever held, its cap).
    public var buffer: ReplayFigures?

    public init(path: String, startRunningTime: Int64, endRunningTime: Int64, videoFrames: Int, audioPackets: Int, bytes: Int) {
        self.path = path; self.startRunningTime = startRunningTime; self.endRunningTime = endRunningTime
        self.videoFrames = videoFrames; self.audioPackets = audioPackets; self.bytes = bytes
    }

    public var seconds: Double { Double(max(endRunningTime - startRunningTime, 0)) / 1e9 }
}

/// The replay buffer's figures now: what it holds and the most it ever held.
///
/// Thread: value type, Sendable.
public struct ReplayFigures: Sendable, Equatable {
    public var heldSeconds: Double
    public var bytes: Int
    public var peakBytes: Int
    public var byteCap: Int
    public init(heldSeconds: Double, bytes: Int, peakBytes: Int, byteCap: Int) {
        self.heldSeconds = heldSeconds; self.bytes = bytes; self.peakBytes = peakBytes; self.byteCap = byteCap
    }
}

/// What the replay part needs from the media.
///
/// Thread: implementations are actors (or otherwise safe to call from the director's actor).
public protocol ReplayPort: Sendable {
    /// Starts keeping the last `seconds` of encoded video and sound (a branch of its own on the tees).
    func startReplay(seconds: Int) async throws(DuoError)
    /// Writes what the buffer holds now into `path` (Matroska, from its first keyframe, times from 0),
    /// with `chapters` (seconds from the replay's start) given by `chaptersAt` once the span is known.
    /// A write that fails removes its partial file and throws a one-line error; the buffer goes on.
    func saveReplay(to path: String, chaptersAt: @escaping @Sendable (Int64, Int64) -> [TakeChapter]) async throws(DuoError) -> ReplayClip
    /// The buffer's figures (nil while it is off).
    var replayFigures: ReplayFigures? { get async }
}
