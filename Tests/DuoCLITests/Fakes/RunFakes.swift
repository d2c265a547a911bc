import DuoCore
import Foundation

//  The run director's fakes: the capture, a remote display, voice-follow's model build and the device
//  monitor, each behind a DuoCore port, so this file needs DuoCore alone (no graph, no network, no devices).

/// A capture port with no graph: takes are files it writes itself, frames are whatever the test says.
///
/// Thread: an actor, like the real session.
actor FakeCapture: CapturePort {
    nonisolated let events: AsyncStream<SessionEvent>
    nonisolated let eventSink: AsyncStream<SessionEvent>.Continuation
    let clock: ManualClock
    let plan: GraphPlan
    var totalFrames: Int64 = 0
    /// Frames each take records by the time it is stopped.
    var framesPerTake: Int64 = 30
    private(set) var begun: [(number: Int, path: String, startingAt: Int64)] = []
    private(set) var subjectOpen: [Bool] = []
    private(set) var stopped = false
    private var take: (number: Int, path: String, start: Int64)?
    private(set) var activeCamera = 0

    init(plan: GraphPlan, clock: ManualClock) {
        self.plan = plan
        self.clock = clock
        (events, eventSink) = AsyncStream.makeStream(of: SessionEvent.self)
    }

    func setCameraFrames(_ n: Int64) { totalFrames = n }
    private(set) var faces: [FacingViewer]?
    func setFaces(_ faces: [FacingViewer]) { self.faces = faces }
    func setFramesPerTake(_ n: Int64) { framesPerTake = n }

    func startCapture() async throws(DuoError) {}
    func stopCapture() async {
        if take != nil { _ = await endTake() }
        stopped = true
        eventSink.finish()
    }
    var isRecording: Bool { take != nil }
    var counts: BranchCounts {
        var camera = FrameCount.zero
        camera.frames = totalFrames
        return BranchCounts(camera: camera, operatorView: .zero, subjectView: .zero)
    }
    var audioLevel: AudioLevel? { nil }

    func beginTake(number: Int, path: String, startingAt: Int64) async throws(DuoError) -> Int64 {
        guard take == nil else { throw .runtime("a take is already recording") }
        begun.append((number, path, startingAt))
        FileManager.default.createFile(atPath: path, contents: Data("take \(number)".utf8))
        let start = max(startingAt, clock.now())
        take = (number, path, start)
        return start
    }

    /// Every chapter list the director handed over, latest last.
    private(set) var chapterLists: [[TakeChapter]] = []
    func setTakeChapters(_ chapters: [TakeChapter]) async { chapterLists.append(chapters) }

    func endTake() async -> TakeResult? {
        guard let t = take else { return nil }
        take = nil
        var frames = FrameCount.zero
        frames.frames = framesPerTake
        if framesPerTake == 0 { try? FileManager.default.removeItem(atPath: t.path) }
        return TakeResult(number: t.number, path: t.path, frames: frames, startRunningTime: t.start,
                          endRunningTime: clock.now(), startDate: Date(), endDate: Date())
    }

    /// The take failing by itself (a full disk), as the session reports it.
    func failTake(_ message: String) -> TakeResult? {
        guard let t = take else { return nil }
        take = nil
        var frames = FrameCount.zero
        frames.frames = framesPerTake
        let result = TakeResult(number: t.number, path: t.path, frames: frames, startRunningTime: t.start,
                                endRunningTime: clock.now(), startDate: Date(), endDate: Date(), failure: .runtime(message))
        return result
    }

    func switchCamera(to index: Int) async throws(DuoError) -> CameraSwap? {
        guard index != activeCamera else { return nil }
        let labels = [plan.camera.label, plan.secondCamera?.label ?? "?"]
        let swap = CameraSwap(runningTime: clock.now(), from: labels[activeCamera], to: labels[index],
                              format: plan.format(ofCamera: index).description)
        activeCamera = index
        return swap
    }

    func setSubjectBranchOpen(_ open: Bool) async { subjectOpen.append(open) }
    private(set) var subjectPictureUses: [SubjectPictureUse] = []
    func setSubjectPictureUse(_ use: SubjectPictureUse) async { subjectPictureUses.append(use) }

    /// Each camera's frames, set by the test (two cameras).
    private(set) var perCamera: [Int64] = []
    func setPerCamera(_ frames: [Int64]) { perCamera = frames }
    var cameraFrames: [Int64] { perCamera }
    private(set) var plugs: [String] = []
    func setCameraPlugged(_ index: Int, _ plugged: Bool) async throws(DuoError) { plugs.append("\(index) \(plugged)") }
    func setCameraDevice(_ index: Int, path: String) async throws(DuoError) { plugs.append("\(index) at \(path)") }
    private(set) var recognisers: [String] = []
    func installRecogniser(_ prepared: any PreparedRecogniser) async throws(DuoError) {
        recognisers.append((prepared as? FakeRecogniser)?.script ?? "?")
    }
    private(set) var remotesAttached: [String] = []
    func attachRemote(_ index: Int, address: SRTAddress, width: Int, height: Int, passphrase: String?,
                      latencyMilliseconds: Int, drawer: any I420FrameDrawer) async throws(DuoError) {
        remotesAttached.append("\(index) \(width)x\(height)")
    }
}

/// A remote display that answers as the test says, one answer per ask, and counts the asks.
///
/// Thread: any; a lock guards its script.
final class ScriptedDisplay: RemoteDisplayHandshakePort, @unchecked Sendable {
    private let lock = Lock()
    private var answers: [RemoteDisplayAnswer]
    private var asked = 0
    init(_ answers: [RemoteDisplayAnswer]) { self.answers = answers }
    var asks: Int { lock.withLock { asked } }
    func ask(_ address: SRTAddress, passphrase: String?) -> RemoteDisplayAnswer {
        lock.withLock {
            asked += 1
            return answers.isEmpty ? .unreachable("no answer") : answers.removeFirst()
        }
    }
}

/// A recogniser the fake voice port made, for the script text it was made from.
final class FakeRecogniser: PreparedRecogniser {
    let script: String
    init(script: String) { self.script = script }
}

/// Voice-follow's model build, held until the test lets it finish, so a test can prove the director is
/// free while it runs.
///
/// Thread: any; `prepare` blocks on its own thread.
final class FakeVoice: VoicePort, @unchecked Sendable {
    let proceed = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var timedOut = false
    var waitedInVain: Bool { lock.withLock { timedOut } }
    func prepare(scriptPath path: String, plan: GraphPlan, notices: inout [String]) throws(DuoError) -> (any PreparedRecogniser)? {
        if proceed.wait(timeout: .now() + 10) == .timedOut { lock.withLock { timedOut = true } }
        return FakeRecogniser(script: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }
}

/// A device monitor that reports the changes the test queues, and the locks it was asked for.
///
/// Thread: any; a lock guards its queue.
final class ScriptedDevices: DevicePort, @unchecked Sendable {
    private let lock = Lock()
    private var queued: [CameraDeviceChange] = []
    private var taken: [String] = []
    func queue(_ change: CameraDeviceChange) { lock.withLock { queued.append(change) } }
    var locks: [String] { lock.withLock { taken } }
    func cameraChanges(woken: Bool) -> [CameraDeviceChange] { lock.withLock { defer { queued.removeAll() }; return queued } }
    func lock(device: String, label: String) throws(DuoError) -> AnyObject {
        lock.withLock { taken.append("\(device) \(label)") }
        return NSObject()
    }
}
