import DuoCore

//  The capture session's takes: each take is a record branch on the camera tee (and the audio tee) that
//  the TakeRecorder (TakeRecorder.swift, an actor of its own) attaches, detaches and finalises while the
//  preview runs. These are the session's doors to it, while the graph runs.

extension CaptureSession {
    public var isRecording: Bool { get async { await recorder?.isRecording ?? false } }
    /// Tests turn this off (before or after start) to keep a failed take attached and prove the tee is
    /// shielded from its errors rather than rescued by how fast the bus is read.
    func setDetachesFailedTakes(_ value: Bool) async {
        detachesFailedTakes = value
        await recorder?.setDetachesFailedTakes(value)
    }
    /// The running take's failure, before the take has been detached.
    var runningTakeFailure: DuoError? { get async { await recorder?.runningTakeFailure } }
    /// Every take this session ended, in order, however it ended (stopTake, a failure, stop()).
    public var endedTakes: [TakeResult] { get async { await recorder?.endedTakes ?? [] } }
    /// The running take's start in pipeline running time (ns): the later of the requested start and the
    /// moment it was attached. The teleprompter's scroll and the sidecar's markers use this same instant.
    public var takeStartRunningTime: Int64? { get async { await recorder?.takeStartRunningTime } }
    /// Frames that entered the running take's branch so far (nil when not recording).
    public var takeFrames: FrameCount? { get async { await recorder?.takeFrames } }

    /// Attaches a new record branch (video, and audio when the plan has it) to the running tees. Frames
    /// captured at or after `startingAt` (pipeline running time, ns; default: now) go into `path`; earlier
    /// ones are dropped at the tee pads, so a take can be attached just before its countdown ends and
    /// still start exactly at the end. Returns the take's number (`number`, or the next one).
    @discardableResult
    public func startTake(path: String, startingAt requestedStart: Int64? = nil, number: Int? = nil) async throws(DuoError) -> Int {
        guard let recorder, failure == nil else { throw .runtime(.text("cannot start a take: the capture session is not running")) }
        return try await recorder.start(path: path, format: activeFormat, startingAt: requestedStart, number: number)
    }

    /// The running take's chapters: its muxer writes them as the file is finalised (Matroska only).
    public func setChapters(_ chapters: [TakeChapter]) async { await recorder?.setChapters(chapters) }

    /// Detaches the record branch at a frame boundary and waits until the file is finalised; the preview
    /// keeps running. A call while a stop is in flight awaits that stop and gets its result.
    public func stopTake() async throws(DuoError) -> TakeResult {
        guard let recorder else { throw .runtime(.text("no take is recording")) }
        return try await recorder.stop()
    }
}
