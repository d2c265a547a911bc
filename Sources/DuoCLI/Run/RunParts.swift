import DuoCore
import DuoMedia
import Foundation

//  The run's parts, listed once: their settings from the options, the ports they reach the world
//  through, and the order the director calls their hooks in. A new feature is a new part (Parts/) and
//  its line in `all` (plus its settings' line when it has options, and a property when the director
//  or another part calls it by name).

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
        var notes = NotesPart.Settings()
        var replay = ReplayPart.Settings()

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
            notes = .init(options)
            replay = .init(options)
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

    // The parts the director or another part calls by name.
    let subject: SubjectViewPart
    let cameras: CamerasPart
    let posture: PosturePart
    let microphone: MicrophonePart
    let script: ScriptPart
    let voice: VoicePart
    let shots: ShotsPart
    let joins: JoinsPart
    let notes: NotesPart
    let warnings = WarningsPart()
    /// Every part, in the order the director calls their hooks.
    let all: [any RunPart]

    init(_ settings: Settings, plan: GraphPlan, face: any RunFace, ports: Ports) {
        subject = SubjectViewPart(settings.subject, face: face)
        cameras = CamerasPart(settings.cameras, plan: plan, watchDevices: ports.watchDevices)
        posture = PosturePart(settings.posture, plan: plan)
        microphone = MicrophonePart(plan: plan, watch: ports.watchMicrophone)
        script = ScriptPart(settings.script)
        voice = VoicePart(settings.voice, port: ports.voice)
        shots = ShotsPart(settings.shots)
        joins = JoinsPart(settings.joins)
        notes = NotesPart(settings.notes)
        all = [
            subject,
            OperatorWindowPart(),
            voice,
            cameras,
            posture,
            RemoteDisplaysPart(settings.remotes, handshake: ports.handshake),
            microphone,
            script,
            shots,
            notes,
            ReplayPart(settings.replay),
            FramingPart(plan: plan),
            joins,
            CaptionsPart(),
            warnings,
        ]
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
