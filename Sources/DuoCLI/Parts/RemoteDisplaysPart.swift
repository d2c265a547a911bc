import DuoCore
import Foundation

//  The remote displays as a run part (`--subject-remote`): the RemoteDisplayRoster's decisions, each display
//  asked off the director (the handshake port), attached at the size it answered, and asked again while away.
//
//   tick (roster: who is due) ─▶ RemoteDisplaysPart ─▶ handshake port (detached) ─▶ .remoteAnswer input ─┐
//   session (.remoteLost) ─────▶        ▲                                                               │
//                                       └───────────────────────────────────────────────────────────────┘
//                               ─▶ capture.attachRemote, presenter.remoteView, face, `remote` events

/// The remote displays: connected, asked, away and when asked again.
///
/// Thread: the run director's actor (owned by its RunParts, called only from it).
final class RemoteDisplaysPart: RunPart {
    /// Thread: value type, Sendable.
    struct Settings: Sendable {
        /// `--subject-remote`: displays on other machines, their passphrase and SRT latency budget.
        var displays: [SRTAddress] = []
        var passphrase: String?
        var latency = 120
        init() {}
        init(_ options: Options, passphrase: String?) {
            displays = options.remoteDisplays
            self.passphrase = passphrase
            latency = options.srtLatency
        }
    }

    private let settings: Settings
    private var roster: RemoteDisplayRoster
    /// How a display is asked (its TCP handshake); a fake in tests.
    private let handshake: any RemoteDisplayHandshakePort

    init(_ settings: Settings, handshake: any RemoteDisplayHandshakePort) {
        self.settings = settings
        self.handshake = handshake
        roster = RemoteDisplayRoster(listening: settings.displays.map(\.isListener))
    }

    /// Asks the displays whose time has come (at start, then every few seconds while away), off the
    /// director: the answer comes back as an input.
    func tick(_ run: isolated RunDirector, at now: Int64, counts: BranchCounts) async {
        for due in roster.due(at: now) {
            switch due {
            case .listen(let index):
                // Listening: the display calls; the view is rendered at 1920x1080 for it.
                await answered(index, .accepted(.init(width: 1920, height: 1080, refresh: 60)), run)
            case .ask(let index):
                let address = settings.displays[index], passphrase = settings.passphrase, inbox = run.inbox
                let handshake = self.handshake
                Task.detached { inbox.send(.remoteAnswer(index, handshake.ask(address, passphrase: passphrase))) }
            }
        }
        // A connected display whose frames stop (the network broke without an error yet) is not lost here:
        // SRT retransmits within its budget, and its error comes through the bus when it gives up.
    }

    func handle(_ input: RunInput, _ run: isolated RunDirector) async {
        if case .remoteAnswer(let index, let answer) = input { await answered(index, answer, run) }
    }

    func handle(_ event: SessionEvent, _ run: isolated RunDirector) async -> Bool {
        guard case .remoteLost(let index, let reason) = event else { return false }
        away(index, .lost, reason: reason, run)
        run.face.setRemoteDisplays(asked: roster.count, connected: roster.connectedCount)
        return true
    }

    private func answered(_ index: Int, _ answer: RemoteDisplayAnswer, _ run: isolated RunDirector) async {
        roster.answered(index)
        let address = settings.displays[index]
        switch answer {
        case .accepted(let display):
            do throws(DuoError) {
                let drawer = await run.presenter.remoteView(index, width: display.width, height: display.height, at: run.clock.now())
                try await run.capture.attachRemote(index, address: address, width: display.width, height: display.height,
                                                   passphrase: settings.passphrase, latencyMilliseconds: settings.latency, drawer: drawer)
                roster.connect(index, width: display.width, height: display.height)
                run.face.setRemoteDisplays(asked: roster.count, connected: roster.connectedCount)
                run.events.emit(.remote(display: address.description, state: "connected", width: display.width,
                                        height: display.height, reason: nil))
                run.log(settings.passphrase == nil
                    ? tr("duo-capture: remote display %s connected: the subject view at %sx%s, unencrypted", address, display.width, display.height)
                    : tr("duo-capture: remote display %s connected: the subject view at %sx%s, encrypted", address, display.width, display.height))
            } catch {
                away(index, .failed, reason: error.english, run)
            }
        case .refused(let reason): away(index, .refused, reason: reason, run)
        case .unreachable(let reason): away(index, .waiting, reason: reason, run)
        }
    }

    /// A display not (or no longer) shown: said once per state and reason, asked again later.
    private func away(_ index: Int, _ state: RemoteDisplayRoster.Away, reason: String, _ run: isolated RunDirector) {
        guard roster.away(index, state, reason: reason, at: run.clock.now()) else { return }
        let address = settings.displays[index]
        run.events.emit(.remote(display: address.description, state: state.rawValue, width: nil, height: nil, reason: reason))
        let said: Said = switch state {
        case .refused: .text("remote display %s refused this sender: %s; the take and the local views go on, and it is tried again", address, reason)
        case .lost: .text("remote display %s lost: %s; the take and the local views go on, and it is tried again", address, reason)
        default: .text("remote display %s not connected: %s; the take and the local views go on, and it is tried again", address, reason)
        }
        run.notify(said, state == .waiting ? .plain : .warning)
    }
}
