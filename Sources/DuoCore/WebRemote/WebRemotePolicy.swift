//  The remote control's policy (`--remote-control`, `--osc`): which commands a phone or a broadcast
//  controller may send, how OSC addresses become the control socket's commands, the pairing token, the
//  command rate a remote may use (per address, through `Admission`), and which events the
//  page and OSC feedback get. Pure: the adapter (DuoWebRemote) carries bytes, DuoCLI composes.

/// What a remote may ask for. Every command is the control socket's own `ControlCommand`; a remote may not
/// end the run, open files, or use the test hub's faults, and nothing it sends stops a take except `stop`
/// (so no `toggle` and no `quit`; a `retake` from a remote is taken only between takes: `RemoteRetake`).
///
/// Thread: stateless; any thread.
public enum WebRemoteCommands {
    /// Command names a remote may send: what the operator does during takes, never `quit` or a file. The
    /// one table: docs/remote-control.md lists exactly these (a test compares them), in this order.
    public static let table = ["record", "stop", "cancel", "pause", "speed", "jump", "font", "mirror",
                               "follow", "swap", "fold", "unfold", "accessory", "shot", "mark", "retake", "note", "flag", "cue", "save-replay"]
    public static let allowed = Set(table)

    /// The command parsed from a page's JSON line, or why it is refused.
    public static func parse(json line: String) throws(DuoError) -> ControlCommand {
        let command = try ControlCommand.parse(line)
        try check(command)
        return command
    }

    public static func check(_ command: ControlCommand) throws(DuoError) {
        guard allowed.contains(command.name) else {
            throw .usage(.text("remote: %s is not taken from a remote; it may send %s", command.name, allowed.sorted().joined(separator: ", ")))
        }
    }

    /// What an OSC message asks for.
    public enum OSCRequest: Sendable, Equatable {
        case command(ControlCommand)
        /// `/duo/state`: send the state back now.
        case state
    }

    /// The OSC addresses, for the help and the errors.
    public static let oscAddresses = [
        "/duo/record", "/duo/stop", "/duo/cancel", "/duo/pause", "/duo/speed <float 0.25-4>", "/duo/speed/up",
        "/duo/speed/down", "/duo/speed/preset <int 1-5>", "/duo/marker/next", "/duo/marker/previous", "/duo/marker/start",
        "/duo/shot/next", "/duo/shot/previous", "/duo/mark/good", "/duo/mark/nogood", "/duo/retake", "/duo/font/up", "/duo/font/down", "/duo/mirror", "/duo/follow [voice|time]",
        "/duo/note <string code> <string text>", "/duo/flag", "/duo/replay/save", "/duo/state",
        "/duo/cue <string: wrap|30s|slower|faster|lens or up to 40 characters>", "/duo/cue/clear",
    ]

