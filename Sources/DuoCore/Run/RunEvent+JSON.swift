import Foundation

//  How each RunEvent is written: its name as docs/events.md spells it, and its fields under exactly the
//  document's names (the event log is a public interface; never rename one).
//
//  Thread: value type, Sendable; pure.

extension RunEvent {
    /// Which event this is; its raw value is the name in docs/events.md and the `event` field.
    public enum Kind: String, CaseIterable, Sendable {
        case starting
        case started
        case command
        case timeline
        case countdown
        case countdownCancelled = "countdown-cancelled"
        case takeStarted = "take-started"
        case takeEnded = "take-ended"
        case shot
        case shotTake = "shot-take"
        case mark
        case shotsReloaded = "shots-reloaded"
        case note
        case replaySaved = "replay-saved"
        case swap
        case swapRefused = "swap-refused"
        case chapter
        case mirror
        case requirements
        case join
        case cameraLost = "camera-lost"
        case cameraRestored = "camera-restored"
        case microphoneLost = "microphone-lost"
        case microphoneRestored = "microphone-restored"
        case follow
        case accessory
        case availability
        case selfView = "self-view"
        case cue
        case frames
        case status
        case framing
        case error
        case stopped
        case monitors
        case remote
        case display
        case fullscreen
        case subjectMonitor = "subject-monitor"
        case preview
        case controls
        case operatorPicture = "operator-picture"
    }

    /// The event's name, as in docs/events.md and the `event` field.
    public var name: String { kind.rawValue }

    public var kind: Kind {
        switch self {
        case .starting: .starting
        case .started: .started
        case .command: .command
        case .timeline: .timeline
        case .countdown: .countdown
        case .countdownCancelled: .countdownCancelled
        case .takeStarted: .takeStarted
        case .takeEnded: .takeEnded
        case .shot: .shot
        case .shotTake: .shotTake
        case .mark: .mark
        case .shotsReloaded: .shotsReloaded
        case .note: .note
        case .replaySaved: .replaySaved
        case .swap: .swap
        case .swapRefused: .swapRefused
        case .chapter: .chapter
        case .mirror: .mirror
        case .requirements: .requirements
        case .join: .join
        case .cameraLost: .cameraLost
        case .cameraRestored: .cameraRestored
        case .microphoneLost: .microphoneLost
        case .microphoneRestored: .microphoneRestored
        case .follow: .follow
        case .accessory: .accessory
        case .availability: .availability
        case .selfView: .selfView
        case .cue: .cue
        case .frames: .frames
        case .status: .status
        case .framing: .framing
        case .error: .error
        case .stopped: .stopped
        case .monitors: .monitors
        case .remote: .remote
        case .display: .display
        case .fullscreen: .fullscreen
        case .subjectMonitor: .subjectMonitor
        case .preview: .preview
        case .controls: .controls
        case .operatorPicture: .operatorPicture
        }
    }

