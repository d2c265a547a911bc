//  The run director's port to the media: DuoMedia's CaptureSession is the real one (its conformance is
//  in DuoCLI); a fake in the director's tests needs nothing but DuoCore.

/// What the run director needs from the media: the live graph and its takes. `CaptureSession` is the
/// real one; the director's tests use a fake that records calls and makes up frames.
///
/// Thread: implementations are actors (or otherwise safe to call from the director's actor).
public protocol CapturePort: Sendable {
    /// Facts the media reports by itself: a take that failed (full disk), a fatal error, warnings, levels.
    var events: AsyncStream<SessionEvent> { get }
    /// Builds the graph and brings it to PLAYING.
    func startCapture() async throws(DuoError)
    /// Finalises a running take, stops the graph. Idempotent.
    func stopCapture() async
    var isRecording: Bool { get async }
    var counts: BranchCounts { get async }
    /// The sound meter's latest reading (nil without sound or before the first).
    var audioLevel: AudioLevel? { get async }
    /// Attaches take `number`'s record branch so that frames captured from `startingAt` (running time, ns)
    /// on go into `path`. Returns the take's actual start: the later of `startingAt` and now.
    func beginTake(number: Int, path: String, startingAt: Int64) async throws(DuoError) -> Int64
    /// Ends the running take and waits until its file is finalised (nil when none runs).
    func endTake() async -> TakeResult?
    /// The running take's chapters (its start, the shot, each note and flag; seconds into the take): the
    /// file's muxer writes them as it is finalised (Matroska; MP4 keeps none).
    func setTakeChapters(_ chapters: [TakeChapter]) async
    var activeCamera: Int { get async }
    func switchCamera(to index: Int) async throws(DuoError) -> CameraSwap?
    func setSubjectBranchOpen(_ open: Bool) async
    /// How much of the subject branch's camera picture the subject sees, so the graph spends only that.
    func setSubjectPictureUse(_ use: SubjectPictureUse) async
    /// The subject view is mirrored for glass: the subject's picture (self-view, preview) flips with it.
    func setSubjectViewMirror(_ mirror: MirrorFlags) async
    /// Frames each camera delivered (A, B); one entry with one camera.
    var cameraFrames: [Int64] { get async }
    /// Camera `index`'s source stops (a camera lost, unplugged) or starts again in step with the graph.
    func setCameraPlugged(_ index: Int, _ plugged: Bool) async throws(DuoError)
    func setCameraDevice(_ index: Int, path: String) async throws(DuoError)
    /// Replaces voice-follow's recogniser with one prepared off the director (its model already loaded).
    func installRecogniser(_ prepared: any PreparedRecogniser) async throws(DuoError)
    /// Whose face each camera (A, B) sees from now on; the displays' mirroring follows at once.
    func setFaces(_ faces: [FacingViewer]) async
    func attachRemote(_ index: Int, address: SRTAddress, width: Int, height: Int, passphrase: String?,
                      latencyMilliseconds: Int, drawer: any I420FrameDrawer) async throws(DuoError)
}


/// How much of the subject branch's camera picture reaches the subject's eyes.
///
/// Thread: value type, Sendable.
public enum SubjectPictureUse: Sendable, Equatable {
    /// The view paints over all of it (headless countdown or teleprompter without a self-view): scaled
    /// coarsely (nearest-neighbour) and not flipped.
    case covered
    /// The view samples a thumbnail from it (the headless self-view, nearest-neighbour itself): scaled
    /// coarsely, mirrored.
    case thumbnail
    /// Shown as the graph delivers it (the preview kind; the desktop's self-view): scaled finely, mirrored.
    case shown

    /// What a run shows: `kind` and the self-view, the view drawn into the frames (headless) or not.
    public static func of(kind: AccessoryKind, selfView: Bool, viewDrawnIntoFrames: Bool) -> SubjectPictureUse {
        if kind == .preview || (selfView && !viewDrawnIntoFrames) { return .shown }
        return selfView ? .thumbnail : .covered
    }
}

extension CapturePort {
    /// Nothing to flip (a port without a subject picture).
    public func setSubjectViewMirror(_ mirror: MirrorFlags) async {}
}

/// A named microphone's leg (`--audio NAME`): attached again when it returns, taken out when it is lost,
/// and its buffers counted (MicrophoneHealth decides from them). The real one is CaptureSession's; a
/// port without one has nothing to attach.
///
/// Thread: implementations are actors (or otherwise safe to call from the director's actor).
public protocol MicrophonePort: Sendable {
    func attachMicrophone() async throws(DuoError)
    func detachMicrophone() async
    /// Buffers the attached leg delivered (nil while none is attached).
    var microphoneBuffers: Int64? { get async }
}

/// A recogniser with its model loaded, ready to replace the one listening: made by the voice port off the
/// director, handed to the capture, opaque to everything between.
///
/// Thread: Sendable; made on any thread, attached on the capture's actor.
public protocol PreparedRecogniser: AnyObject, Sendable {}
