import DuoCore
import XCTest

/// Which pairing address the operator window shows, the card's layout in whole pixels, and the
/// `remote-link` command.
final class RemoteLinkTests: XCTestCase {
    func testTheShownAddressIsOneAPhoneCanOpen() {
        let lan = "http://192.168.1.20:8080/?token=t", loop = "http://127.0.0.1:8080/?token=t"
        XCTAssertEqual(WebRemoteLink.preferred([loop, lan]), lan, "a LAN address before loopback")
        XCTAssertEqual(WebRemoteLink.preferred([lan, "http://10.0.0.2:8080/?token=t"]), lan, "the first LAN one")
        XCTAssertEqual(WebRemoteLink.preferred(["http://[::1]:8080/?token=t", loop]), "http://[::1]:8080/?token=t", "only loopback: the first")
        XCTAssertEqual(WebRemoteLink.preferred(["http://localhost:8080/?token=t", "http://[fd00::2]:8080/?token=t"]), "http://[fd00::2]:8080/?token=t")
        XCTAssertNil(WebRemoteLink.preferred([]))
        XCTAssertTrue(WebRemoteLink.offHint.contains("--remote-control PORT"))
        // A loopback address is shown with what a phone needs instead.
        let matrix = QRMatrix(size: 21, modules: Array(repeating: false, count: 441))!
        XCTAssertTrue(WebRemoteLinkCard(url: loop, matrix: matrix).caption.contains("--remote-control 0.0.0.0:PORT"))
        XCTAssertTrue(WebRemoteLinkCard(url: lan, matrix: matrix).caption.hasPrefix("Scan with the phone"))
    }

    func testTheCardIsLaidOutInWholeModulesAboutAThirdOfTheHeight() throws {
        let matrix = try XCTUnwrap(QRMatrix(size: 33, modules: Array(repeating: false, count: 33 * 33)))
        XCTAssertEqual(matrix.version, 4)
        let card = WebRemoteLinkCard(url: "http://x/", matrix: matrix)
        for (w, h) in [(1280, 720), (1920, 1080), (3840, 2160), (800, 600)] {
            let l = card.layout(width: w, height: h, textHeight: 50, textWidth: 500)
            XCTAssertEqual(l.symbol.side, l.module * 41, "\(w)x\(h)")
            XCTAssertEqual(Double(l.symbol.side) / Double(h), 1.0 / 3, accuracy: 0.05, "\(w)x\(h)")
            XCTAssertTrue(l.card.x >= 0 && l.card.y >= 0 && l.card.x + l.card.width <= w && l.card.y + l.card.height <= h, "\(w)x\(h): \(l.card)")
            XCTAssertLessThanOrEqual(abs(l.card.x * 2 + l.card.width - w), 1, "centred")
            XCTAssertEqual(l.text.y, l.symbol.y + l.symbol.side, "the text under the symbol")
        }
        // A small window: the symbol shrinks to fit (never below one pixel a module), never beyond it.
        let small = card.layout(width: 200, height: 150, textHeight: 40, textWidth: 300)
        XCTAssertLessThanOrEqual(small.symbol.side, 150)
        XCTAssertGreaterThanOrEqual(small.module, 1)
        XCTAssertNil(QRMatrix(size: 22, modules: Array(repeating: false, count: 22 * 22)), "no QR size")
        XCTAssertNil(QRMatrix(size: 21, modules: []), "modules missing")
    }

    func testRemoteLinkOnTheControlSocket() throws {
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"remote-link"}"#), .remoteLink(on: nil))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"remote-link","on":true}"#), .remoteLink(on: true))
        XCTAssertEqual(try ControlCommand.parse(#"{"cmd":"remote-link","on":false}"#), .remoteLink(on: false))
        XCTAssertThrowsError(try ControlCommand.parse(#"{"cmd":"remote-link","on":1}"#)) {
            XCTAssertTrue(($0 as? DuoError)?.message.contains(#"{"cmd":"remote-link","on":true}"#) ?? false, "\($0)")
        }
        XCTAssertEqual(ControlCommand.remoteLink(on: nil).name, "remote-link")
        XCTAssertEqual(OperatorControl.link.command, .remoteLink(on: nil))
        XCTAssertEqual(OperatorControl.link.key, "L")
        XCTAssertThrowsError(try WebRemoteCommands.parse(json: #"{"cmd":"remote-link"}"#), "a phone cannot show the address on the operator window")
    }
}
