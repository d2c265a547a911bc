@testable import DuoCLI
import DuoCore
import DuoMedia
import DuoRender
import Foundation
import XCTest

/// A run director with the fake capture and a manual clock, for the parts' tests: no graph, no sleeping,
/// each step carried out in milliseconds; what the run said is read back from its events file and log.
///
/// Thread: used by one test at a time (its clock, capture and director are thread-safe themselves).
final class PartRun {
    let clock = ManualClock(1_000_000_000)
    let directory: String
    let eventsPath: String
    let plan: GraphPlan
    let director: RunDirector
    let capture: FakeCapture
    let presenter: SubjectPresenter
    private let logged = Locked<[String]>([])

    /// `cameras`: each camera's formats; `configure` sets the settings (a 0 s countdown by default), `adapt`
    /// the plan, `subject` the subject view's setup (the countdown kind by default).
    init(_ test: XCTestCase, cameras: [[String]] = [["320x240@30"]], individual: Bool = false,
         configure: (inout RunDirector.Settings) throws -> Void = { _ in }, adapt: (inout GraphPlan) -> Void = { _ in },
         subject configureSubject: (inout SubjectSetup) -> Void = { _ in }, face: any RunFace = HeadlessFace(),
         handshake: any RemoteDisplayHandshakePort = ScriptedDisplay([]), devices: ScriptedDevices? = nil,
         voice: any VoicePort = ReadyVoice()) throws {
        directory = try scratchDirectory(test)
        eventsPath = directory + "/events.jsonl"
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let library = PipelineLibrary(directory: root.appendingPathComponent("Pipelines").path)
        let profiles = cameras.enumerated().map { i, formats in
            CameraProfile(id: "cam\(i)", name: "cam\(i)", testPattern: "smpte",
                          modes: formats.map { .init(pixelFormat: "I420", format: VideoFormat.parse($0)!) })
        }
        var plan = try GraphPlan(library: library, camera: .simulated(profiles[0]), secondCamera: profiles.count > 1 ? .simulated(profiles[1]) : nil,
                                 individual: individual, requested: nil, aspect: nil, encoder: .x264, container: .mkv)
        // Like the Duo's pair: A faces the operator (unfold picks it), B the subject (fold picks it).
        if profiles.count > 1 { plan.faces = [.theOperator, .theSubject] }
        adapt(&plan)
        self.plan = plan
        var settings = RunDirector.Settings()
        settings.recordDirectory = directory
        settings.countdown = try Countdown(seconds: 0)
        try configure(&settings)
        var subject = SubjectSetup()
        subject.accessory = .countdown
        configureSubject(&subject)
        presenter = try SubjectPresenter(subject, width: 320, height: 240, format: .i420)
        capture = FakeCapture(plan: plan, clock: clock)
        let logged = self.logged
        director = RunDirector(settings: settings, plan: plan, capture: capture, presenter: presenter, face: face, clock: clock,
                               events: try EventLog(path: eventsPath), voice: voice, handshake: handshake,
                               watchDevices: { _ in devices }, watchMicrophone: { _, _ in nil },
                               log: { line in logged.update { $0.append(line) } })
    }

    /// The events named `name` (every event without a name), in order.
    func events(_ name: String? = nil) throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: eventsPath) else { return [] }
        let all = try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return name.map { n in all.filter { $0["event"] as? String == n } } ?? all
    }

    /// The lines the run logged.
    var log: [String] { logged.value }

    func send(_ command: ControlCommand) async { await director.process(.command(command, source: .control)) }

    /// `seconds` pass on the run's clock, then a tick.
    func advance(_ seconds: Double) async {
        clock.advance(bySeconds: seconds)
        await director.process(.tick)
    }

    /// Carries out the director's own inputs (a part's results coming back from off the director), at
    /// most `count` of them, until `done` says so; never sleeps: it waits for the next input, which each
    /// detached job sends exactly once.
    func carryInputs(_ count: Int = 1, until done: () async throws -> Bool) async rethrows {
        if try await done() { return }
        var left = count
        for await input in director.inputs {
            switch input {
            case .tick, .command: continue
            default: await director.process(input)
            }
            left -= 1
            if try await done() || left == 0 { return }
        }
    }
}

/// Voice-follow's model build, done at once: a recogniser for the script's text.
///
/// Thread: any; stateless.
struct ReadyVoice: VoicePort {
    func prepare(scriptPath path: String, plan: GraphPlan, notices: inout [String]) throws(DuoError) -> (any PreparedRecogniser)? {
        FakeRecogniser(script: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }
}
