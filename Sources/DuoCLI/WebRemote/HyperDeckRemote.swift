import DuoCore
import DuoPlatform
import Foundation

/// The HyperDeck Ethernet protocol server of a run (`--hyperdeck`): an ATEM switcher, Companion's
/// HyperDeck module or vMix starts and stops takes as it does a HyperDeck's. Commands go through the web
/// remote's path (`WebRemoteCommands`' policy, the director's remote queue); what it is told comes from
/// the run's own events (file names only).
///
/// Thread: made on the main task; the listener's handlers run on the network loop's thread, the event tap
/// on whichever thread emits; shared state is behind one mutex (`Locked`).
final class HyperDeckRemote: Sendable {
    private let listeners: [StreamListener]
    private struct State: Sendable {
        var sessions: [StreamClient: HyperDeckSession] = [:]
        var view: HyperDeckRunView
        var throttle = Throttle(window: 10_000_000_000, capacity: 256)
    }
    private let state: Locked<State>
    private let director: RunDirector
    private let clock: any RunClock
    private let recordDirectory: String
    private let bitrateKbps: Int

    static func open(_ options: WebRemoteOptions, director: RunDirector, events: EventLog, clock: any RunClock, plan: GraphPlan,
                     recordDirectory: String) throws(DuoError) -> HyperDeckRemote? {
        guard let listen = options.hyperDeck else { return nil }
        let remote = try HyperDeckRemote(listen, director: director, clock: clock, plan: plan, recordDirectory: recordDirectory)
        events.addTap { [remote] event in remote.observe(event.event) }
        let open = listen.host.map { !AddressRange.isLoopback($0) } ?? false
        let port = remote.listeners.first?.port ?? listen.port
        let line = switch (listen.host, open) {
        case (let host?, false): tr("duo-capture: HyperDeck listening on tcp://%s", "\(host.contains(":") ? "[\(host)]" : host):\(port)")
        case (let host?, true):
            tr("duo-capture: HyperDeck listening on tcp://%s; HyperDeck has no password: anyone who can reach this port starts and stops takes",
               "\(host.contains(":") ? "[\(host)]" : host):\(port)")
        case (nil, _): tr("duo-capture: HyperDeck listening on tcp://127.0.0.1:%1$s and [::1]:%1$s (this machine only; give --hyperdeck 0.0.0.0 for the LAN)", port)
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
        return remote
    }

    private init(_ listen: WebRemoteOptions.Listen, director: RunDirector, clock: any RunClock, plan: GraphPlan,
                 recordDirectory: String) throws(DuoError) {
        self.director = director
        self.clock = clock
        self.recordDirectory = recordDirectory
        bitrateKbps = plan.bitrateKbps
        let rate = plan.format.frameRate
        var view = HyperDeckRunView(width: plan.format.width, height: plan.format.height, fps: Double(rate.numerator) / Double(max(1, rate.denominator)))
        view.recordingTime = Self.recordingTime(recordDirectory, bitrateKbps: plan.bitrateKbps)
        let state = Locked(State(view: view))
        self.state = state
        let me = Locked<HyperDeckRemote?>(nil)
        let handlers = StreamListener.Handlers(
            opened: { client in me.value?.opened(client) },
            line: { client, line in me.value?.line(client, line) },
            tooLong: { client in me.value?.tooLong(client) })
        func listener(_ host: String?, _ port: Int) throws(DuoError) -> StreamListener {
            try StreamListener.tcp(host: host, port: port, limits: .hyperDeck, emptyLines: true, handlers: handlers) { reason in
                .usage(.text("--hyperdeck %s%s: cannot listen (%s); give another port", host.map { "\($0):" } ?? "", port, reason))
            }
        }
        if let host = listen.host {
            listeners = [try listener(host, listen.port)]
        } else {
            // This machine only, both families; IPv6's loopback only where the machine has it.
            let first = try listener("127.0.0.1", listen.port)
            listeners = [first] + [try? listener("::1", first.port)].compactMap { $0 }
        }
        me.set(self)
    }

    func close() { listeners.forEach { $0.stop() } }

    /// Seconds of recording the record folder's free space holds at the take's bitrate.
    private static func recordingTime(_ directory: String, bitrateKbps: Int) -> Int {
        var folder = directory
        while !FileManager.default.fileExists(atPath: folder), folder != "/" { folder = (folder as NSString).deletingLastPathComponent }
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: folder))?[.systemFreeSize] as? NSNumber else { return 0 }
        // The video's bitrate and some room for sound and the container.
        let bytesPerSecond = Double(max(1, bitrateKbps) + 256) * 1000 / 8
        return Int(free.doubleValue / bytesPerSecond)
    }

    private func say(_ line: String, key: String) {
        let now = clock.now()
        let line = TerminalText.escaped(line, limit: 300)
        if let said = state.update({ $0.throttle.line(key, line, at: now) }) {
            FileHandle.standardError.write(Data((tr("duo-capture: %s", said) + "\n").utf8))
        }
    }

    /// Sends one answer: its lines end with CRLF (the listener adds the last LF).
    private static func send(_ text: String, to client: StreamClient) { client.send(text + "\r") }

    private func opened(_ client: StreamClient) {
        state.update { s in
            s.sessions = s.sessions.filter { $0.key.isOpen }
            s.sessions[client] = HyperDeckSession()
        }
        Self.send(HyperDeckSession.banner(version: DuoCaptureMain.version), to: client)
    }

    private func tooLong(_ client: StreamClient) {
        say(tr("hyperdeck: %s: a line longer than %s bytes; answered 100 syntax error", client.address, ListenLimits.hyperDeck.longest), key: "long \(client.address)")
        Self.send("100 syntax error", to: client)
    }

    private func line(_ client: StreamClient, _ line: String) {
        let step = state.update { s -> HyperDeckSession.Step in
            var session = s.sessions[client] ?? HyperDeckSession()
            let step = session.receive(line, view: s.view, version: DuoCaptureMain.version)
            s.sessions[client] = session
            return step
        }
        var reply = step.reply
        if !step.commands.isEmpty {
            for command in step.commands {
                do throws(DuoError) { try WebRemoteCommands.check(command) } catch { reply = "111 remote control disabled" }
            }
            if reply == "200 ok", !director.sendRemote(step.commands, source: .hyperDeck) {
                say(tr("hyperdeck: the run is busy; %s's command is dropped (local keys and the control socket go first)", client.address), key: "busy \(client.address)")
                reply = "108 internal error"
            }
        }
        if let reply { Self.send(reply, to: client) }
        if step.close {
            client.close()
            state.update { $0.sessions[client] = nil }
        }
    }

    private func observe(_ event: RunEvent) {
        var freshSpace: Int?
        if case .takeEnded = event { freshSpace = Self.recordingTime(recordDirectory, bitrateKbps: bitrateKbps) }
        let (before, after, sessions) = state.update { s -> (HyperDeckRunView, HyperDeckRunView, [StreamClient: HyperDeckSession]) in
            let before = s.view
            s.view.observe(event)
            if let freshSpace { s.view.recordingTime = freshSpace }
            return (before, s.view, s.sessions)
        }
        guard before != after else { return }
        for (client, session) in sessions {
            if session.notifyTransport, before.transportStatus != after.transportStatus || before.clips.count != after.clips.count {
                Self.send(HyperDeckSession.transport(after, code: 508), to: client)
            }
            if session.notifySlot, before.recordingTime != after.recordingTime {
                Self.send(HyperDeckSession.slot(after, code: 502), to: client)
            }
        }
    }
}
