import DuoCore
import DuoMedia
import Foundation

//  The run's parts, listed once: their settings from the options, the ports they reach the world
//  through, and the order the director calls their hooks in. A new feature is a new part (Parts/) and
//  a line in each list here.

/// Every feature of a run, each a part that owns its state (Sources/DuoCLI/Parts/).
///
/// Thread: owned by the run director's actor and used only from it (not Sendable: it never leaves it).
final class RunParts {
    /// Each part's options.
    ///
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        var subject = SubjectViewPart.Settings()
        var cameras = CamerasPart.Settings()
        var posture = PosturePart.Settings()
        var remotes = RemoteDisplaysPart.Settings()
        var script = ScriptPart.Settings()
        var voice = VoicePart.Settings()
        var shots = ShotsPart.Settings()
        var joins = JoinsPart.Settings()

        init() {}
        init(_ options: Options, remotePassphrase: String?) {
            subject = .init(options)
            cameras = .init(options)
            posture = .init(options)
            remotes = .init(options, passphrase: remotePassphrase)
            script = .init(options)
            voice = .init(options)
            shots = .init(options)
            joins = .init(options)
        }
    }

    /// The ports parts reach devices, displays and the recogniser through: real ones in a run, fakes in
    /// the director's tests.
    ///
    /// Thread: value type, Sendable.
    struct Ports: Sendable {
        var voice: any VoicePort
        var handshake: any RemoteDisplayHandshakePort
        /// Starts watching the cameras that come and go, waking the director on a change.
        var watchDevices: @Sendable (@escaping @Sendable () -> Void) -> (any DevicePort)?
        /// Starts watching the named microphone by identity, waking the director on a change.
        var watchMicrophone: @Sendable (String, @escaping @Sendable () -> Void) -> (any MicrophoneWatchPort)?
    }

    let subject: SubjectViewPart
    let window = OperatorWindowPart()
    let cameras: CamerasPart
    let posture: PosturePart
    let microphone: MicrophonePart
    let remotes: RemoteDisplaysPart
    let script: ScriptPart
    let voice: VoicePart
    let shots: ShotsPart
    let framing: FramingPart
    let joins: JoinsPart
    let warnings = WarningsPart()
    /// Every part, in the order the director calls their hooks.
    let all: [any RunPart]

    init(_ settings: Settings, plan: GraphPlan, face: any RunFace, ports: Ports) {
        subject = SubjectViewPart(settings.subject, face: face)
        cameras = CamerasPart(settings.cameras, plan: plan, watchDevices: ports.watchDevices)
        posture = PosturePart(settings.posture, plan: plan)
        microphone = MicrophonePart(plan: plan, watch: ports.watchMicrophone)
        remotes = RemoteDisplaysPart(settings.remotes, handshake: ports.handshake)
        script = ScriptPart(settings.script)
        voice = VoicePart(settings.voice, port: ports.voice)
        shots = ShotsPart(settings.shots)
        framing = FramingPart(plan: plan)
        joins = JoinsPart(settings.joins)
        all = [subject, window, voice, cameras, posture, remotes, microphone, script, shots, framing, joins, warnings]
    }
}

extension RunDirector {
    /// The script on screen (tests).
    var scriptPath: String? { parts.script.path }
    /// The script being read off the director (tests).
    var scriptLoad: ScriptPart.Load? { parts.script.loading }
    /// The HUD's line about missing sound at `now` (tests).
    func soundNote(at now: Int64) -> String? { parts.microphone.soundNote(at: now, take: takes.current) }
}
