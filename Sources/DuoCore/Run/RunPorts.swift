import Foundation

//  The run director's ports beside CapturePort: where takes go, the cameras and the microphone that come
//  and go, how a remote display is asked, and voice-follow's model build. Each is a protocol here, so the
//  director's tests fake them with DuoCore alone; the real adapters (the disk, the device monitors, the
//  TCP handshake, pocketsphinx) live in DuoCLI's Run/CapturePort.swift, over DuoMedia and DuoPlatform.
//
//   RunDirector ─┬─▶ TakeFilesPort ─────────────▶ DiskTakeFiles (SessionSetup, TakeFileClaim)
//   (DuoCLI)     ├─▶ DevicePort ────────────────▶ CameraWatch (GstDeviceMonitor, Video/Source)
//                ├─▶ MicrophoneWatchPort ───────▶ MicrophoneWatch (GstDeviceMonitor, Audio/Source)
//                ├─▶ RemoteDisplayHandshakePort ─▶ NetworkHandshake (RemoteDisplayHandshakeClient, TCP)
//                └─▶ VoicePort ─────────────────▶ PocketsphinxVoice (VoiceModelSetup, the recogniser)

/// Where takes go, behind a port: the record folder made ready on the first take, each take's file name
/// claimed before it is written, a file that could not start discarded, and whether a take's file was
/// kept. The disk in a run; the same in the director's tests (they record into a scratch folder).
///
/// Thread: any; synchronous file-system calls.
public protocol TakeFilesPort: Sendable {
    func prepareDirectory(_ requested: String?) throws(DuoError) -> String
    func claim(_ naming: TakeNaming, take number: Int) -> String
    func discard(_ path: String)
    func exists(_ path: String) -> Bool
}

/// A camera the device monitor saw come or go, told by what it is known by.
///
/// Thread: value type, Sendable.
public struct CameraDevice: Sendable, Equatable {
    public let name: String
    /// /dev/videoN for a V4L2 camera; nil for other providers (PipeWire, libcamera).
    public let devicePath: String?
    /// What the camera is known by when it comes and goes (`CameraIdentity`): serial, by-id name, port.
    public let identity: String
    /// The provider's `device.api`: "v4l2", "duotest" (the test provider), "pipewire", ….
    public let api: String?

    public init(name: String, devicePath: String?, identity: String, api: String?) {
        self.name = name
        self.devicePath = devicePath
        self.identity = identity
        self.api = api
    }
}

/// A camera plugged in or pulled out.
///
/// Thread: value type, Sendable.
public enum CameraDeviceChange: Sendable, Equatable {
    case added(CameraDevice)
    case removed(CameraDevice)
}

/// The cameras that come and go while a run goes on (the device monitor), and the lock taken on one that
/// returns at another device node: the real monitor in a run, a scripted one in the director's tests.
///
/// Thread: owned by the run director's actor.
public protocol DevicePort: AnyObject, Sendable {
    /// What came and went since the last look (`woken`: a wake said something changed).
    func cameraChanges(woken: Bool) -> [CameraDeviceChange]
    /// Takes the owner lock on a camera found at `device`; held while the returned object lives.
    func lock(device: String, label: String) throws(DuoError) -> AnyObject
}

/// The named microphone coming and going (the device monitor): the real one in a run, a scripted one
/// in the director's tests.
///
/// Thread: owned by the run director's actor.
public protocol MicrophoneWatchPort: AnyObject, Sendable {
    /// Whether the microphone is listed, when that changed since the last look (nil: no change).
    func change(woken: Bool) -> Bool?
}

/// What a remote display answered when asked for its monitor.
///
/// Thread: value type, Sendable.
public enum RemoteDisplayAnswer: Sendable, Equatable {
    /// The display's monitor, in device pixels, and its refresh rate.
    public struct Monitor: Sendable, Equatable {
        public let width: Int
        public let height: Int
        public let refresh: Int
        public init(width: Int, height: Int, refresh: Int) {
            self.width = width
            self.height = height
            self.refresh = refresh
        }
    }

    case accepted(Monitor)
    /// The display said no (a wrong passphrase, encryption on one end only), or could not prove it holds
    /// the passphrase: `reason`, safe to print.
    case refused(String)
    /// Nothing answers there (yet).
    case unreachable(String)
}

/// How the director asks a remote display for its monitor (the TCP handshake that also checks the
/// passphrase): the network in a run, a scripted display in the director's tests.
///
/// Thread: implementations are Sendable; `ask` blocks (the director calls it off its actor).
public protocol RemoteDisplayHandshakePort: Sendable {
    func ask(_ address: SRTAddress, passphrase: String?) -> RemoteDisplayAnswer
}

/// Voice-follow's model for a script, built (or taken from the cache) and loaded into a recogniser off
/// the director: the real build and pocketsphinx in a run, a stand-in in the director's tests.
///
/// Thread: implementations are Sendable; `prepare` blocks (the director calls it off its actor).
public protocol VoicePort: Sendable {
    /// The recogniser for the script at `path` (nil: the script cannot be followed), with what to tell
    /// the operator.
    func prepare(scriptPath path: String, plan: GraphPlan, notices: inout [String]) throws(DuoError) -> (any PreparedRecogniser)?
}
