import Foundation

//  Blackmagic's HyperDeck Ethernet protocol (`--hyperdeck`, TCP 9993): the text protocol ATEM switchers,
//  Companion and vMix use to start and stop a recorder. A command is one line (`record`, `record: name: X`)
//  or a block (`record:` then `name: X` lines, then an empty line); every answer is a numbered line
//  (`200 ok`), or a numbered line ending in a colon, `key: value` lines and an empty line. Asynchronous
//  `5xx` messages go to a connection that asked for them with `notify:`. Pure: the adapter carries lines.

/// What the HyperDeck side knows of the run, folded from the run's events.
///
/// Thread: value type; kept behind its owner's lock.
public struct HyperDeckRunView: Sendable, Equatable {
    public var recording = false
    public var countdown = false
    /// The session's takes, by file name, with their frame counts (clips count / clips get).
    public var clips: [(name: String, frames: Int)] = []
    /// The take recording now (its file name).
    public var current: String?
    /// The video format as HyperDeck names it (`1080p30`).
    public var videoFormat: String
    /// Seconds of recording the record folder's free space holds at the take's bitrate.
    public var recordingTime = 0
    public var fps: Double

    public init(width: Int, height: Int, fps: Double) {
        self.fps = fps
        let rate = fps == fps.rounded() ? String(Int(fps)) : String(format: "%.2f", fps)
        videoFormat = "\(height)p\(rate)"
    }

    public static func == (a: HyperDeckRunView, b: HyperDeckRunView) -> Bool {
        a.recording == b.recording && a.countdown == b.countdown && a.clips.map(\.name) == b.clips.map(\.name)
            && a.current == b.current && a.recordingTime == b.recordingTime
    }

    public var transportStatus: String { recording || countdown ? "record" : "preview" }

    public mutating func observe(_ event: RunEvent) {
        func name(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
        switch event {
        case .countdown: countdown = true
        case .countdownCancelled: countdown = false
        case .takeStarted(_, let file):
            countdown = false
            recording = true
            current = name(file)
        case .takeEnded(_, let file, let frames, _, let kept, let empty, _):
            recording = false
            current = nil
            if kept, !empty { clips.append((name(file), frames)) }
        case .status(let s) where !s.recording: recording = false
        default: break
        }
    }
}

/// One connection's side of the protocol: the commands it sends, what it is answered, which
/// notifications it asked for.
///
/// Thread: value type; the owner keeps one per connection behind its lock.
public struct HyperDeckSession: Sendable {
    /// What one line asks for.
    public struct Step: Sendable, Equatable {
        /// The answer (lines joined with CRLF, without the last line break; nil: none yet, a block is open).
        public var reply: String?
        public var commands: [ControlCommand] = []
        /// `quit`: close once the answer is sent.
        public var close = false
        public init(reply: String?, commands: [ControlCommand] = [], close: Bool = false) {
            self.reply = reply
            self.commands = commands
            self.close = close
        }
    }

    public private(set) var notifyTransport = false
    public private(set) var notifySlot = false
    public private(set) var notifyRemote = false
    public private(set) var notifyConfiguration = false
    /// A block's command and parameters, until its empty line.
    private var block: (command: String, parameters: [(String, String)])?

    public init() {}

    public static let protocolVersion = "1.11"
    public static let model = "duo-capture"

    /// The banner a new connection gets.
    public static func banner(version: String) -> String {
        lines("500 connection info:", ["protocol version": protocolVersion, "model": model])
    }

    /// One line from the client (empty: the end of a block).
    public mutating func receive(_ line: String, view: HyperDeckRunView, version: String) -> Step {
        let text = line.trimmingCharacters(in: .whitespaces)
        if var open = block {
            if text.isEmpty {
                block = nil
                return run(open.command, open.parameters, view: view, version: version)
            }
            guard let (key, value) = Self.pair(text) else { block = nil; return Step(reply: "100 syntax error") }
            open.parameters.append((key, value))
            block = open
            return Step(reply: nil)
        }
        guard !text.isEmpty else { return Step(reply: nil) }
        guard let colon = text.firstIndex(of: ":") else { return run(text.lowercased(), [], view: view, version: version) }
        let command = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let rest = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if rest.isEmpty {
            block = (command, [])
            return Step(reply: nil)
        }
        guard let parameters = Self.singleLine(rest) else { return Step(reply: "100 syntax error") }
        return run(command, parameters, view: view, version: version)
    }

