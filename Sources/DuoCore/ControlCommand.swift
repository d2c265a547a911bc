import Foundation

/// One command on the control socket (`--control`): a JSON object per line, `{"cmd": "record"}`.
///
///     {"cmd":"record"}                      start a take (after the countdown)
///     {"cmd":"stop"}                        stop the take, or cancel the countdown
///     {"cmd":"toggle"}                      record when idle, else stop (the Space key)
///     {"cmd":"cancel"}                      cancel a countdown only (the Esc key during a countdown)
///     {"cmd":"accessory","on":true}         the subject view on / off (the user's "enabled")
///     {"cmd":"fullscreen","on":false}       the operator window fullscreen on / off (desktop)
///     {"cmd":"speed","step":1}              teleprompter faster (1) or slower (-1); or {"preset":3}
///     {"cmd":"pause"}                       pause / resume scrolling
///     {"cmd":"jump","to":"next"}            next / previous marker, or "start"
///     {"cmd":"mirror"}                      cycle the subject view's mirror
///     {"cmd":"script","path":"talk.md"}     open another script (as the O key does)
///     {"cmd":"font","step":1}               teleprompter text larger (1) or smaller (-1)
///     {"cmd":"swap"} {"cmd":"fold"} {"cmd":"unfold"}   camera swaps (need a second camera)
///     {"cmd":"unplug","camera":"B"}         the test hub: camera A or B stops (as if unplugged);
///     {"cmd":"replug","camera":"B"}         and comes back (two cameras, virtual mode)
///     {"cmd":"quit"}                        end the run (a take is finalised first)
///
/// This is the run's one input vocabulary: the desktop's keys are bindings to these commands (see
/// `KeyBindings` in DuoDesktop), the timeline replays them, and the run director carries them out the same
/// way whichever way they came. `accessory` and `fullscreen` without `on` toggle (the T and F11 keys).
///
/// Thread: value type, Sendable; parsed on the socket's reader thread.
public enum ControlCommand: Sendable, Equatable {
    public enum Jump: String, Sendable { case next, previous, start }

    case record, stop, toggleRecord, cancelCountdown, quit, pause, mirror, swap, fold, unfold
    /// nil toggles.
    case accessory(on: Bool?)
    /// nil toggles.
    case fullscreen(on: Bool?)
    case speedStep(Int)
    case speedPreset(Int)
    case jump(Jump)
    /// Open another script (the O key's file chooser, or a client).
    case script(path: String)
    /// Teleprompter text one step larger (1) or smaller (-1).
    case fontStep(Int)
    /// The test hub's camera faults: camera 0 (A) or 1 (B) stops delivering, or comes back.
    case unplug(camera: Int)
    case replug(camera: Int)
    /// The test hub's subject monitor pulled out (false) or plugged back (true): the desktop sees it go as
    /// it sees a monitor unplugged.
    case subjectMonitorPlugged(Bool)
    /// The test hub turns camera 0 (A) or 1 (B) by this many degrees clockwise from upright (0, 90, 180,
    /// 270), as a device turned in its mount; the recording keeps its format.
    case rotate(camera: Int, degrees: Int)
    /// The teleprompter follows the voice (true) or time (false); nil switches.
    case follow(voice: Bool?)

    public static let names = ["record", "stop", "toggle", "cancel", "accessory", "fullscreen", "speed", "pause", "jump",
                               "mirror", "swap", "fold", "unfold", "script", "font", "unplug", "replug", "rotate", "follow", "quit"]

    /// The command's `cmd` name, as the `command` event reports it.
    public var name: String {
        switch self {
        case .record: "record"
        case .stop: "stop"
        case .toggleRecord: "toggle"
        case .cancelCountdown: "cancel"
        case .quit: "quit"
        case .pause: "pause"
        case .mirror: "mirror"
        case .swap: "swap"
        case .fold: "fold"
        case .unfold: "unfold"
        case .accessory: "accessory"
        case .fullscreen: "fullscreen"
        case .speedStep, .speedPreset: "speed"
        case .jump: "jump"
        case .script: "script"
        case .fontStep: "font"
        case .unplug: "unplug"
        case .replug: "replug"
        case .subjectMonitorPlugged(let on): on ? "replug" : "unplug"
        case .rotate: "rotate"
        case .follow: "follow"
        }
    }

