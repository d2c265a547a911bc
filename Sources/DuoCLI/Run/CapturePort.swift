import DuoCore
import DuoMedia
import DuoPlatform
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real capture port: the GStreamer session.
extension CaptureSession: CapturePort {
    public func startCapture() async throws(DuoError) { try await start(beforePlaying: nil) }
    public func stopCapture() async { await stop() }

    public func beginTake(number: Int, path: String, startingAt: Int64) async throws(DuoError) -> Int64 {
        try await startTake(path: path, startingAt: startingAt, number: number)
        return await takeStartRunningTime ?? startingAt
    }

    public func endTake() async -> TakeResult? { try? await stopTake() }

    public func switchCamera(to index: Int) async throws(DuoError) -> CameraSwap? { try await selectCamera(index) }

    public func installRecogniser(_ prepared: any PreparedRecogniser) async throws(DuoError) {
        guard let loaded = prepared as? LoadedRecogniser else { throw .runtime("voice-follow: a recogniser this session did not load") }
        try replaceRecogniser(loaded)
    }
}

/// The real microphone port: the session's leg on the audio mixer (Branches/MicrophoneLegBranch.swift).
extension CaptureSession: MicrophonePort {}

/// Voice-follow's model for a script, built (or taken from the cache) and loaded into a recogniser off
/// the director: the real build and pocketsphinx in a run, a stand-in in the director's tests.
///
/// Thread: implementations are Sendable; `prepare` blocks (the director calls it off its actor).
protocol VoicePort: Sendable {
    /// The recogniser for the script at `path` (nil: the script cannot be followed), with what to tell
    /// the operator.
    func prepare(scriptPath path: String, plan: GraphPlan, notices: inout [String]) throws(DuoError) -> (any PreparedRecogniser)?
}

/// The real voice build: the script's language model and dictionary (cached by content), loaded into
/// pocketsphinx.
///
/// Thread: any; blocking.
struct PocketsphinxVoice: VoicePort {
    func prepare(scriptPath path: String, plan: GraphPlan, notices: inout [String]) throws(DuoError) -> (any PreparedRecogniser)? {
        guard let files = try VoiceModelSetup.files(for: try ScriptParser.load(path: path).subject, notices: &notices) else { return nil }
        return try CaptureSession.loadRecogniser(files, plan: plan)
    }
}

/// How the director asks a remote display for its monitor (the TCP handshake that also checks the
/// passphrase): the network in a run, a scripted display in the director's tests.
///
/// Thread: implementations are Sendable; `ask` blocks (the director calls it off its actor).
protocol RemoteDisplayHandshakePort: Sendable {
    func ask(_ address: SRTAddress, passphrase: String?) -> RemoteDisplayHandshakeClient.Outcome
}

/// The real handshake, over TCP.
///
/// Thread: any; stateless.
struct NetworkHandshake: RemoteDisplayHandshakePort {
    func ask(_ address: SRTAddress, passphrase: String?) -> RemoteDisplayHandshakeClient.Outcome {
        RemoteDisplayHandshakeClient.ask(address, passphrase: passphrase)
    }
}

/// The cameras that come and go while a run goes on (the device monitor), and the lock taken on one that
/// returns at another device node: the real monitor in a run, a scripted one in the director's tests.
///
/// Thread: owned by the run director's actor.
protocol DevicePort: AnyObject, Sendable {
    /// What came and went since the last look (`woken`: a wake said something changed).
    func changes(woken: Bool) -> [CameraWatch.Change]
    /// Takes the owner lock on a camera found at `device`; held while the returned object lives.
    func lock(device: String, label: String) throws(DuoError) -> AnyObject
}

extension CameraWatch: DevicePort {
    func lock(device: String, label: String) throws(DuoError) -> AnyObject { try CameraLock(device: device, label: label) }
}

/// Where takes go, behind a port: the record folder made ready on the first take, each take's file name
/// claimed before it is written, a file that could not start discarded, and whether a take's file was
/// kept. The disk in a run; the same in the director's tests (they record into a scratch folder).
///
/// Thread: any; synchronous file-system calls.
protocol TakeFilesPort: Sendable {
    func prepareDirectory(_ requested: String?) throws(DuoError) -> String
    func claim(_ naming: TakeNaming, take number: Int) -> String
    func discard(_ path: String)
    func exists(_ path: String) -> Bool
}

/// The disk: the record folder prepared by SessionSetup, names claimed by DuoPlatform's TakeFileClaim.
///
/// Thread: any; synchronous file-system calls.
struct DiskTakeFiles: TakeFilesPort {
    func prepareDirectory(_ requested: String?) throws(DuoError) -> String { try SessionSetup.prepareRecordDirectory(requested) }
    func discard(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func claim(_ naming: TakeNaming, take number: Int) -> String { TakeFileClaim.claim(naming, take: number) }
}