    /// `name: X speed: 1` on one line: a key is a word (or words) followed by a colon.
    static func singleLine(_ text: String) -> [(String, String)]? {
        let known = ["name", "transport", "slot", "remote", "configuration", "enable", "override", "clip id", "count", "id",
                     "speed", "loop", "single clip", "timecode", "slot id", "video format", "file format"]
        var result: [(String, String)] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let colon = rest.firstIndex(of: ":") else { return nil }
            let key = rest[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: colon)...]
            // The value runs to the next known key.
            var end = rest.endIndex
            for k in known {
                if let r = rest.range(of: " \(k):", options: .caseInsensitive), r.lowerBound < end { end = r.lowerBound }
            }
            result.append((key, rest[..<end].trimmingCharacters(in: .whitespaces)))
            rest = rest[end...]
        }
        return result
    }

    static func pair(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        return (text[..<colon].trimmingCharacters(in: .whitespaces).lowercased(),
                text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    private mutating func run(_ command: String, _ parameters: [(String, String)], view: HyperDeckRunView, version: String) -> Step {
        let p = Dictionary(parameters, uniquingKeysWith: { _, b in b })
        switch command {
        case "ping": return Step(reply: "200 ok")
        case "quit": return Step(reply: "200 ok", close: true)
        case "help", "commands":
            return Step(reply: Self.lines("201 help:", [:], free: ["device info", "transport info", "record", "record: name: {name}", "stop",
                                                                    "slot info", "clips count", "clips get", "notify", "remote", "ping", "quit"]))
        case "device info":
            return Step(reply: Self.lines("204 device info:", ["protocol version": Self.protocolVersion, "model": Self.model,
                                                               "unique id": "duocapture", "slot count": "1",
                                                               "software version": version]))
        case "transport info": return Step(reply: Self.transport(view, code: 208))
        case "slot info": return Step(reply: Self.slot(view, code: 202))
        case "record":
            // `name:` is taken and not used: duo-capture names its takes (docs/remote-control.md says so).
            guard !(view.recording || view.countdown) else { return Step(reply: "200 ok") }
            return Step(reply: "200 ok", commands: [.record])
        case "stop":
            guard view.recording || view.countdown else { return Step(reply: "200 ok") }
            return Step(reply: "200 ok", commands: [.stop])
        case "clips count":
            return Step(reply: Self.lines("214 clips count:", ["clip count": String(view.clips.count)]))
        case "clips get":
            var free: [String] = []
            for (i, clip) in view.clips.enumerated() {
                free.append("\(i + 1): \(clip.name) 00:00:00:00 \(Self.timecode(frames: clip.frames, fps: view.fps))")
            }
            return Step(reply: Self.lines("205 clips info:", ["clip count": String(view.clips.count)], free: free))
        case "remote":
            if p.isEmpty { return Step(reply: Self.lines("210 remote info:", ["enabled": "true", "override": "false"])) }
            return Step(reply: "200 ok")
        case "notify":
            if p.isEmpty {
                return Step(reply: Self.lines("209 notify:", ["transport": String(notifyTransport), "slot": String(notifySlot),
                                                              "remote": String(notifyRemote), "configuration": String(notifyConfiguration)]))
            }
            for (key, value) in parameters {
                guard let on = ["true": true, "false": false][value.lowercased()] else { return Step(reply: "102 invalid value") }
                switch key {
                case "transport": notifyTransport = on
                case "slot": notifySlot = on
                case "remote": notifyRemote = on
                case "configuration": notifyConfiguration = on
                default: return Step(reply: "101 unsupported parameter")
                }
            }
            return Step(reply: "200 ok")
        case "play", "playrange", "play on startup", "play option", "goto", "jog", "shuttle", "preview", "format", "identify",
             "disk list", "uptime", "configuration", "slot select", "clips add", "clips clear", "clips remove", "watchdog",
             "record spill", "dynamic range", "timeline", "nas", "network", "cache info":
            return Step(reply: "103 unsupported")
        default:
            return Step(reply: "100 syntax error")
        }
    }

    /// `transport info` (208) or its notification (508).
    public static func transport(_ view: HyperDeckRunView, code: Int) -> String {
        let clip = view.recording ? String(view.clips.count + 1) : view.clips.isEmpty ? "none" : String(view.clips.count)
        return lines("\(code) transport info:", ["status": view.transportStatus, "speed": "0", "slot id": "1", "clip id": clip,
                                                 "single clip": "false", "display timecode": "00:00:00:00", "timecode": "00:00:00:00",
                                                 "video format": view.videoFormat, "loop": "false"])
    }

    /// `slot info` (202) or its notification (502).
    public static func slot(_ view: HyperDeckRunView, code: Int) -> String {
        lines("\(code) slot info:", ["slot id": "1", "status": "mounted", "volume name": "duo-capture",
                                     "recording time": String(view.recordingTime), "video format": view.videoFormat])
    }

    /// A numbered heading, its `key: value` lines (in a fixed order) and the closing empty line, CRLF.
    static func lines(_ heading: String, _ fields: KeyValuePairs<String, String>, free: [String] = []) -> String {
        ([heading] + fields.map { "\($0.key): \($0.value)" } + free + [""]).joined(separator: "\r\n")
    }

    static func timecode(frames: Int, fps: Double) -> String {
        let rate = max(1, Int(fps.rounded()))
        let s = frames / rate
        return String(format: "%02d:%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60, frames % rate)
    }
}
