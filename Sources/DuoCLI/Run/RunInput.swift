import DuoCore
import DuoRender
import Foundation

//  The run director's vocabulary: what reaches it (RunInput, from any thread), where a command came from,
//  why a run ended and how (RunOutcome).

/// Why a run ended.
///
/// Thread: value type, Sendable.
enum EndReason: Sendable, Equatable {
    case duration, quit, signal(String), failed(DuoError)
    var text: String {
        switch self {
        case .duration: "duration reached"
        case .quit: "quit command"
        case .signal(let s): "\(s) received"
        case .failed: "failed"
        }
    }
}

/// Where a command came from, as the `command` event reports it.
///
/// Thread: value type, Sendable.
enum CommandSource: String, Sendable {
    case key, control, timeline, remote, osc, button
    case obsWebSocket = "obs-websocket"
    case hyperDeck = "hyperdeck"
    /// The web remote's page, OSC, obs-websocket and HyperDeck: queued at most `RunInbox.remoteLimit`,
    /// behind every local command.
    var isRemote: Bool { self == .remote || self == .osc || self == .obsWebSocket || self == .hyperDeck }
}

/// Everything that reaches the director, from any thread.
///
/// Thread: value type, Sendable.
enum RunInput: Sendable {
    case command(ControlCommand, source: CommandSource)
    case signal(String)
    /// The graph is playing.
    case started
    case startFailed(DuoError)
    case session(SessionEvent)
    /// The face's report: the accessory's state changed (enabled by the user, or availability).
    case accessory(AccessoryChange, subjectMonitor: String?)
    /// The face's report: the operator window's fullscreen state changed.
    case fullscreen(Bool)
    /// The face's report: the subject window's size, device pixels (the subject monitor's): the view is
    /// laid out for it.
    case subjectSize(width: Int, height: Int)
    /// Time has passed: countdowns, durations and watchdogs are checked against the clock.
    case tick
    /// The device monitor saw a camera or the microphone come or go.
    case devicesChanged
    /// A remote display answered (or not) the handshake.
    case remoteAnswer(Int, RemoteDisplayAnswer)
    /// Voice-follow's recogniser for the script now on screen, its model built and loaded off the
    /// director (nil: it cannot be followed), with what to tell the operator.
    case voiceModel(Result<(any PreparedRecogniser)?, DuoError>, notices: [String], ticket: Int)
    /// A script read and laid out off the director (saved again, or another opened), for load `ticket`.
    case scriptPrepared(Result<SubjectPresenter.PreparedScript, DuoError>, ticket: Int)
    /// Replay `number` written out off the director (ReplayPart), or why not.
    case replayWritten(Result<ReplayClip, DuoError>, number: Int)
    /// A take's chapters written into its file off the director (NotesPart), or why not (nil: written).
    case chaptersWritten(path: String, problem: String?)
}

/// How a run ended, and what it tells the user and the shell.
///
/// Thread: value type, Sendable; made once by `RunDirector.finish`.
struct RunOutcome: Sendable {
    let reason: EndReason
    let summary: RunSummary?
    /// The error that decides the exit code (nil: exit 0).
    let error: DuoError?
    var exitCode: Int32 { error?.kind.exitCode ?? 0 }
}

/// The director's queue of inputs: `send` from any thread never blocks; an end (quit, a signal) is also
/// noted aside, so it goes ahead of everything queued before it. Remote commands (the web remote's, OSC's)
/// are bounded (`remoteLimit` queued at most; more are refused whole), and the local ones (keys, the
/// control socket, buttons, the timeline) are also noted aside, so they go ahead of remote commands queued
/// before them: a remote flood never holds up the operator.
///
/// Thread: any; the stream's continuation and the noted inputs are thread-safe.
final class RunInbox: Sendable {
    /// Remote commands queued at most (a bundle of OSC's 50 at once fits).
    static let remoteLimit = 64

    let inputs: AsyncStream<RunInput>
    private let sink: AsyncStream<RunInput>.Continuation
    /// An end that arrived: checked before each queued input, so it goes ahead of them.
    let urgentEnd = Locked<EndReason?>(nil)
    /// Remote commands queued and not yet taken.
    private let remoteQueued = Locked(0)
    /// Local commands queued (in order), and how many of the queued ones were carried out ahead already.
    private struct Ahead: Sendable {
        var queue: [RunInput] = []
        var taken = 0
    }
    private let ahead = Locked(Ahead())

    init() { (inputs, sink) = AsyncStream.makeStream(of: RunInput.self, bufferingPolicy: .unbounded) }

    func send(_ input: RunInput) {
        switch input {
        case .command(.quit, _): urgentEnd.update { $0 = $0 ?? .quit }
        case .signal(let name): urgentEnd.update { $0 = $0 ?? .signal(name) }
        default: break
        }
        if case .command(_, let source) = input {
            if source.isRemote {
                _ = sendRemote([input])
                return
            }
            ahead.update { $0.queue.append(input) }
        }
        sink.yield(input)
    }

    /// Queues remote commands (one, or an OSC bundle's) all or none: false when the queue holds too many.
    func sendRemote(_ commands: [RunInput]) -> Bool {
        let room = remoteQueued.update { queued -> Bool in
            guard queued + commands.count <= Self.remoteLimit else { return false }
            queued += commands.count
            return true
        }
        guard room else { return false }
        for command in commands { sink.yield(command) }
        return true
    }

    /// Called for each input the stream gives, before it is carried out: false when it was carried out
    /// ahead already (a local command), so it is skipped.
    func take(_ input: RunInput) -> Bool {
        guard case .command(_, let source) = input else { return true }
        if source.isRemote {
            remoteQueued.update { $0 = max(0, $0 - 1) }
            return true
        }
        return ahead.update { a -> Bool in
            if a.taken > 0 {
                a.taken -= 1
                return false
            }
            if !a.queue.isEmpty { a.queue.removeFirst() }
            return true
        }
    }

    /// The next local command queued behind remote ones, to carry out first (nil: none).
    func nextAhead() -> RunInput? {
        ahead.update { a -> RunInput? in
            guard !a.queue.isEmpty else { return nil }
            a.taken += 1
            return a.queue.removeFirst()
        }
    }

    func finish() { sink.finish() }
}
