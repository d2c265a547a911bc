import DuoCore
import DuoMedia

/// What the run director needs from the media: the live graph and its takes. `CaptureSession` is the
/// real one; the director's tests use a fake that records calls and makes up frames.
///
/// Thread: implementations are actors (or otherwise safe to call from the director's actor).
protocol CapturePort: Sendable {
    /// Facts the media reports by itself: a take that failed (full disk), a fatal error, warnings, levels.
    var events: AsyncStream<SessionEvent> { get }
    /// Builds the graph and brings it to PLAYING.
    func startCapture() async throws(DuoError)
    /// Finalises a running take, stops the graph. Idempotent.
    func stopCapture() async
    var isRecording: Bool { get async }
    var counts: BranchCounts { get async }
    /// Attaches take `number`'s record branch so that frames captured from `startingAt` (running time, ns)
    /// on go into `path`. Returns the take's actual start: the later of `startingAt` and now.
    func beginTake(number: Int, path: String, startingAt: Int64) async throws(DuoError) -> Int64
    /// Ends the running take and waits until its file is finalised (nil when none runs).
    func endTake() async -> TakeResult?
    var activeCamera: Int { get async }
    func switchCamera(to index: Int) async throws(DuoError) -> CameraSwap?
    func setSubjectBranchOpen(_ open: Bool) async
    /// Frames each camera delivered (A, B); one entry with one camera.
    var cameraFrames: [Int64] { get async }
    /// The test hub: camera `index` stops delivering (unplugged) or comes back.
    func setCameraPlugged(_ index: Int, _ plugged: Bool) async throws(DuoError)
    func setCameraDevice(_ index: Int, path: String) async throws(DuoError)
    func rotateCamera(_ index: Int, degrees: Int) async throws(DuoError)
    func replaceRecogniser(_ loaded: CaptureSession.LoadedRecogniser) async throws(DuoError)
    func attachRemote(_ index: Int, address: SRTAddress, width: Int, height: Int, passphrase: String?,
                      latencyMilliseconds: Int, drawer: any I420FrameDrawer) async throws(DuoError)
}

extension CaptureSession: CapturePort {
    func startCapture() async throws(DuoError) { try await start(beforePlaying: nil) }
    func stopCapture() async { await stop() }

    func beginTake(number: Int, path: String, startingAt: Int64) async throws(DuoError) -> Int64 {
        try await startTake(path: path, startingAt: startingAt, number: number)
        return await takeStartRunningTime ?? startingAt
    }

    func endTake() async -> TakeResult? { try? await stopTake() }

    func switchCamera(to index: Int) async throws(DuoError) -> CameraSwap? { try await selectCamera(index) }
}
