import DuoCore
import DuoPlatform
import DuoWebRemote
import Foundation

/// The obs-websocket 5 server of a run (`--obs-websocket`): Stream Deck's OBS plugin, Companion's OBS
/// module and obs-websocket scripts drive duo-capture as they drive OBS. Requests become the control
/// socket's own commands through the web remote's path (`WebRemoteCommands`' policy, the director's
/// remote queue); replies and events come from the run's own events, as the phone page's do (file names
/// only unless it listens on this machine only; nothing private).
///
/// Thread: made on the main task; the server's handlers run on the network loop's thread, the event tap
/// on whichever thread emits; shared state is behind one mutex (`Locked`).
final class ObsRemote: Sendable {
    private let server: ObsWebSocketServer
    private let password: String?
    private let context: ObsContext
    private let director: RunDirector
    private let events: EventLog
    private let clock: any RunClock
    /// A StopRecord waiting for its take to end (it answers with the finished file's path).
    private struct Stop: Sendable {
        let serial: Int
        let connection: Int
        let request: ObsRequest
    }
    private struct State: Sendable {
        var sessions: [Int: ObsWebSocketSession] = [:]
        var addresses: [Int: String] = [:]
        var view: ObsRunView
        var stops: [Stop] = []
        var serial = 0
        var admission = Admission(.obsWebSocket)
        /// Wrong passwords: said a few times a minute per address, answered ever later after that.
        var refusals = HandshakeRefusals()
        /// Other refusals: one line per kind and address every 10 s.
        var throttle = Throttle(window: 10_000_000_000, capacity: 256)
        /// When (the clock's nanoseconds) the take recording now started, for chapters.
        var takeStartedAt: Int64?
    }
    private let state: Locked<State>
    private let stopped = Locked(false)
    /// How long a StopRecord waits for the take to end before it is answered with a failure.
    static let stopPatience = 30.0

    static func open(_ options: WebRemoteOptions, director: RunDirector, events: EventLog, clock: any RunClock, cameras: Int,
                     recordDirectory: String) throws(DuoError) -> ObsRemote? {
        guard let listen = options.obsWebSocket else {
            if options.obsPasswordFile != nil { throw .usage(.text("--obs-websocket-password-file is for --obs-websocket; give --obs-websocket PORT too")) }
            return nil
        }
        let local = listen.host.map(AddressRange.isLoopback) ?? true
        var password: String?
        if let file = options.obsPasswordFile {
            password = try PrivateFile.firstLine(file, option: "--obs-websocket-password-file", allowReadable: options.allowReadableTokenFile)
        } else if local {
            password = RandomToken.hex(bytes: 8)
        } else {
            throw .usage(.text("--obs-websocket %s:%s can be reached from other machines: give --obs-websocket-password-file FILE (a password only you can read)", listen.host ?? "", listen.port))
        }
        let remote = try ObsRemote(listen, password: password, local: local, director: director, events: events, clock: clock,
                                   cameras: cameras, recordDirectory: recordDirectory)
        events.addTap { [remote] event in remote.observe(event) }
        let listening = remote.server.listening.joined(separator: ", ")
        let start = local ? tr("duo-capture: obs-websocket listening on %s (this machine only; give --obs-websocket 0.0.0.0:%s for the LAN)", listening, remote.server.port)
            : tr("duo-capture: obs-websocket listening on %s", listening)
        Self.say(options.obsPasswordFile == nil
                 ? tr("%s; password %s (give --obs-websocket-password-file FILE to choose it)", start, password ?? "") : start)
        return remote
    }

    private init(_ listen: WebRemoteOptions.Listen, password: String?, local: Bool, director: RunDirector, events: EventLog,
                 clock: any RunClock, cameras: Int, recordDirectory: String) throws(DuoError) {
        self.password = password
        self.director = director
        self.events = events
        self.clock = clock
        context = ObsContext(version: DuoCaptureMain.version, recordDirectory: recordDirectory, revealFolders: local)
        let state = Locked(State(view: ObsRunView(cameras: cameras)))
        self.state = state
        let me = Locked<ObsRemote?>(nil)
        server = try ObsWebSocketServer(host: listen.host, port: listen.port, handlers: .init(
            opened: { id, address in me.value?.opened(id, address) },
            message: { id, text, address in me.value?.received(id, text, address) },
            closed: { id in me.value?.closed(id) },
            problem: { what, address in me.value?.refuse(tr("obs-websocket: %s: %s", address, what), key: "\(what) \(address)") }))
        me.set(self)
        let stopped = self.stopped
        NetworkLoop.shared.every(1) {
            me.value?.sayRefusals()
            return !stopped.value
        }
    }