    /// `event` and the event's own fields.
    func encodeNameAndFields(into c: inout KeyedEncodingContainer<RunEventKey>) throws {
        try c.encode(name, forKey: "event")
        switch self {
        case .starting(let camera, let format, let mode, let timeout):
            try c.put("camera", camera); try c.put("format", format); try c.put("mode", mode); try c.put("timeout", timeout)
        case .started(let camera, let format):
            try c.put("camera", camera); try c.put("format", format)
        case .command(let cmd, let source):
            try c.put("cmd", cmd); try c.put("source", source)
        case .timeline(let at):
            try c.put("at", at)
        case .countdown(let seconds, let take):
            try c.put("seconds", seconds); try c.put("take", take)
        case .countdownCancelled(let take):
            try c.put("take", take)
        case .takeStarted(let take, let file):
            try c.put("take", take); try c.put("file", file)
        case .takeEnded(let take, let file, let frames, let dropped, let kept, let empty, let error):
            try c.put("take", take); try c.put("file", file); try c.put("frames", frames); try c.put("dropped", dropped)
            try c.put("kept", kept); try c.put("empty", empty); try c.put("error", error)
        case .shot(let id, let title, let index, let count, let takes, let next, let trigger):
            try c.put("id", id); try c.put("title", title); try c.put("index", index); try c.put("count", count)
            try c.put("takes", takes); try c.put("next", next); try c.put("trigger", trigger)
        case .shotTake(let take, let shot, let shotTake, let file):
            try c.put("take", take); try c.put("shot", shot); try c.put("shotTake", shotTake); try c.put("file", file)
        case .mark(let take, let shot, let shotTake, let mark, let file, let by):
            try c.put("take", take); try c.put("shot", shot); try c.put("shotTake", shotTake); try c.put("mark", mark)
            try c.put("file", file); try c.put("by", by)
        case .note(let kind, let code, let text, let take, let at, let wall, let shot):
            try c.put("kind", kind); try c.put("code", code); try c.put("text", text); try c.put("take", take)
            try c.put("at", at); try c.put("wall", wall); try c.put("shot", shot)
        case .replaySaved(let file, let seconds, let start, let end, let frames, let chapters):
            try c.put("file", file); try c.put("seconds", seconds); try c.put("start", start); try c.put("end", end)
            try c.put("frames", frames); try c.put("chapters", chapters)
        case .shotsReloaded(let count, let current, let notice):
            try c.put("count", count); try c.put("current", current); try c.put("notice", notice)
        case .swap(let from, let to, let format):
            try c.put("from", from); try c.put("to", to); try c.put("format", format)
        case .swapRefused(let reason):
            try c.put("reason", reason)
        case .chapter(let take, let title, let at, let by):
            try c.put("take", take); try c.put("title", title); try c.put("at", at); try c.put("by", by)
        case .mirror(let display, let mirrored, let camera, let cause):
            try c.put("display", display); try c.put("mirrored", mirrored); try c.put("camera", camera); try c.put("cause", cause)
        case .requirements(let required, let unmet):
            try c.put("required", required); try c.put("unmet", unmet)
        case .join(let take, let state, let progress, let file, let segments, let error):
            try c.put("take", take); try c.put("state", state); try c.put("progress", progress); try c.put("file", file)
            try c.put("segments", segments); try c.put("error", error)
        case .cameraLost(let camera, let label, let reason):
            try c.put("camera", camera); try c.put("label", label); try c.put("reason", reason)
        case .cameraRestored(let camera, let label):
            try c.put("camera", camera); try c.put("label", label)
        case .microphoneLost(let label, let id, let reason):
            try c.put("label", label); try c.put("id", id); try c.put("reason", reason)
        case .microphoneRestored(let label, let id, let missingSeconds):
            try c.put("label", label); try c.put("id", id); try c.put("missingSeconds", missingSeconds)
        case .follow(let mode, let state, let word, let position, let at):
            try c.put("mode", mode); try c.put("state", state); try c.put("word", word); try c.put("position", position)
            try c.put("at", at)
        case .accessory(let a), .availability(let a):
            try c.put("enabled", a.enabled); try c.put("available", a.available); try c.put("shown", a.shown)
            try c.put("reasons", a.reasons); try c.put("subjectMonitor", a.subjectMonitor)
        case .selfView(let size):
            try c.put("size", size)
        case .cue(let text, let preset, let seconds):
            try c.put("text", text); try c.put("preset", preset); try c.put("seconds", seconds)
        case .frames(let flowing, let cameraFrames):
            try c.put("flowing", flowing); try c.put("cameraFrames", cameraFrames)
        case .status(let s):
            try c.put("trigger", s.trigger); try c.put("position", s.position); try c.put("length", s.length)
            try c.put("paused", s.paused); try c.put("speed", s.speed); try c.put("secondsLeft", s.secondsLeft)
            try c.put("mirror", s.mirror); try c.put("fontSize", s.fontSize); try c.put("cameraFrames", s.cameraFrames)
            try c.put("operatorFrames", s.operatorFrames); try c.put("subjectFrames", s.subjectFrames)
            try c.put("cameraDropped", s.cameraDropped); try c.put("previewSkipped", s.previewSkipped)
            try c.put("subjectSkipped", s.subjectSkipped); try c.put("recording", s.recording); try c.put("audioPeak", s.audioPeak)
        case .framing(let f):
            try c.put("mode", f.mode); try c.put("faces", f.faces); try c.put("hint", f.hint); try c.put("hints", f.hints)
            try c.put("reason", f.reason)
        case .error(let message, let source):
            try c.put("message", message)
            if let source { try c.put("source", source) }
        case .stopped(let reason, let exitCode):
            try c.put("reason", reason); try c.put("exitCode", exitCode)
        case .monitors(let backend, let monitors):
            try c.put("backend", backend); try c.put("monitors", monitors)
        case .remote(let display, let state, let width, let height, let reason):
            try c.put("display", display); try c.put("state", state); try c.put("width", width); try c.put("height", height)
            try c.put("reason", reason)
        case .display(let state, let reason, let frames):
            try c.put("state", state); try c.put("reason", reason); try c.put("frames", frames)
        case .fullscreen(let on):
            try c.put("fullscreen", on)
        case .subjectMonitor(let shows):
            try c.put("shows", shows)
        case .preview(let fps, let of, let largestGapMs, let intervalMs):
            try c.put("fps", fps); try c.put("of", of); try c.put("largestGapMs", largestGapMs); try c.put("intervalMs", intervalMs)
        case .controls(let shown, let buttons):
            try c.put("shown", shown); try c.put("buttons", buttons)
        case .operatorPicture(let width, let height, let shownWidth, let shownHeight, let filter):
            try c.put("width", width); try c.put("height", height); try c.put("shownWidth", shownWidth)
            try c.put("shownHeight", shownHeight); try c.put("filter", filter)
        }
    }
}

extension RunEvent.Framing.Face: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: RunEventKey.self)
        try c.put("x", x); try c.put("y", y); try c.put("width", width); try c.put("height", height)
    }
}

extension RunEvent.Framing.Hint: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: RunEventKey.self)
        try c.put("person", person); try c.put("hint", hint)
    }
}

extension RunEvent.Monitor: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: RunEventKey.self)
        try c.put("index", index); try c.put("connector", connector); try c.put("geometry", geometry)
    }
}
