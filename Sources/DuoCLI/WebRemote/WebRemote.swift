import DuoCore
import DuoPlatform
import DuoWebRemote
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The remote control of a run (`--remote-control`, `--osc`): a phone's page and a broadcast controller's
/// OSC messages become the control socket's own `ControlCommand`s (sent to the director like a control
/// client's), and what they show comes from the run's own events (the `EventLog` tap: each `RunEvent`
/// with its time, folded into `WebRemoteRunState` for OSC feedback and encoded for the pages), plus the
/// subject's words at the reading position: never an operator note, never a picture.
///
/// The pairing token is printed once to the terminal (stderr) at start; it never goes to the events file,
/// the control socket or the debug log.
///
/// Thread: made on the main task; the page's and OSC's handlers run on the network loop's thread, the event
/// tap on whichever thread emits; shared state is behind mutexes (`Locked`).
final class WebRemote: Sendable {
    private let web: WebRemoteServer?
    private let osc: OSCSocket?
    private let token: WebRemoteToken
    /// The pairing address the operator window shows (the L key): the first one printed, a LAN one when
    /// there is one. Holds the token: given only to the face, never logged.
    let linkAddress: String?
    /// The run's state as the events told it, the last status line and the reading words sent.
    private struct Seen: Sendable {
        var state = WebRemoteRunState()
        var lastStatus: String?
        var lastTake: String?
        /// The current shot, and the last take's shot and mark (issue 37: a page opened mid-session knows them).
        var lastShot: String?
        var lastShotTake: String?
        var lastMark: String?
        var words: String?
        var oscPeer: OSCSocket.Peer?
    }
    private let seen = Locked(Seen())
    /// One line per kind of refusal and address every 10 s (with how many were held back).
    private let refusals = Locked(Throttle(window: 10_000_000_000, capacity: 256))
    /// What each address may send (`ListenLimits.webRemote`, `.osc`: 100 a second, 50 at once).
    private let webAdmission = Locked(Admission(.webRemote))
    private let oscAdmission = Locked(Admission(.osc))
    /// `--osc-allow`: the only senders OSC takes (empty: any).
    private let oscAllow: [AddressRange]
    private let director: RunDirector
    private let presenter: SubjectPresenter
    private let clock: any RunClock
    /// A reading-words update is on its way (at most one at a time).
    private let wordsPending = Locked(false)
    /// The page's note-code buttons (issue 39): the run's code book, told to each page as it connects.
    private let noteCodes: [String]

    static func open(_ options: WebRemoteOptions, director: RunDirector, events: EventLog, presenter: SubjectPresenter,
                     clock: any RunClock, noteCodes: NoteCodeBook = .standard) throws(DuoError) -> WebRemote? {
        guard options.web != nil || options.osc != nil else {
            if options.tokenFile != nil { throw .usage(.text("--remote-token-file is for --remote-control; give --remote-control PORT too")) }
            return nil
        }
        let token: WebRemoteToken
        if let file = options.tokenFile {
            // Refused as the passphrase file is when others can read it (the token is the remote's only key).
            if !options.allowReadableTokenFile, let mode = (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int,
               mode & 0o077 != 0 {
                throw .usage(.text("--remote-token-file %s can be read by others (mode %s); run chmod 600 %s (or give --allow-readable-passphrase)", file, String(mode & 0o777, radix: 8), file))
            }
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .usage(.text("--remote-token-file %s cannot be read; give a readable file holding the token on its first line", file))
            }
            token = try WebRemoteToken.parse(fileText: text, path: file)
        } else {
            token = .random()
        }
        let remote = try WebRemote(options, token: token, director: director, presenter: presenter, clock: clock, noteCodes: noteCodes.codes)
        events.addTap { [remote] event in remote.observe(event) }
        return remote
    }