    func close() {
        stopped.set(true)
        server.close()
        sayRefusals(flush: true)
    }

    /// The wrong passwords held back, summed up per address once their minute is over (checked each second).
    private func sayRefusals(flush: Bool = false) {
        let now = Double(clock.now()) / 1e9
        for (from, count) in state.update({ $0.refusals.due(at: now, flush: flush) }) {
            Self.say(tr("duo-capture: obs-websocket: %s", HandshakeRefusals.summary(address: from, count: count)))
        }
    }

    private static func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    private func refuse(_ line: String, key: String) {
        let now = clock.now()
        let line = TerminalText.escaped(line, limit: 300)
        if let said = state.update({ $0.throttle.line(key, line, at: now) }) { Self.say(tr("duo-capture: %s", said)) }
    }

    // MARK: Connections

    private func opened(_ id: Int, _ address: String) -> [String]? {
        let challenge = RandomToken.hex(bytes: 16), salt = RandomToken.hex(bytes: 16)
        let session = ObsWebSocketSession(password: password, challenge: challenge, salt: salt, hash: ObsDigest.sha256Base64)
        let admitted = state.update { s -> Bool in
            guard s.admission.connect(address) else { return false }
            s.sessions[id] = session
            s.addresses[id] = address
            return true
        }
        guard admitted else {
            refuse(tr("obs-websocket: %s: more connections than it takes at once; refused", address), key: "many \(address)")
            return nil
        }
        return [session.hello(version: "5.5.0")]
    }

    private func closed(_ id: Int) {
        state.update { s in
            s.sessions[id] = nil
            if let address = s.addresses.removeValue(forKey: id) { s.admission.leave(address) }
            s.stops.removeAll { $0.connection == id }
        }
    }

