// Fuzz run of the parsers that read what users and clients type: control lines, timelines and scripts.
// A seeded random generator (SplitMix64) mutates valid inputs for a bounded time; each input must parse
// or be refused with a one-line DuoError, and a script must never show the subject a word written inside
// note-like markup ([[ … ]], [note …], an unclosed [[). Benchmarks/fuzz.sh builds and runs it.
//
// usage: duo-fuzz [SECONDS] [SEED]
import DuoCore
import Foundation

/// Thread: main thread only.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
}

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 10
let seed = UInt64(CommandLine.arguments.dropFirst(2).first ?? "") ?? 1
nonisolated(unsafe) var rng = SplitMix64(state: seed)  // one thread: the fuzz loop

let jsonPieces = [#"{"#, #"}"#, #"""#, #":"#, #","#, "cmd", "record", "stop", "speed", "step", "preset", "on", "at", "to",
                  "jump", "next", "true", "false", "null", "1", "-1", "1.5", "1e309", "0x10", "[", "]", "\\u0000",
                  "\\", " ", "accessory", "fullscreen", "toggle", "cancel", "quit", "é", "🎬", "\n"]
let validLines = [#"{"cmd":"record"}"#, #"{"cmd":"speed","step":1}"#, #"{"cmd":"speed","preset":3}"#,
                  #"{"cmd":"accessory","on":true}"#, #"{"cmd":"jump","to":"next"}"#, #"{"cmd":"fullscreen","on":false}"#]

func mutate(_ text: String) -> String {
    var chars = Array(text)
    for _ in 0..<(1 + rng.int(4)) {
        switch rng.int(4) {
        case 0 where !chars.isEmpty: chars.remove(at: rng.int(chars.count))
        case 1: chars.insert(contentsOf: Array(rng.pick(jsonPieces)), at: rng.int(chars.count + 1))
        case 2 where !chars.isEmpty: chars[rng.int(chars.count)] = rng.pick(Array("{}[]\":,0123456789-.etruf \\nxé"))
        default: chars.append(contentsOf: Array(rng.pick(jsonPieces)))
        }
    }
    return String(chars)
}

func oneLine(_ error: DuoError, _ input: String) {
    guard !error.message.contains("\n"), !error.message.isEmpty else {
        FileHandle.standardError.write(Data("FAIL: not a one-line error for \(input.debugDescription): \(error.message)\n".utf8))
        exit(1)
    }
}

// Script pieces: words the subject may see, and constructs whose content it must never see.
let shown = ["Hello", "world,", "this", "is", "the", "script.", "# Heading", "*bold*", "[PAUSE]", "[sic]", "大家好", "مرحبا", "\n", "\n\n", "  "]
func secretConstruct(_ secret: String) -> String {
    let body = rng.pick(["", " ", "note", "Note:", " NOTE ", "nto:", "note:", ":"]) + " " + secret + rng.pick(["", " ", "\n", " more "])
    switch rng.int(7) {
    case 0: return "[[" + body + "]]"
    case 1: return "[[ " + body + " ]]"
    case 2: return "[[note: outer " + "[[" + body + "]]" + " " + secret + "]]"
    case 3: return "[note: " + body + "]"
    case 4: return "[ Note " + body + "]]"
    case 5: return "[[" + body + "]" + rng.pick(["", "]", " ]"]) + (rng.chance(50) ? "" : "]]")
    default: return "[[" + body   // never closed: hides the rest
    }
}

let deadline = Date().addingTimeInterval(seconds)
var counts = (control: 0, controlOK: 0, timeline: 0, timelineOK: 0, scripts: 0, withheld: 0, problems: 0)
/// OSC datagrams (the remote control's `--osc`): mutated bytes of good messages, parsed and mapped.
var osc = (packets: 0, ok: 0)
let oscSeeds = [OSCMessage("/duo/record"), OSCMessage("/duo/speed", [.float(1.5)]), OSCMessage("/duo/follow", [.string("voice")]),
                OSCMessage("/duo/speed/preset", [.int(3)]), OSCMessage("/x", [.blob([1, 2, 3, 4, 5]), .double(2), .int64(-1)])].map { $0.encoded() }
while Date() < deadline {
    for _ in 0..<200 {
        // Control lines.
        let line = rng.chance(20) ? String((0..<rng.int(40)).map { _ in Character(UnicodeScalar(UInt8(rng.int(128)))) })
                                  : mutate(rng.pick(validLines))
        counts.control += 1
        do { _ = try ControlCommand.parse(line); counts.controlOK += 1 } catch { oneLine(error, line) }

        // OSC: a good datagram with bytes changed, dropped, added or cut; one line or a command, never a crash.
        var packet = rng.pick(oscSeeds)
        for _ in 0..<(1 + rng.int(4)) {
            switch rng.int(4) {
            case 0 where !packet.isEmpty: packet[rng.int(packet.count)] = UInt8(rng.int(256))
            case 1 where !packet.isEmpty: packet.remove(at: rng.int(packet.count))
            case 2: packet.insert(UInt8(rng.int(256)), at: rng.int(packet.count + 1))
            default: packet = Array(packet.prefix(rng.int(packet.count + 1)))
            }
        }
        osc.packets += 1
        do {
            for message in try OSCMessage.parse(packet) {
                do { _ = try WebRemoteCommands.osc(message); osc.ok += 1 } catch { oneLine(error, "\(packet)") }
            }
        } catch { oneLine(error, "\(packet)") }

        // Timelines: a few mutated lines.
        let timeline = (0..<(1 + rng.int(4))).map { i in mutate(#"{"at": \#(Double(i) * 0.5), "cmd": "record"}"#) }.joined(separator: "\n")
        counts.timeline += 1
        do { _ = try Timeline.parse(timeline, name: "fuzz"); counts.timelineOK += 1 } catch { oneLine(error, timeline) }

        // Scripts: the privacy invariant.
        var script = ""
        var secrets: [String] = []
        for _ in 0..<(3 + rng.int(20)) {
            if rng.chance(15) {
                let secret = "SECRET\(rng.int(1_000_000))X"
                secrets.append(secret)
                script += secretConstruct(secret)
            } else {
                script += rng.pick(shown) + (rng.chance(70) ? " " : "")
            }
        }
        let parsed = ScriptParser.parse(text: script, format: rng.chance(50) ? .markdown : .plainText)
        counts.scripts += 1
        counts.problems += parsed.problems.count
        let subjectText = parsed.subject.blocks.map { block -> String in
            switch block {
            case .paragraph(let runs), .heading(_, let runs): runs.map(\.text).joined()
            case .pause: ""
            }
        }.joined(separator: "\n")
        for secret in secrets {
            counts.withheld += 1
            if subjectText.contains(secret) || subjectText.contains("SECRET") {
                FileHandle.standardError.write(Data("FAIL: the subject sees \(secret) from script \(script.debugDescription)\n".utf8))
                exit(1)
            }
        }
    }
}
print("fuzz: \(Int(seconds)) s, seed \(seed): \(counts.control) control lines (\(counts.controlOK) valid), \(counts.timeline) timelines (\(counts.timelineOK) valid), \(counts.scripts) scripts with \(counts.withheld) secrets in note-like markup (\(counts.problems) problems reported), \(osc.packets) OSC packets (\(osc.ok) commands); every refusal one line, no secret reached the subject")