    /// Parses one line. Every problem is a one-line usage error saying what a good line looks like.
    public static func parse(_ line: String) throws(DuoError) -> ControlCommand {
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .usage("control: not a JSON object; send one per line, such as {\"cmd\":\"record\"}")
        }
        guard let cmd = object["cmd"] as? String else {
            throw .usage("control: missing \"cmd\"; send one of \(names.joined(separator: ", ")), such as {\"cmd\":\"record\"}")
        }
        func flag(_ key: String) throws(DuoError) -> Bool {
            guard let on = StrictJSON.bool(object[key]) else {
                throw .usage("control: \(cmd) needs \"\(key)\": true or false, such as {\"cmd\":\"\(cmd)\",\"\(key)\":true}")
            }
            return on
        }
        switch cmd {
        case "record": return .record
        case "stop": return .stop
        case "toggle": return .toggleRecord
        case "cancel": return .cancelCountdown
        case "quit": return .quit
        case "pause": return .pause
        case "mirror": return .mirror
        case "swap": return .swap
        case "fold": return .fold
        case "unfold": return .unfold
        case "accessory": return .accessory(on: try flag("on"))
        case "fullscreen": return .fullscreen(on: try flag("on"))
        case "speed":
            if let step = StrictJSON.int(object["step"]), step == 1 || step == -1 { return .speedStep(step) }
            if let preset = StrictJSON.int(object["preset"]), (1...5).contains(preset) { return .speedPreset(preset) }
            throw .usage("control: speed needs \"step\": 1 or -1, or \"preset\": 1 to 5, such as {\"cmd\":\"speed\",\"step\":1}")
        case "font":
            guard let step = StrictJSON.int(object["step"]), step == 1 || step == -1 else {
                throw .usage("control: font needs \"step\": 1 (larger) or -1 (smaller), such as {\"cmd\":\"font\",\"step\":1}")
            }
            return .fontStep(step)
        case "script":
            guard let path = object["path"] as? String, !path.isEmpty, !path.contains("\0") else {
                throw .usage("control: script needs \"path\": the script file, such as {\"cmd\":\"script\",\"path\":\"/home/me/talk.md\"}")
            }
            return .script(path: path)
        case "unplug", "replug":
            if let monitor = object["monitor"] as? String {
                guard monitor == "subject" else {
                    throw .usage("control: \(cmd) takes \"monitor\": \"subject\" (the operator's monitor stays), such as {\"cmd\":\"\(cmd)\",\"monitor\":\"subject\"}")
                }
                return .subjectMonitorPlugged(cmd == "replug")
            }
            guard let camera = (object["camera"] as? String).flatMap({ ["A": 0, "B": 1][$0] }) else {
                throw .usage("control: \(cmd) needs \"camera\": \"A\" or \"B\" (or \"monitor\": \"subject\"), such as {\"cmd\":\"\(cmd)\",\"camera\":\"B\"}")
            }
            return cmd == "unplug" ? .unplug(camera: camera) : .replug(camera: camera)
        case "follow":
            guard let mode = object["mode"] else { return .follow(voice: nil) }
            guard let name = mode as? String, name == "voice" || name == "time" else {
                throw .usage("control: follow takes \"mode\": \"voice\" or \"time\" (none switches), such as {\"cmd\":\"follow\",\"mode\":\"voice\"}")
            }
            return .follow(voice: name == "voice")
        case "rotate":
            guard let camera = (object["camera"] as? String).flatMap({ ["A": 0, "B": 1][$0] }),
                  let degrees = StrictJSON.int(object["degrees"]), [0, 90, 180, 270].contains(degrees) else {
                throw .usage("control: rotate needs \"camera\": \"A\" or \"B\" and \"degrees\": 0, 90, 180 or 270, such as {\"cmd\":\"rotate\",\"camera\":\"A\",\"degrees\":180}")
            }
            return .rotate(camera: camera, degrees: degrees)
        case "jump":
            guard let to = (object["to"] as? String).flatMap(Jump.init(rawValue:)) else {
                throw .usage("control: jump needs \"to\": \"next\", \"previous\" or \"start\"")
            }
            return .jump(to)
        default:
            throw .usage("control: unknown command \"\(cmd)\"; use one of \(names.joined(separator: ", "))")
        }
    }
}

/// JSON values read strictly: `true` is no number and `1` is no boolean (Foundation reads both as an
/// NSNumber and converts either way), and a whole number is no fraction.
///
/// Thread: stateless; any thread.
public enum StrictJSON {
    private static func number(_ value: Any?) -> NSNumber? {
        guard let n = value as? NSNumber, !(value is String) else { return nil }
        return n
    }
    private static func isBoolean(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    public static func bool(_ value: Any?) -> Bool? {
        guard let n = number(value), isBoolean(n) else { return nil }
        return n.boolValue
    }

    public static func double(_ value: Any?) -> Double? {
        guard let n = number(value), !isBoolean(n), n.doubleValue.isFinite else { return nil }
        return n.doubleValue
    }

    public static func int(_ value: Any?) -> Int? {
        guard let d = double(value), d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }
}
