import Foundation

/// One command on the control socket (`--control`): a JSON object per line, `{"cmd": "record"}`.
///
///     {"cmd":"record"}                      start a take (after the countdown)
///     {"cmd":"stop"}                        stop the take, or cancel the countdown
///     {"cmd":"toggle"}                      record when idle, else stop (the Space key)
///     {"cmd":"cancel"}                      cancel a countdown only (the Esc key during a countdown)
///     {"cmd":"accessory","on":true}         the subject view on / off (the user's "enabled")
///     {"cmd":"fullscreen","on":false}       the operator window fullscreen on / off (desktop); during a take
///                                       or countdown leaving needs it twice within 3 s, or
///     {"cmd":"fullscreen","confirm":true}   leaves fullscreen in one go, even during a take
///     {"cmd":"speed","step":1}              teleprompter faster (1) or slower (-1); or {"preset":3} (1 to 9)
///     {"cmd":"speed","factor":1.5}          teleprompter at 1.5 times its default speed (0.25 to 4)
///     {"cmd":"pause"}                       pause / resume scrolling
///     {"cmd":"reverse"}                     scroll the other way (back / forward again)
///     {"cmd":"jump","to":"next"}            next / previous marker, or "start"
///     {"cmd":"mirror"}                      cycle the subject view's mirror
///     {"cmd":"script","path":"talk.md"}     open another script (as the O key does)
///     {"cmd":"font","step":1}               teleprompter text larger (1) or smaller (-1)
///     {"cmd":"swap"} {"cmd":"fold"} {"cmd":"unfold"}   camera swaps (need a second camera); fold picks
///                                       the camera facing the subject, unfold the one facing the operator
///     {"cmd":"swap","restart":true}         stop, then switch: end the take, swap, start a new take after
///                                       the countdown (also with fold / unfold)
///     {"cmd":"faces","camera":"B","faces":"operator"}   a camera turned round: whose face it sees now
///     {"cmd":"follow","mode":"voice"}       the teleprompter follows the voice or time
///     {"cmd":"shot","next":true}            the next shot of --shots (false: the previous); or {"id":"03"}
///     {"cmd":"mark","good":true}            mark the latest take good (false: no good); "take":N marks take N
///     {"cmd":"retake"}                      record the current shot again (an unmarked last take is no good)
///     {"cmd":"self-view"}                   the subject's self-view on / off; or {"size":"small"|"large"|"off"}
///     {"cmd":"remote-link"}                 the web remote's address and QR code on the operator window on / off
///                                       (the L key); {"on":true} shows, {"on":false} hides (desktop)
///     {"cmd":"note","code":"BUG","text":"…"}   a note on the take's clock (between takes: the session's);
///                                       "code" from the code book (--note-codes; default the first, BUG)
///     {"cmd":"flag"}                        an unnamed flag on the take's clock
///     {"cmd":"save-replay"}                 write the replay buffer (--replay SECONDS) out as a replay file of
///                                       its own (the Y key); refused without --replay or while one is saved
///     {"cmd":"cue","text":"smile"}          a cue to the talent beside the reading line (at most 40
///                                       characters), or {"preset":"wrap"} (wrap, 30s, slower, faster,
///                                       lens); "seconds":N hides it after N s; {"clear":true} hides it
///     {"cmd":"quit"}                        end the run (a take is finalised first)
///
/// Another entry point may register commands of its own (`CommandExtensions`): duo-capture-testhub's test
/// hub registers its faults (unplug, replug, rotate); duo-capture registers none.
///
/// This is the run's one input vocabulary: the desktop's keys are bindings to these commands (see
/// `KeyBindings` in DuoDesktop), the timeline replays them, and the run director carries them out the same
/// way whichever way they came. `accessory` and `fullscreen` without `on` toggle (the T and F11 keys).
///
/// Thread: value type, Sendable; parsed on the network loop's thread (the control socket, the web remote).
public enum ControlCommand: Sendable, Equatable {
    public enum Jump: String, Sendable { case next, previous, start }