    private init(_ options: WebRemoteOptions, token: WebRemoteToken, director: RunDirector, presenter: SubjectPresenter,
                 clock: any RunClock, noteCodes: [String]) throws(DuoError) {
        self.token = token
        self.noteCodes = noteCodes
        self.director = director
        self.presenter = presenter
        self.clock = clock
        oscAllow = options.oscAllow
        if !options.oscAllow.isEmpty, options.osc == nil { throw .usage(.text("--osc-allow is for --osc; give --osc [ADDRESS:]PORT too")) }
        let template = try Self.page()
        // The page and the browser's refusals in the phone's language (issue 41), when a catalogue of it is installed.
        let languages = WebRemoteLanguages(directory: Gettext.localeDirectory())
        // The handlers reach this object only once it is whole: through a box set after init.
        let me = Locked<WebRemote?>(nil)
        if let listen = options.web {
            web = try WebRemoteServer(host: listen.host, port: listen.port, page: { Array(WebRemotePage.html(template, language: $0).utf8) },
                                      language: { languages.translator(acceptLanguage: $0) }, handlers: .init(
                authorize: { given, address in me.value?.authorize(given, address) ?? false },
                message: { text, address in me.value?.webMessage(text, from: address) },
                opened: { me.value?.snapshot() ?? [] },
                problem: { what, address in me.value?.refuse(tr("remote: %s: %s", address, what), key: "\(what) \(address)") }))
        } else {
            web = nil
        }
        if let listen = options.osc {
            do {
                osc = try OSCSocket(host: listen.host, port: listen.port) { bytes, peer in me.value?.oscPacket(bytes, from: peer) }
            } catch {
                web?.close()
                throw error
            }
        } else {
            osc = nil
        }
        let addresses = web.map { Self.pairingAddresses($0, host: options.web?.host, token: token) } ?? []
        linkAddress = addresses.first
        me.set(self)
        if let web {
            let listening = web.listening.joined(separator: ", ")
            Self.say(options.web?.host == nil
                     ? tr("duo-capture: remote control listening on %s (this machine only; give --remote-control 0.0.0.0:PORT for the LAN)", listening)
                     : tr("duo-capture: remote control listening on %s", listening))
            // Printed once, here: the token is in no other output.
            Self.say(tr("duo-capture: remote control: open %s on the phone (keep this address private)", addresses.joined(separator: tr(" or "))))
        }
        if let osc {
            let listening = osc.addresses.map { "udp://\($0)" }.joined(separator: tr(" and "))
            // OSC has no password: said on the start line whenever more than this machine can reach it.
            let open = options.osc?.host.map { !AddressRange.isLoopback($0) } ?? false
            let start = tr("duo-capture: OSC listening on %s (/duo/record, /duo/stop, /duo/speed 1.5, … docs/remote-control.md)", listening)
            Self.say(!oscAllow.isEmpty
                     ? tr("%s; OSC has no authentication: taken only from %s (--osc-allow)", start, oscAllow.map(\.description).joined(separator: ", "))
                     : open ? tr("%s; OSC has no authentication: anyone who can reach this port drives the run; limit the senders with --osc-allow ADDRESS[/BITS]", start)
                     : start)
        }
    }

    /// The addresses a phone may open, with the token; the one the operator window shows first (a LAN one
    /// when there is one). Bound to every interface, the address to open is one of this machine's own
    /// (0.0.0.0 is no address a phone can reach).
    private static func pairingAddresses(_ web: WebRemoteServer, host: String?, token: WebRemoteToken) -> [String] {
        var bases = web.listening.filter { !$0.contains("[") }
        if bases.isEmpty { bases = web.listening }
        if let host, host == "0.0.0.0" || host == "::" {
            let port = bases.first.flatMap { $0.split(separator: ":").last?.trimmingCharacters(in: CharacterSet(charactersIn: "/")) } ?? ""
            let lan = LocalAddresses.ipv4().map { "http://\($0):\(port)/" }
            if !lan.isEmpty { bases = lan }
        }
        let addresses = bases.map { "\($0)?token=\(token.value)" }
        guard let link = WebRemoteLink.preferred(addresses) else { return addresses }
        return [link] + addresses.filter { $0 != link }
    }