    /// An OSC message as a command (the same one the control socket's JSON makes), or why not.
    public static func osc(_ message: OSCMessage) throws(DuoError) -> OSCRequest {
        let a = message.arguments
        func none() throws(DuoError) {
            // Companion's buttons often send one number (1 pressed): taken as a plain press.
            guard a.isEmpty || (a.count == 1 && (a[0].number != nil || a[0] == .impulse || a[0] == .bool(true))) else {
                throw .usage(.text("osc: %s takes no arguments", message.address))
            }
        }
        switch message.address {
        case "/duo/record": try none(); return .command(.record)
        case "/duo/stop": try none(); return .command(.stop)
        case "/duo/cancel": try none(); return .command(.cancelCountdown)
        case "/duo/pause": try none(); return .command(.pause)
        case "/duo/mirror": try none(); return .command(.mirror)
        case "/duo/state": try none(); return .state
        case "/duo/speed":
            guard a.count == 1, let factor = a[0].number, (0.25...4).contains(factor) else {
                throw .usage(.text("osc: /duo/speed takes one number from 0.25 to 4 (times the default speed), such as /duo/speed 1.5"))
            }
            return .command(.speedFactor(factor))
        case "/duo/speed/up": try none(); return .command(.speedStep(1))
        case "/duo/speed/down": try none(); return .command(.speedStep(-1))
        case "/duo/speed/preset":
            guard a.count == 1, let n = a[0].number, n == n.rounded(), (1...5).contains(n) else {
                throw .usage(.text("osc: /duo/speed/preset takes one whole number from 1 to 5, such as /duo/speed/preset 3"))
            }
            return .command(.speedPreset(Int(n)))
        case "/duo/marker/next": try none(); return .command(.jump(.next))
        case "/duo/marker/previous": try none(); return .command(.jump(.previous))
        case "/duo/marker/start": try none(); return .command(.jump(.start))
        case "/duo/font/up": try none(); return .command(.fontStep(1))
        case "/duo/font/down": try none(); return .command(.fontStep(-1))
        case "/duo/shot/next": try none(); return .command(.shot(next: true, id: nil))
        case "/duo/shot/previous": try none(); return .command(.shot(next: false, id: nil))
        case "/duo/mark/good": try none(); return .command(.mark(good: true, take: nil))
        case "/duo/mark/nogood": try none(); return .command(.mark(good: false, take: nil))
        case "/duo/retake": try none(); return .command(.retake)
        case "/duo/flag": try none(); return .command(.flag)
        case "/duo/replay/save": try none(); return .command(.saveReplay)
        case "/duo/note":
            guard a.count == 2, case .string(let code) = a[0], case .string(let text) = a[1] else {
                throw .usage(.text("osc: /duo/note takes two strings, the code and the text, such as /duo/note BUG \"menu hides the button\""))
            }
            guard text.count <= NoteCodeBook.longestText else {
                throw .usage(.text("osc: /duo/note text has %s characters; keep a note to %s", text.count, NoteCodeBook.longestText))
            }
            return .command(.note(code: code.isEmpty ? nil : code, text: text))
        case "/duo/follow":
            if a.isEmpty { return .command(.follow(voice: nil)) }
            guard a.count == 1, case .string(let mode) = a[0], mode == "voice" || mode == "time" else {
                throw .usage(.text("osc: /duo/follow takes nothing (switches), or the string voice or time"))
            }
            return .command(.follow(voice: mode == "voice"))
        case "/duo/cue":
            guard a.count == 1, case .string(let text) = a[0] else {
                throw .usage(.text("osc: /duo/cue takes one string: a preset (%s) or up to %s characters, such as /duo/cue wrap", CuePreset.names, SubjectCue.maximumLength))
            }
            return .command(.cue(try SubjectCue.presetOrText(text), seconds: nil))
        case "/duo/cue/clear": try none(); return .command(.cue(nil, seconds: nil))
        default:
            throw .usage(.text("osc: unknown address %s; use one of %s", TerminalText.escaped(message.address, limit: 80), oscAddresses.joined(separator: ", ")))
        }
    }
}

/// The pairing token: made at random at start (or read from `--remote-token-file`), asked of every page
/// and WebSocket request, compared in constant time.
///
/// Thread: value type, Sendable.
public struct WebRemoteToken: Sendable, Equatable {
    public let value: String

    /// 128 random bits as 32 hex digits.
    public static func random() -> WebRemoteToken { WebRemoteToken(value: RandomToken.hex(bytes: 16)) }

    /// The shortest token a file may hold: 22 characters of 64 kinds are 132 bits when random.
    public static let shortestFileToken = 22

