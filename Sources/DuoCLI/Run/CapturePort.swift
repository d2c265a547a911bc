import DuoCore
import DuoMedia
import DuoPlatform
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The real adapters behind the run director's ports (the protocols are DuoCore's, in Run/CapturePort.swift
//  and Run/RunPorts.swift there): the GStreamer session, pocketsphinx, the TCP handshake, the device
//  monitors and the disk.

/// The real capture port: the GStreamer session.
extension CaptureSession: CapturePort {
    public func startCapture() async throws(DuoError) { try await start(beforePlaying: nil) }
    public func stopCapture() async { await stop() }

    public func beginTake(number: Int, path: String, startingAt: Int64) async throws(DuoError) -> Int64 {
        try await startTake(path: path, startingAt: startingAt, number: number)
        return await takeStartRunningTime ?? startingAt
    }

    public func endTake() async -> TakeResult? { try? await stopTake() }

    public func setTakeChapters(_ chapters: [TakeChapter]) async { await setChapters(chapters) }

    public func switchCamera(to index: Int) async throws(DuoError) -> CameraSwap? { try await selectCamera(index) }

    public func installRecogniser(_ prepared: any PreparedRecogniser) async throws(DuoError) {
        guard let loaded = prepared as? LoadedRecogniser else { throw .runtime(.text("voice-follow: a recogniser this session did not load")) }
        try replaceRecogniser(loaded)
    }
}

/// The real microphone port: the session's leg on the audio mixer (Branches/MicrophoneLegBranch.swift).
extension CaptureSession: MicrophonePort {}

/// The real replay port: the session's replay buffer (Branches/ReplayBranch.swift).
extension CaptureSession: ReplayPort {}

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

/// The real handshake, over TCP.
///
/// Thread: any; stateless.
struct NetworkHandshake: RemoteDisplayHandshakePort {
    func ask(_ address: SRTAddress, passphrase: String?) -> RemoteDisplayAnswer {
        RemoteDisplayHandshakeClient.ask(address, passphrase: passphrase)
    }
}

/// The real device port: the device monitor's cameras, told in DuoCore's words.
extension CameraWatch: DevicePort {
    public func cameraChanges(woken: Bool) -> [CameraDeviceChange] {
        changes(woken: woken).map { change in
            func device(_ c: DiscoveredCamera) -> CameraDevice {
                CameraDevice(name: c.name, devicePath: c.devicePath, identity: c.identity, api: c.api)
            }
            switch change {
            case .added(let camera): return .added(device(camera))
            case .removed(let camera): return .removed(device(camera))
            }
        }
    }
    public func lock(device: String, label: String) throws(DuoError) -> AnyObject { try CameraLock(device: device, label: label) }
}

/// The real microphone watch: the device monitor's Audio/Source list.
extension MicrophoneWatch: MicrophoneWatchPort {}

/// The disk: the record folder prepared by SessionSetup, names claimed by DuoPlatform's TakeFileClaim.
///
/// Thread: any; synchronous file-system calls.
struct DiskTakeFiles: TakeFilesPort {
    func prepareDirectory(_ requested: String?) throws(DuoError) -> String { try SessionSetup.prepareRecordDirectory(requested) }
    func discard(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func claim(_ naming: TakeNaming, take number: Int) -> String { TakeFileClaim.claim(naming, take: number) }
}
