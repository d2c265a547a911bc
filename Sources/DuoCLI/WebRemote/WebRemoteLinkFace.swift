import DuoCore
import DuoDesktop
import DuoRender

//  The web remote's pairing card on the operator window (`remote-link`, the L key, the control bar's
//  link button): the face keeps the address given at start (with its token) to itself, never logs it, and
//  shows it with its QR code on request.

extension RunFace {
    /// A face without windows keeps no address: it was printed at start.
    func setRemoteAddress(_ url: String?) {}
    func setRemoteLink(_ on: Bool?) -> String? {
        "remote-link shows the phone remote's address on the operator window; this run is --headless (the address is printed at start)"
    }
}

/// The pairing card, made once from the address (the QR code encoded then), or nil without a web remote.
///
/// Thread: Sendable; set on the main task before the run starts, read by the director's calls.
final class WebRemoteLinkHolder: Sendable {
    private let card = Locked<WebRemoteLinkCard?>(nil)
    private let problem = Locked<String?>(nil)

    func set(_ url: String?) {
        guard let url else { return card.set(nil) }
        do throws(DuoError) {
            card.set(WebRemoteLinkCard(url: url, matrix: try QRCodeEncoder.encode(url)))
        } catch {
            // The message names the address's length, never the address.
            problem.set(tr("remote link: no QR code: %s", error.message))
        }
    }

    var value: WebRemoteLinkCard? { card.value }
    var encodingProblem: String? { problem.value }
}

extension DesktopFace {
    func setRemoteAddress(_ url: String?) { remoteLink.set(url) }

    /// Without a web remote the operator is told in one line how to turn it on (on the window and as the
    /// command's error); with one the card shows or hides (nil: the other way round from now).
    func setRemoteLink(_ on: Bool?) -> String? {
        guard let card = remoteLink.value else {
            if on == false { return nil }
            let why = remoteLink.encodingProblem ?? WebRemoteLink.offHint
            say(why)
            return why
        }
        GtkMain.post { [self] in
            guard let ui else { return }
            ui.remoteLink = (on ?? (ui.remoteLink == nil)) ? card : nil
        }
        return nil
    }
}