    private func received(_ id: Int, _ text: String, _ address: String) {
        let now = clock.now()
        let step = state.update { s -> ObsWebSocketSession.Step? in
            switch s.admission.message(from: address, size: text.utf8.count, at: now) {
            case .accept: return s.sessions[id]?.receive(text)
            default: return nil
            }
        }
        guard let step else {
            return refuse(tr("obs-websocket: %s sends more than %s messages a second; the excess is dropped", address, Int(ListenLimits.obsWebSocket.rate ?? 0)),
                          key: "flood \(address)")
        }
        switch step {
        case .send(let lines): lines.forEach { server.send($0, to: id) }
        case .close(.authenticationFailed, let why):
            let (say, delay) = state.update { $0.refusals.refuse(address, at: Double(now) / 1e9) }
            if say { Self.say(tr("duo-capture: obs-websocket: refused %s: %s", address, why)) }
            let server = self.server
            // Guessing gets slow: after a few refusals the answer comes ever later.
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                server.close(id, code: ObsCloseCode.authenticationFailed.rawValue, reason: "Authentication failed.")
            }
        case .close(let code, let why):
            refuse(tr("obs-websocket: %s: %s; closed (%s)", address, why, code.rawValue), key: "\(code) \(address)")
            server.close(id, code: code.rawValue, reason: why)
        case .request(let request):
            if let line = answer(request, on: id, address: address, batched: false) { server.send(line, to: id) }
        case .batch(let batchID, let requests, let halt, let serial):
            var results: [[String: Any]] = []
            for request in requests {
                guard serial else {
                    results.append(ObsWebSocketSession.result(request, .unsupportedRequestBatchExecutionType, comment: "requests run one after another only"))
                    continue
                }
                let (status, comment, data) = outcome(request, on: id, address: address, batched: true) ?? (.success, nil, nil)
                results.append(ObsWebSocketSession.result(request, status, comment: comment, data: data))
                if halt, status != .success { break }
            }
            server.send(ObsWebSocketSession.batchResponse(id: batchID, results: results), to: id)
        }
    }

    /// The response line to one request (nil: it comes later, when the take has ended).
    private func answer(_ request: ObsRequest, on id: Int, address: String, batched: Bool) -> String? {
        guard let (status, comment, data) = outcome(request, on: id, address: address, batched: batched) else { return nil }
        return ObsWebSocketSession.response(request, status, comment: comment, data: data)
    }

    /// Carries out one request: its commands to the run, a chapter to the events, a StopRecord kept (nil:
    /// answered when the take has ended).
    private func outcome(_ request: ObsRequest, on id: Int, address: String, batched: Bool) -> (ObsStatus, String?, [String: Any]?)? {
        let view = state.value.view
        let system = request.type == "GetStats"
            ? ObsSystemFigures(cpuUsage: (ProcessFigures.cpuPercentSinceStart * 10).rounded() / 10,
                               memoryUsage: (ProcessFigures.residentMB * 10).rounded() / 10,
                               availableDiskSpace: ProcessFigures.freeMB(at: context.recordDirectory).rounded())
            : ObsSystemFigures()
        let answer = ObsRequests.answer(request, view: view, context: context, system: system)
        guard answer.status == .success else { return (answer.status, answer.comment, answer.data) }
        if !answer.commands.isEmpty {
            for command in answer.commands {
                do throws(DuoError) { try WebRemoteCommands.check(command) } catch { return (.cannotAct, error.english, nil) }
            }
            var serial = 0
            if answer.awaitsStop, !batched {
                serial = state.update { s -> Int in
                    s.serial += 1
                    s.stops.append(Stop(serial: s.serial, connection: id, request: request))
                    return s.serial
                }
            }
            guard director.sendRemote(answer.commands, source: .obsWebSocket) else {
                state.update { s in s.stops.removeAll { $0.serial == serial && serial > 0 } }
                refuse(tr("obs-websocket: the run is busy; %1$s's %2$s is dropped (local keys and the control socket go first)", address, request.type),
                       key: "busy \(address)")
                return (.requestProcessingFailed, "the run is busy; send the request again", nil)
            }
            if serial > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.stopPatience) { [self, serial] in
                    finishStops(path: nil, only: serial)
                }
                return nil
            }
            if answer.awaitsStop {
                return (.success, nil, ["outputPath": view.file.map { context.revealFolders ? $0 : ObsRequestsNames.name($0) } ?? NSNull()])
            }
        }
        if let title = answer.chapter {
            let now = clock.now()
            let started = state.value.takeStartedAt ?? now
            events.emit(.chapter(take: view.run.take, title: title, at: Double(now - started) / 1e9, by: "obs-websocket"))
        }
        return (.success, answer.comment, answer.data)
    }

    /// Answers the StopRecords waiting (or only the one `only`, when its patience ran out).
    private func finishStops(path: String?, only: Int? = nil) {
        let stops = state.update { s -> [Stop] in
            let due = s.stops.filter { only == nil || $0.serial == only }
            s.stops.removeAll { only == nil || $0.serial == only }
            return due
        }
        for stop in stops {
            let line = path.map { p in
                ObsWebSocketSession.response(stop.request, .success, data: ["outputPath": context.revealFolders ? p : ObsRequestsNames.name(p)])
            } ?? ObsWebSocketSession.response(stop.request, .requestProcessingFailed, comment: "the take did not end within \(Int(Self.stopPatience)) s")
            server.send(line, to: stop.connection)
        }
    }

    // MARK: Events

    private func observe(_ timed: RunEvent.Timed) {
        let now = clock.now()
        let (lines, sessions) = state.update { s -> ([(category: Int, line: String)], [Int: ObsWebSocketSession]) in
            let lines = ObsRequests.events(timed, before: s.view, context: context)
            s.view.observe(timed)
            if case .takeStarted = timed.event { s.takeStartedAt = now }
            if case .takeEnded = timed.event { s.takeStartedAt = nil }
            return (lines, s.sessions)
        }
        for (id, session) in sessions.sorted(by: { $0.key < $1.key }) {
            for line in lines where session.wants(line.category) { server.send(line.line, to: id) }
        }
        if case .takeEnded(_, let file, _, _, _, _, _) = timed.event { finishStops(path: file) }
    }
}

/// File names without their folders, as the page gets them.
enum ObsRequestsNames {
    static func name(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
