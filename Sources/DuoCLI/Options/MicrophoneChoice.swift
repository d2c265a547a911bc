import DuoCore
import DuoMedia
import DuoPlatform
import Foundation

/// `--audio NAME|id:NODE` and the remembered microphone: a PipeWire source by its name or its stable
/// identity (`node.name`), checked at start-up so a name that is not there is one line naming what is.
///
/// Thread: main task at start-up; synchronous.
enum MicrophoneChoice {
    /// Whether `--audio VALUE` names a microphone rather than giving a GStreamer source description: `id:…`,
    /// or words that start with no element GStreamer has (`Built-in Audio Analog Stereo`).
    static func namesMicrophone(_ value: String, hasElement: (String) -> Bool = GStreamer.hasElement) -> Bool {
        if value.hasPrefix("id:") { return true }
        if value.contains("!") { return false }
        let first = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? value
        return !hasElement(first)
    }

    /// The microphone `value` names (`id:NODE` or its name as `duo-capture microphones` shows it).
    static func resolve(_ value: String, list: () -> [DiscoveredMicrophone] = MicrophoneDiscovery.list,
                        daemonProblem: () -> String? = { PipeWireDaemon.problem() }) throws(DuoError) -> AudioSource {
        if let why = daemonProblem() {
            // A usage error: the name may as well be a mistyped element (--audio pulsesrcc).
            throw .usage(tr("--audio \"%s\": no microphone by that name, as no PipeWire daemon is running (%s); start pipewire and wireplumber, or use --audio auto, test, none or a GStreamer source", TerminalText.escaped(value), why))
        }
        let microphones = list().filter(\.isPipeWire)
        let wanted = value.hasPrefix("id:") ? String(value.dropFirst(3)) : value
        let found = value.hasPrefix("id:")
            ? microphones.first { $0.identity == wanted }
            : microphones.first { $0.name == wanted } ?? microphones.first { $0.name.lowercased() == wanted.lowercased() }
                ?? microphones.first { $0.identity == wanted }
        guard let microphone = found else {
            let known = microphones.map { "\"\($0.name)\" (id:\($0.identity))" }.joined(separator: ", ")
            throw .usage(known.isEmpty
                ? tr("--audio \"%s\": no such microphone; PipeWire lists none (duo-capture microphones lists them)", TerminalText.escaped(value))
                : tr("--audio \"%s\": no such microphone; there are: %s (duo-capture microphones lists them)", TerminalText.escaped(value), known))
        }
        return .microphone(node: microphone.identity, label: microphone.name)
    }

    /// `--audio auto`: the microphone last used, when PipeWire lists it now (nil otherwise: the default
    /// input is taken as before).
    static func remembered(_ identity: String?, list: () -> [DiscoveredMicrophone] = MicrophoneDiscovery.list,
                           daemonProblem: () -> String? = { PipeWireDaemon.problem() }) -> AudioSource? {
        guard let identity, daemonProblem() == nil,
              let microphone = list().first(where: { $0.isPipeWire && $0.identity == identity }) else { return nil }
        return .microphone(node: microphone.identity, label: microphone.name)
    }
}

/// `duo-capture microphones`: each sound source PipeWire offers, one a line: its name, its identity (what
/// `--audio id:` takes and what is remembered) and how loud it is now (its peak over half a second); the
/// one `--audio auto` takes is marked. No PipeWire daemon: one line saying so.
///
/// Thread: main task; synchronous (about a second).
enum MicrophonesCommand {
    static func run(daemonProblem: () -> String? = { PipeWireDaemon.problem() }) throws(DuoError) -> String {
        if let why = daemonProblem() {
            throw .dependency(tr("no PipeWire daemon is running (%s); start pipewire and wireplumber to list microphones (runs still record with --audio auto, test or none)", why))
        }
        let microphones = MicrophoneDiscovery.list()
        if microphones.isEmpty { return tr("no microphones found; use --audio test for a test tone, or --audio none") }
        let peaks = MicrophoneDiscovery.peaks(of: microphones)
        let last = CameraMemory.microphone().last()
        return microphones.map { m in
            let level = peaks[m.identity].map { $0.isFinite && $0 > -120 ? tr("peak %s dB", String(format: "%.0f", $0)) : tr("silent") }
                ?? (m.isPipeWire ? tr("no sound in 0.6 s") : tr("not PipeWire"))
            let mark = m.identity == last ? tr("\t(auto, last used)") : ""
            return "\(m.name)\tid:\(TerminalText.escaped(m.identity))\t\(level)\(mark)"
        }.joined(separator: "\n")
    }
}