    /// Written to stderr at once, also with --quiet: the pairing address is what the user needs to pair.
    private static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private static func page() throws(DuoError) -> String {
        let folder = try ResourceLocator.find("Assets", marker: "remote/remote.html")
        guard let data = FileManager.default.contents(atPath: "\(folder)/remote/remote.html") else {
            throw .runtime(.text("remote control: %s/remote/remote.html cannot be read; reinstall duo-capture", folder))
        }
        return String(decoding: data, as: UTF8.self)
    }

    func close() {
        web?.close()
        osc?.close()
    }

    // MARK: Refusals

    private func refuse(_ line: String, key: String) {
        let now = clock.now()
        // What a remote sent is shown on one line of the terminal: every control character escaped, not too long.
        let line = TerminalText.escaped(line, limit: 300)
        if let said = refusals.update({ $0.line(key, line, at: now) }) { Self.say(tr("duo-capture: %s", said)) }
    }

    private func authorize(_ given: String?, _ address: String) -> Bool {
        if token.matches(given) { return true }
        // Keyed by kind too (issue 37): a wrong token is said as such even right after a missing one.
        let why = given == nil ? "no token" : "wrong token"
        refuse(given == nil ? tr("remote: refused %s: no token (open the address printed at start)", address)
                            : tr("remote: refused %s: wrong token (open the address printed at start)", address), key: "\(why) \(address)")
        return false
    }

    // MARK: Commands

    private func webMessage(_ text: String, from address: String) -> String? {
        let now = clock.now()
        switch webAdmission.update({ $0.message(from: address, size: text.utf8.count, at: now) }) {
        case .accept: break
        case .tooFast, .tooMany:
            refuse(tr("remote: %s sends more than %s commands a second; the excess is dropped", address, Int(ListenLimits.webRemote.rate ?? 0)), key: "flood \(address)")
            return nil
        case .tooLong:
            refuse(tr("remote: %s: a message longer than %s bytes", address, ListenLimits.webRemote.longest), key: "long \(address)")
            return nil
        }
        do {
            guard director.sendRemote([try WebRemoteCommands.parse(json: text)], source: .remote) else {
                refuse(tr("remote: the run is busy; %s's command is dropped (local keys and the control socket go first)", address), key: "busy \(address)")
                return ControlSocket.errorLine("the run is busy; send the command again")
            }
            return nil
        } catch {
            refuse(tr("remote: %s: %s", address, error.message), key: "\(error.message) \(address)")
            return ControlSocket.errorLine(error.message)
        }
    }

    private func oscPacket(_ bytes: [UInt8], from peer: OSCSocket.Peer) {
        // --osc-allow: anyone else is dropped before anything is read, and never answered.
        if !oscAllow.isEmpty, !oscAllow.contains(where: { $0.contains(peer.address) }) {
            return refuse(tr("osc: %s is not allowed by --osc-allow; its messages are dropped", peer.description), key: "allow \(peer.address)")
        }
        // Every message of a bundle counts against the rate, counted before the bundle is read (one over the
        // burst is refused unread); a bundle is carried out all or nothing.
        guard admitOSC(from: peer, size: bytes.count, count: OSCMessage.count(bytes), at: clock.now()) else { return }
        do {
            let messages = try OSCMessage.parse(bytes)
            var commands: [ControlCommand] = []
            for message in messages {
                if case .command(let command) = try WebRemoteCommands.osc(message) { commands.append(command) }
            }
            guard commands.isEmpty || director.sendRemote(commands, source: .osc) else {
                return refuse(tr("osc: the run is busy; %s's commands are dropped (local keys and the control socket go first)", peer.description),
                              key: "busy \(peer.address)")
            }
            // The last sender gets the feedback from now on, and the state at once.
            seen.update { $0.oscPeer = peer }
            sendFeedback()
        } catch {
            refuse(tr("%s (from %s)", error.message, peer.description), key: "\(error.message) \(peer.description)")
        }
    }

