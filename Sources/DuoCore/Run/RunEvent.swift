import Foundation

/// One event of a run, as `docs/events.md` documents it: a case per row of its table, with exactly the
/// row's fields. The event log (`--events`), the control socket's clients, the web remote and OSC
/// feedback all receive this value (with its time, `RunEvent.Timed`); the JSON it encodes is the
/// public event-log line: `event` (its name), its fields (a field that does not apply is `null`), and,
/// through `Timed`, `v` and `t`.
///
/// Field values are the ones the document names (strings such as a camera's label, a command's source
/// or a state), so the JSON stays exactly what it has always been.
///
/// Thread: value type, Sendable; pure.
public enum RunEvent: Sendable, Equatable, Encodable {
    case starting(camera: String, format: String, mode: String, timeout: Double)
    case started(camera: String, format: String)
    case command(cmd: String, source: String)
    case timeline(at: Double)
    case countdown(seconds: Int, take: Int)
    case countdownCancelled(take: Int)
    case takeStarted(take: Int, file: String)
    case takeEnded(take: Int, file: String, frames: Int, dropped: Int, kept: Bool, empty: Bool, error: String?)
    case shot(id: String, title: String, index: Int, count: Int, takes: Int, next: String?, trigger: String)
    case shotTake(take: Int, shot: String, shotTake: Int, file: String?)
    case mark(take: Int, shot: String, shotTake: Int, mark: String, file: String?, by: String)
    case shotsReloaded(count: Int, current: String, notice: String?)
    /// A note or flag (issue 39): in take `take` at `at` seconds into it, or the session's (both null).
    case note(kind: String, code: String, text: String, take: Int?, at: Double?, wall: String, shot: String?)
    /// The replay buffer (`--replay`) was written out: `file`, `seconds` long from a keyframe, spanning the
    /// wall clock from `start` to `end` (ISO 8601), with `frames` video frames and `chapters` notes' chapters.
    case replaySaved(file: String, seconds: Double, start: String, end: String, frames: Int, chapters: Int)
    case swap(from: String, to: String, format: String)
    case swapRefused(reason: String)
    /// A chapter in the take: `at` seconds into take `take`, titled `title`, asked for by `by` (obs-websocket).
    case chapter(take: Int, title: String, at: Double, by: String)
    case mirror(display: String, mirrored: Bool, camera: String, cause: String)
    case requirements(required: [String], unmet: [String])
    case join(take: Int, state: String, progress: Double?, file: String, segments: [String], error: String?)
    case cameraLost(camera: String, label: String, reason: String)
    case cameraRestored(camera: String, label: String)
    case microphoneLost(label: String, id: String, reason: String)
    case microphoneRestored(label: String, id: String, missingSeconds: Double)
    case follow(mode: String, state: String?, word: String?, position: Double, at: Double)
    /// The user turned the subject view on or off.
    case accessory(Accessory)
    /// The subject view's availability changed.
    case availability(Accessory)
    case selfView(size: String)
    /// A cue to the talent shown (`text`, a `preset`'s name or null, for `seconds` or null: until cleared) or
    /// cleared (`text` null).
    case cue(text: String?, preset: String?, seconds: Double?)
    case frames(flowing: Bool, cameraFrames: Int)
    case status(Status)
    case framing(Framing)
    /// `source`: the command source whose command was refused (`remote` for the phone page), else nil.
    case error(message: String, source: String? = nil)
    case stopped(reason: String, exitCode: Int)
    case monitors(backend: String, monitors: [Monitor])
    case remote(display: String, state: String, width: Int?, height: Int?, reason: String?)
    case display(state: String, reason: String?, frames: Int?)
    case fullscreen(Bool)
    case subjectMonitor(shows: String)
    case preview(fps: Double, of: Double, largestGapMs: Double, intervalMs: Double)
    case controls(shown: Bool, buttons: [String: [Int]])
    case operatorPicture(width: Int, height: Int, shownWidth: Int, shownHeight: Int, filter: String)

    /// The event schema's version: every line carries it as `v` (docs/events.md).
    public static let version = 1

    /// The subject view's state (`accessory`, `availability`).
    public struct Accessory: Sendable, Equatable {
        public var enabled: Bool
        public var available: Bool
        public var shown: Bool
        public var reasons: [String]
        /// The subject's monitor (desktop), nil headless.
        public var subjectMonitor: String?
        public init(enabled: Bool, available: Bool, shown: Bool, reasons: [String], subjectMonitor: String?) {
            self.enabled = enabled; self.available = available; self.shown = shown
            self.reasons = reasons; self.subjectMonitor = subjectMonitor
        }
    }