    /// A token read from a file: its first line, trimmed; at least 22 characters of URL-safe text, of at
    /// least 10 different characters (issue 35: `aaaaaaaaaaaaaaaa` was taken), so it can hold 128 bits.
    public static func parse(fileText text: String, path: String) throws(DuoError) -> WebRemoteToken {
        let line = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first.map(String.init) ?? ""
        let token = line.trimmingCharacters(in: " \t")
        let safe = token.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "-_.~".unicodeScalars.contains($0) }
        guard token.count >= shortestFileToken, safe else {
            throw .usage(.text("--remote-token-file %s: the first line must be a token of at least %s letters, digits or - _ . ~ (make one with: head -c 16 /dev/urandom | xxd -p)", path, shortestFileToken))
        }
        guard Set(token).count >= 10 else {
            throw .usage(.text("--remote-token-file %s: the token repeats too few characters to be guessed hard; make a random one with: head -c 16 /dev/urandom | xxd -p", path))
        }
        return WebRemoteToken(value: token)
    }

    public init(value: String) { self.value = value }

    /// Whether `given` is the token; the time taken does not depend on where they differ.
    public func matches(_ given: String?) -> Bool {
        guard let given else { return false }
        let a = Array(value.utf8), b = Array(given.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) { difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

/// How many commands a remote may send: `rate` a second on average, `burst` at once. A flood beyond it
/// is dropped (and said once in a while), so the run's queue never grows with what a remote sends.
///
/// Thread: value type; kept behind a lock by its owner. Time is a parameter (nanoseconds).
public struct CommandGate: Sendable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var last: Int64?

    public init(rate: Double = 100, burst: Double = 50) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Whether `count` more commands (one, or a bundle's) may go through now: all of them or none.
    public mutating func admit(_ count: Int = 1, at now: Int64) -> Bool {
        if let last { tokens = min(burst, tokens + Double(max(0, now - last)) / 1e9 * rate) }
        last = now
        guard tokens >= Double(count) else { return false }
        tokens -= Double(count)
        return true
    }

    /// Whether the gate is back to its whole burst at `now` (forgetting it changes nothing).
    public func isFull(at now: Int64) -> Bool {
        guard let last else { return true }
        return tokens + Double(max(0, now - last)) / 1e9 * rate >= burst
    }
}

/// What the page and OSC feedback are told: the run state folded from the run's own events (the same
/// stream the events file and the control socket get), never notes or pictures.
///
/// Thread: value type; kept behind a lock by its owner.
public struct WebRemoteRunState: Sendable, Equatable {
    /// Events a page receives as they are (none of them carries a note or a picture). The shot list's
    /// (issue 37): the current shot's id and title, each take's shot and its mark, so the phone knows the shot.
    public static let forwarded: Set<RunEvent.Kind> = [.started, .command, .countdown, .countdownCancelled, .takeStarted,
                                                       .takeEnded, .status, .follow, .error, .stopped, .swap,
                                                       .shot, .shotTake, .mark, .cue]

    /// The event as a page gets it (issue 35), or nil when a page gets none of it: take files by name only,
    /// never their folders (nor the user's name in them), and no `error` event but the run's refusals of the
    /// phone pages' own commands (another client's failed command names its path).
    public static func pageEvent(_ event: RunEvent) -> RunEvent? {
        func name(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
        switch event {
        case .error(let message, let source):
            // Refusals of the page's own commands (`remote`: any phone page's) reach it; nothing else does.
            return source == "remote" ? .error(message: message, source: source) : nil
        case .takeStarted(let take, let file): return .takeStarted(take: take, file: name(file))
        case .takeEnded(let take, let file, let frames, let dropped, let kept, let empty, let error):
            return .takeEnded(take: take, file: name(file), frames: frames, dropped: dropped, kept: kept, empty: empty,
                              error: error.map { _ in "the take failed; the operator's terminal says why" })
        case .shotTake(let take, let shot, let shotTake, let file):
            return .shotTake(take: take, shot: shot, shotTake: shotTake, file: file.map(name))
        case .mark(let take, let shot, let shotTake, let mark, let file, let by):
            return .mark(take: take, shot: shot, shotTake: shotTake, mark: mark, file: file.map(name), by: by)
        default: return forwarded.contains(event.kind) ? event : nil
        }
    }

    public var recording = false
    public var countdown = false
    public var take = 0
    /// The run time (`t`) the take started at.
    public var takeStartedAt: Double?
    public var lastEventAt: Double = 0
    public var speed = "-"
    public var paused = true
    public var position: Double = 0
    public var length: Double = 0
    public var secondsLeft: Double = 0

    public init() {}

    /// Takes in one event of the run, at its time.
    public mutating func observe(_ timed: RunEvent.Timed) {
        lastEventAt = timed.t
        switch timed.event {
        case .countdown: countdown = true
        case .countdownCancelled: countdown = false
        case .takeStarted(let number, _):
            countdown = false
            recording = true
            take = number
            takeStartedAt = lastEventAt
        case .takeEnded:
            recording = false
            takeStartedAt = nil
        case .status(let s):
            speed = s.speed
            paused = s.paused
            position = s.position
            length = s.length
            secondsLeft = s.secondsLeft
            if !s.recording { recording = false; takeStartedAt = nil }
        default: break
        }
    }

    public var stateName: String { recording ? "recording" : countdown ? "countdown" : "idle" }
    public var progress: Double { length > 0 ? min(1, max(0, position / length)) : 0 }
    public var elapsed: Double { takeStartedAt.map { max(0, lastEventAt - $0) } ?? 0 }

    /// `/duo/state`: state name, take number, elapsed seconds, speed, paused (1/0), script progress 0–1.
    public var oscFeedback: OSCMessage {
        OSCMessage("/duo/state", [.string(stateName), .int(Int32(clamping: take)), .float(Float(elapsed)), .string(speed),
                                  .int(paused ? 1 : 0), .float(Float(progress))])
    }
}