    /// Whether `count` more messages from `peer` are within OSC's rate (said once in a while when not).
    private func admitOSC(from peer: OSCSocket.Peer, size: Int, count: Int, at now: Int64) -> Bool {
        switch oscAdmission.update({ $0.message(from: peer.address, size: size, count: count, at: now) }) {
        case .accept: return true
        case .tooFast:
            refuse(tr("osc: %s sends more than %s messages a second; the excess is dropped", peer.description, Int(ListenLimits.osc.rate ?? 0)), key: "flood \(peer.address)")
        case .tooMany:
            refuse(tr("osc: %s: a bundle of more than %s messages is refused whole; send fewer at once", peer.description, Int(ListenLimits.osc.burst)),
                   key: "many \(peer.address)")
        case .tooLong:
            refuse(tr("osc: %s: a datagram longer than %s bytes", peer.description, ListenLimits.osc.longest), key: "long \(peer.address)")
        }
        return false
    }

    private func sendFeedback() {
        guard let osc else { return }
        let (peer, message) = seen.update { ($0.oscPeer, $0.state.oscFeedback) }
        if let peer { osc.reply(message.encoded(), to: peer) }
    }

    // MARK: What the page and OSC are told

    /// The lines a page gets when it connects: the note codes, the last take and status events, and the
    /// reading words.
    private func snapshot() -> [String] {
        let s = seen.value
        var lines = [Self.noteCodesLine(noteCodes)] + [s.lastShot, s.lastShotTake, s.lastMark, s.lastTake, s.lastStatus].compactMap { $0 }
        if let words = s.words { lines.append(Self.wordsLine(words)) }
        return lines
    }

    /// `{"event":"reading","v":1,"words":…}`: the page's own line (no event of the run).
    private static func wordsLine(_ words: String) -> String {
        struct Reading: Encodable {
            let event = "reading"
            let words: String
            let v = RunEvent.version
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(Reading(words: words))) ?? Data(), as: UTF8.self)
    }

    /// `{"event":"note-codes","v":1,"codes":[…]}`: the page's own line (no event of the run), the code
    /// book its note buttons show (issue 39).
    static func noteCodesLine(_ codes: [String]) -> String {
        struct Codes: Encodable {
            let event = "note-codes"
            let codes: [String]
            let v = RunEvent.version
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(Codes(codes: codes))) ?? Data(), as: UTF8.self)
    }

    /// One event of the run (the same the events file and the control socket get): folded into the
    /// state OSC feedback tells, and sent to the pages as its event-log line.
    private func observe(_ timed: RunEvent.Timed) {
        let kind = timed.event.kind
        guard WebRemoteRunState.forwarded.contains(kind) else { return }
        // The page's own version: file names without folders, no other client's errors.
        let page = WebRemoteRunState.pageEvent(timed.event).map { RunEvent.Timed($0, t: timed.t) }
        let line = page.map { String(decoding: $0.json, as: UTF8.self) }
        let before = seen.update { s -> WebRemoteRunState in
            let before = s.state
            s.state.observe(timed)
            if kind == .status { s.lastStatus = line }
            if kind == .takeStarted || kind == .takeEnded { s.lastTake = line }
            if kind == .shot { s.lastShot = line }
            if kind == .shotTake { s.lastShotTake = line; s.lastMark = nil }
            if kind == .mark { s.lastMark = line }
            return before
        }
        if let line { web?.broadcast(line) }
        if osc != nil, before != seen.value.state, kind != .status || before.speed != seen.value.state.speed
            || before.paused != seen.value.state.paused || Int(before.elapsed) != Int(seen.value.state.elapsed) {
            sendFeedback()
        }
        if kind == .status || kind == .command, web != nil { refreshWords() }
    }

    /// The subject's words at the reading position, sent when they changed (one look at a time).
    private func refreshWords() {
        guard wordsPending.update({ p -> Bool in defer { p = true }; return !p }) else { return }
        let presenter = self.presenter, clock = self.clock
        Task { [self] in
            let words = await presenter.readingWords(at: clock.now())
            wordsPending.set(false)
            guard let words else { return }
            let changed = seen.update { s -> Bool in
                defer { s.words = words }
                return s.words != words
            }
            if changed { web?.broadcast(Self.wordsLine(words)) }
        }
    }
}