    /// The once-a-second (or on change) `status` report.
    public struct Status: Sendable, Equatable {
        public var trigger: String
        public var position: Double
        public var length: Double
        public var paused: Bool
        public var speed: String
        public var secondsLeft: Double
        public var mirror: String
        public var fontSize: Double
        public var cameraFrames: Int
        public var operatorFrames: Int
        public var subjectFrames: Int
        public var cameraDropped: Int
        public var previewSkipped: Int
        public var subjectSkipped: Int
        public var recording: Bool
        /// dBFS; nil without sound or while a named microphone is lost.
        public var audioPeak: Double?
        public init(trigger: String, position: Double, length: Double, paused: Bool, speed: String, secondsLeft: Double,
                    mirror: String, fontSize: Double, cameraFrames: Int, operatorFrames: Int, subjectFrames: Int,
                    cameraDropped: Int, previewSkipped: Int, subjectSkipped: Int, recording: Bool, audioPeak: Double?) {
            self.trigger = trigger; self.position = position; self.length = length; self.paused = paused
            self.speed = speed; self.secondsLeft = secondsLeft; self.mirror = mirror; self.fontSize = fontSize
            self.cameraFrames = cameraFrames; self.operatorFrames = operatorFrames; self.subjectFrames = subjectFrames
            self.cameraDropped = cameraDropped; self.previewSkipped = previewSkipped; self.subjectSkipped = subjectSkipped
            self.recording = recording; self.audioPeak = audioPeak
        }
    }

    /// Framing hints (`framing`).
    public struct Framing: Sendable, Equatable {
        public var mode: String
        public var faces: [Face]
        /// The hint the subject sees, nil for none.
        public var hint: String?
        public var hints: [Hint]
        /// Why the hint changed; nil when it did not.
        public var reason: String?
        public init(mode: String, faces: [Face], hint: String?, hints: [Hint], reason: String?) {
            self.mode = mode; self.faces = faces; self.hint = hint; self.hints = hints; self.reason = reason
        }

        /// A face, as fractions of the unmirrored camera frame.
        public struct Face: Sendable, Equatable {
            public var x, y, width, height: Double
            public init(x: Double, y: Double, width: Double, height: Double) {
                self.x = x; self.y = y; self.width = width; self.height = height
            }
        }

        /// One person's hint (`person` nil in single mode).
        public struct Hint: Sendable, Equatable {
            public var person: String?
            public var hint: String
            public init(person: String?, hint: String) { self.person = person; self.hint = hint }
        }
    }

    /// A monitor (`monitors`).
    public struct Monitor: Sendable, Equatable {
        public var index: Int
        public var connector: String
        /// `WxH+X+Y`.
        public var geometry: String
        public init(index: Int, connector: String, geometry: String) {
            self.index = index; self.connector = connector; self.geometry = geometry
        }
    }

    /// An event with the time it happened: what every receiver gets, and the event-log line it encodes
    /// (with `v` and `t`).
    public struct Timed: Sendable, Equatable, Encodable {
        public let event: RunEvent
        /// Seconds since the run started, to the millisecond.
        public let t: Double
        public init(_ event: RunEvent, t: Double) { self.event = event; self.t = t }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: RunEventKey.self)
            try event.encodeNameAndFields(into: &c)
            try c.encode(RunEvent.version, forKey: "v")
            try c.encode(t, forKey: "t")
        }

        /// The event-log line (no newline): sorted keys, slashes unescaped.
        public var json: Data { RunEvent.jsonLine(self) }
    }

    /// The line one encodable event value makes: sorted keys, slashes unescaped, as the event log
    /// has always written them.
    static func jsonLine(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data()
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: RunEventKey.self)
        try encodeNameAndFields(into: &c)
    }
}

/// A JSON key of an event line.
public struct RunEventKey: CodingKey, ExpressibleByStringLiteral, Sendable {
    public let stringValue: String
    public init(stringValue: String) { self.stringValue = stringValue }
    public init(stringLiteral value: String) { self.stringValue = value }
    public var intValue: Int? { nil }
    public init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where K == RunEventKey {
    /// A field, `null` when the value does not apply.
    mutating func put<T: Encodable>(_ key: RunEventKey, _ value: T?) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