    case record, stop, toggleRecord, cancelCountdown, quit, pause, mirror, swap, fold, unfold
    /// The teleprompter scrolls the other way (the R key).
    case reverse
    /// nil toggles.
    case accessory(on: Bool?)
    /// nil toggles. `confirm`: leave in one go even during a take (`FullscreenLeave`).
    case fullscreen(on: Bool?, confirm: Bool = false)
    case speedStep(Int)
    case speedPreset(Int)
    /// The teleprompter at this multiple of the script's default speed (0.25 to 4; OSC's `/duo/speed`).
    case speedFactor(Double)
    case jump(Jump)
    /// Open another script (the O key's file chooser, or a client).
    case script(path: String)
    /// Teleprompter text one step larger (1) or smaller (-1).
    case fontStep(Int)
    /// A command a registered extension parsed (`CommandExtensions`).
    case extended(ExtensionCommand)
    /// The teleprompter follows the voice (true) or time (false); nil switches.
    case follow(voice: Bool?)
    /// The shot list (`--shots`): to the next (true) or previous (false) shot, or to the shot with an id.
    case shot(next: Bool?, id: String?)
    /// Marks the latest take (or take `take`) good or no good.
    case mark(good: Bool, take: Int?)
    /// Records the current shot again.
    case retake
    /// The self-view's size; nil toggles (the I key).
    case selfView(SelfViewSize?)
    /// Stop, then switch: the take ends, the camera changes (the other one, or by posture), and a new take
    /// starts after the countdown. Without a take, a plain swap.
    case restartSwap(CameraPosture?)
    /// The web remote's pairing address and QR code on the operator window; nil toggles (the L key).
    case remoteLink(on: Bool?)
    /// Camera `camera` (0 = A, 1 = B) now sees `viewer`'s face; the displays' mirroring follows.
    case faces(camera: Int, viewer: FacingViewer)
    /// A cue to the talent for `seconds` (nil: until cleared); a nil cue clears it.
    case cue(SubjectCue?, seconds: Double?)
    /// A note on the take's clock: a code of the book (nil: its first) and a text of up to 500 characters.
    case note(code: String?, text: String)
    /// An unnamed flag on the take's clock.
    case flag
    /// Writes the replay buffer (`--replay`) out as a file of its own (the Y key).
    case saveReplay

    public static let names = ["record", "stop", "toggle", "cancel", "accessory", "fullscreen", "speed", "pause", "reverse", "jump",
                               "mirror", "swap", "fold", "unfold", "script", "font", "follow", "shot", "mark", "retake",
                               "self-view", "quit", "faces", "remote-link", "note", "flag", "cue", "save-replay"]

    /// The command's `cmd` name, as the `command` event reports it.
    public var name: String {
        switch self {
        case .record: "record"
        case .stop: "stop"
        case .toggleRecord: "toggle"
        case .cancelCountdown: "cancel"
        case .quit: "quit"
        case .pause: "pause"
        case .reverse: "reverse"
        case .mirror: "mirror"
        case .swap: "swap"
        case .fold: "fold"
        case .unfold: "unfold"
        case .accessory: "accessory"
        case .fullscreen: "fullscreen"
        case .speedStep, .speedPreset, .speedFactor: "speed"
        case .jump: "jump"
        case .script: "script"
        case .fontStep: "font"
        case .extended(let command): command.name
        case .follow: "follow"
        case .shot: "shot"
        case .mark: "mark"
        case .retake: "retake"
        case .selfView: "self-view"
        case .restartSwap(let posture): posture?.rawValue ?? "swap"
        case .faces: "faces"
        case .remoteLink: "remote-link"
        case .note: "note"
        case .flag: "flag"
        case .saveReplay: "save-replay"
        case .cue: "cue"
        }
    }

