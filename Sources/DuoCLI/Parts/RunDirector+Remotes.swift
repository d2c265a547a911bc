import DuoCore
import DuoMedia
import DuoPlatform
import DuoRender
import Foundation
#if canImport(Glibc)
import Glibc
#endif

//  The run director's remote displays: the RemoteDisplayRoster's decisions, each display asked off the director.
//
//  Thread: the run director's actor.

extension RunDirector {
    // MARK: Remote displays

    /// Asks the displays whose time has come (at start, then every few seconds while away), off the
    /// director: the answer comes back as an input.
    func watchRemotes(at now: Int64) async {
        for due in remotes.due(at: now) {
            switch due {
            case .listen(let index):
                // Listening: the display calls; the view is rendered at 1920x1080 for it.
                await remoteAnswered(index, .accepted(RemoteDisplayHandshakeClient.Display(width: 1920, height: 1080, refresh: 60)))
            case .ask(let index):
                let address = settings.remoteDisplays[index], passphrase = settings.remotePassphrase, sink = inputSink
                let handshake = self.handshake
                Task.detached { sink.yield(.remoteAnswer(index, handshake.ask(address, passphrase: passphrase))) }
            }
        }
        // A connected display whose frames stop (the network broke without an error yet) is not lost here:
        // SRT retransmits within its budget, and its error comes through the bus when it gives up.
    }

    func remoteAnswered(_ index: Int, _ outcome: RemoteDisplayHandshakeClient.Outcome) async {
        remotes.answered(index)
        let address = settings.remoteDisplays[index]
        switch outcome {
        case .accepted(let display):
            do throws(DuoError) {
                let drawer = await presenter.remoteView(index, width: display.width, height: display.height, at: clock.now())
                try await capture.attachRemote(index, address: address, width: display.width, height: display.height,
                                               passphrase: settings.remotePassphrase, latencyMilliseconds: settings.srtLatency, drawer: drawer)
                remotes.connect(index, width: display.width, height: display.height)
                face.setRemoteDisplays(asked: remotes.count, connected: remotes.connectedCount)
                events.emit(.remote(display: address.description, state: "connected", width: display.width,
                                    height: display.height, reason: nil))
                log("duo-capture: remote display \(address) connected: the subject view at \(display.width)x\(display.height)"
                    + (settings.remotePassphrase == nil ? ", unencrypted" : ", encrypted"))
            } catch {
                remoteAway(index, .failed, reason: error.message)
            }
        case .refused(let reason): remoteAway(index, .refused, reason: reason)
        case .unreachable(let reason): remoteAway(index, .waiting, reason: reason)
        }
    }

    func remoteLost(_ index: Int, reason: String) {
        remoteAway(index, .lost, reason: reason)
        face.setRemoteDisplays(asked: remotes.count, connected: remotes.connectedCount)
    }

    /// A display not (or no longer) shown: said once per state and reason, asked again later.
    func remoteAway(_ index: Int, _ state: RemoteDisplayRoster.Away, reason: String) {
        guard remotes.away(index, state, reason: reason, at: clock.now()) else { return }
        let address = settings.remoteDisplays[index]
        events.emit(.remote(display: address.description, state: state.rawValue, width: nil, height: nil, reason: reason))
        let what = state == .refused ? "refused this sender" : state == .lost ? "lost" : "not connected"
        notify("remote display \(address) \(what): \(reason); the take and the local views go on, and it is tried again",
               state == .waiting ? .plain : .warning)
    }
}