    /// Parses one line. Every problem is a one-line usage error saying what a good line looks like.
    public static func parse(_ line: String) throws(DuoError) -> ControlCommand {
        guard let data = line.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .usage(.text("control: not a JSON object; send one per line, such as {\"cmd\":\"record\"}"))
        }
        guard let cmd = object["cmd"] as? String else {
            throw .usage(.text("control: missing \"cmd\"; send one of %s, such as {\"cmd\":\"record\"}", (names + CommandExtensions.names).joined(separator: ", ")))
        }
        func flag(_ key: String) throws(DuoError) -> Bool {
            guard let on = StrictJSON.bool(object[key]) else {
                throw .usage(.text("control: %s needs \"%s\": true or false, such as {\"cmd\":\"%s\",\"%s\":true}", cmd, key, cmd, key))
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
        case "reverse": return .reverse
        case "mirror": return .mirror
        case "swap", "fold", "unfold":
            let posture = CameraPosture(rawValue: cmd)
            if object["restart"] != nil, try flag("restart") { return .restartSwap(posture) }
            return posture == .fold ? .fold : posture == .unfold ? .unfold : .swap
        case "faces":
            guard let letter = object["camera"] as? String, let camera = ["A": 0, "B": 1][letter.uppercased()],
                  let viewer = (object["faces"] as? String).flatMap(FacingViewer.init(rawValue:)) else {
                throw .usage(.text("control: faces needs \"camera\": \"A\" or \"B\" and \"faces\": \"operator\" or \"subject\", such as {\"cmd\":\"faces\",\"camera\":\"B\",\"faces\":\"operator\"}"))
            }
            return .faces(camera: camera, viewer: viewer)
        case "accessory": return .accessory(on: try flag("on"))
        case "fullscreen":
            guard object["confirm"] != nil else { return .fullscreen(on: try flag("on")) }
            guard let confirm = StrictJSON.bool(object["confirm"]) else {
                throw .usage(.text("control: fullscreen \"confirm\" is true or false; {\"cmd\":\"fullscreen\",\"confirm\":true} leaves fullscreen in one go, even during a take"))
            }
            // Confirming is about leaving: without "on", a confirmed request leaves.
            let on = object["on"] == nil && confirm ? false : try flag("on")
            return .fullscreen(on: on, confirm: confirm)
        case "speed":
            if let step = StrictJSON.int(object["step"]), step == 1 || step == -1 { return .speedStep(step) }
            if let preset = StrictJSON.int(object["preset"]), (1...ScrollSpeed.wordPresets.count).contains(preset) { return .speedPreset(preset) }
            if let factor = StrictJSON.double(object["factor"]), (0.25...4).contains(factor) { return .speedFactor(factor) }
            throw .usage(.text("control: speed needs \"step\": 1 or -1, \"preset\": 1 to %s, or \"factor\": 0.25 to 4, such as {\"cmd\":\"speed\",\"step\":1}", ScrollSpeed.wordPresets.count))
        case "font":
            guard let step = StrictJSON.int(object["step"]), step == 1 || step == -1 else {
                throw .usage(.text("control: font needs \"step\": 1 (larger) or -1 (smaller), such as {\"cmd\":\"font\",\"step\":1}"))
            }
            return .fontStep(step)
        case "script":
            guard let path = object["path"] as? String, !path.isEmpty, !path.contains("\0") else {
                throw .usage(.text("control: script needs \"path\": the script file, such as {\"cmd\":\"script\",\"path\":\"/home/me/talk.md\"}"))
            }
            return .script(path: path)
        case "follow":
            guard let mode = object["mode"] else { return .follow(voice: nil) }
            guard let name = mode as? String, name == "voice" || name == "time" else {
                throw .usage(.text("control: follow takes \"mode\": \"voice\" or \"time\" (none switches), such as {\"cmd\":\"follow\",\"mode\":\"voice\"}"))
            }
            return .follow(voice: name == "voice")
        case "shot":
            if let id = object["id"] {
                guard let id = id as? String, !id.isEmpty, id.count <= 32 else {
                    throw .usage(.text("control: shot \"id\" is a shot's id from the list, such as {\"cmd\":\"shot\",\"id\":\"03\"}"))
                }
                return .shot(next: nil, id: id)
            }
            guard let next = StrictJSON.bool(object["next"]) else {
                throw .usage(.text("control: shot needs \"next\": true (next shot) or false (previous), or \"id\", such as {\"cmd\":\"shot\",\"next\":true}"))
            }
            return .shot(next: next, id: nil)
        case "mark":
            guard let good = StrictJSON.bool(object["good"]) else {
                throw .usage(.text("control: mark needs \"good\": true or false, such as {\"cmd\":\"mark\",\"good\":true}"))
            }
            var take: Int?
            if object["take"] != nil {
                guard let n = StrictJSON.int(object["take"]), n >= 1 else {
                    throw .usage(.text("control: mark \"take\" is a take number from 1, such as {\"cmd\":\"mark\",\"good\":true,\"take\":2}"))
                }
                take = n
            }
            return .mark(good: good, take: take)
        case "retake": return .retake
        case "flag": return .flag
        case "save-replay": return .saveReplay
        case "note":
            guard let text = object["text"] as? String, !text.contains("\0") else {
                throw .usage(.text("control: note needs \"text\" (and a \"code\" such as BUG), such as {\"cmd\":\"note\",\"code\":\"BUG\",\"text\":\"menu hides the button\"}"))
            }
            guard text.count <= NoteCodeBook.longestText else {
                throw .usage(.text("control: note text has %s characters; keep a note to %s", text.count, NoteCodeBook.longestText))
            }
            if object["code"] != nil {
                guard let code = object["code"] as? String, !code.isEmpty, code.count <= 16 else {
                    throw .usage(.text("control: note \"code\" is a code of the book, such as {\"cmd\":\"note\",\"code\":\"Q\",\"text\":\"asked what save means\"}"))
                }
                return .note(code: code, text: text)
            }
            return .note(code: nil, text: text)
        case "cue": return try parseCue(object)
        case "remote-link": return .remoteLink(on: object["on"] == nil ? nil : try flag("on"))
        case "self-view":
            guard let size = object["size"] else { return .selfView(nil) }
            guard let text = size as? String, let value = SelfViewSize(rawValue: text) else {
                throw .usage(.text("control: self-view takes \"size\": \"small\", \"large\" or \"off\" (none toggles), such as {\"cmd\":\"self-view\",\"size\":\"large\"}"))
            }
            return .selfView(value)
        case "jump":
            guard let to = (object["to"] as? String).flatMap(Jump.init(rawValue:)) else {
                throw .usage(.text("control: jump needs \"to\": \"next\", \"previous\" or \"start\""))
            }
            return .jump(to)
        default:
            if let parse = CommandExtensions.parser(for: cmd) { return .extended(try parse(object)) }
            throw .usage(.text("control: unknown command \"%s\"; use one of %s", cmd, (names + CommandExtensions.names).joined(separator: ", ")))
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
