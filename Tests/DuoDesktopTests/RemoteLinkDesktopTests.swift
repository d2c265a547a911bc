import Foundation
import XCTest

/// The web remote's pairing card on the real two-monitor X desktop: the L key (and the control bar's link
/// button, and `{"cmd":"remote-link"}`) shows the address printed at start as a QR code on the operator
/// monitor, which a real decoder (zbarimg) reads back and which opens the page; pressed again, it is gone.
/// Without `--remote-control` the key says in one line how to turn it on and shows no code. The token
/// stays out of the events file and the debug log.
final class RemoteLinkDesktopTests: XCTestCase {
    private func start(_ desktop: VirtualDesktop, _ extra: [String]) throws -> DesktopEndToEndTests.App {
        let events = desktop.directory.appendingPathComponent("events.jsonl")
        let script = VirtualDesktop.repositoryRoot.appendingPathComponent("Assets/scripts/talk.md").path
        let p = try desktop.launch(DesktopEndToEndTests.binary.path, ["--source", "videotestsrc", "--format", "1280x720@30", "--script", script,
                                                                      "--events", events.path, "--record-dir", desktop.directory.appendingPathComponent("takes").path] + extra,
                                   log: "duo-capture.log", directory: VirtualDesktop.repositoryRoot)
        return DesktopEndToEndTests.App(process: p, events: events)
    }

    /// The QR codes zbarimg reads on the operator monitor (DUMMY0, 1280×720 at 0,0) now; with
    /// DUO_TEST_SHOTS set, the screenshot is kept there as `name`.png for a person to look at.
    private func codesOnOperatorMonitor(_ desktop: VirtualDesktop, keep name: String? = nil) throws -> [String] {
        let shot = desktop.directory.appendingPathComponent("operator.png").path
        let crop = try desktop.run("import", ["-window", "root", "-crop", "1280x720+0+0", "+repage", shot])
        guard crop.status == 0 else { throw Failure("import failed: \(crop.stderr)") }
        if let name, let folder = ProcessInfo.processInfo.environment["DUO_TEST_SHOTS"] {
            try? FileManager.default.removeItem(atPath: "\(folder)/\(name).png")
            try? FileManager.default.copyItem(atPath: shot, toPath: "\(folder)/\(name).png")
        }
        let r = try desktop.run("zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", shot])
        // 0: codes found; 4: none.
        guard r.status == 0 || r.status == 4 else { throw Failure("zbarimg failed (\(r.status)): \(r.stderr)") }
        return r.stdout.split(separator: "\n").map(String.init)
    }

    private func waitForCodes(_ desktop: VirtualDesktop, _ what: String, keep name: String, _ expected: [String]) throws {
        var last: [String] = []
        do {
            try waitFor(what, timeout: 20, interval: 0.2) {
                last = try codesOnOperatorMonitor(desktop)
                return last == expected
            }
        } catch { throw Failure("\(error); zbarimg read \(last); \(desktop.tail("duo-capture.log"))") }
        _ = try codesOnOperatorMonitor(desktop, keep: name)
    }

    /// The HTTP status of a GET of `url`, as a phone's browser would make it (python3's urllib).
    private func status(of url: String) throws -> String {
        let get = """
            import sys, urllib.request, urllib.error
            try: print(urllib.request.urlopen(sys.argv[1], timeout=10).status)
            except urllib.error.HTTPError as e: print(e.code)
            """
        let r = try runTool("python3", ["-c", get, url], environment: ProcessInfo.processInfo.environment)
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testTheLKeyShowsTheAddressPrintedAtStartAsAQRCodeThatOpensThePage() throws {
        let desktop = try VirtualDesktop(test: self)
        let control = desktop.directory.appendingPathComponent("control.sock").path
        // --verbose: the debug log (every event) goes to the same log, and is checked for the token too.
        let app = try start(desktop, ["--remote-control", "0.0.0.0:0", "--control", control, "--verbose"])
        let logFile = desktop.directory.appendingPathComponent("duo-capture.log")
        var pairingLine = ""
        try waitFor("the pairing address on the terminal", timeout: 30) {
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            pairingLine = log.split(separator: "\n").first { $0.contains("?token=") }.map(String.init) ?? ""
            return !pairingLine.isEmpty
        }
        // "open URL [or URL …] on the phone": the first is the one to show (a LAN one, this machine has one).
        let printed = try XCTUnwrap(pairingLine.components(separatedBy: " open ").last?.split(separator: " ").first.map(String.init), pairingLine)
        let token = try XCTUnwrap(printed.components(separatedBy: "?token=").last)
        XCTAssertGreaterThanOrEqual(token.count, 16, printed)
        XCTAssertFalse(printed.hasPrefix("http://127."), "bound to every interface, the shown address is a LAN one when there is one: \(printed)")
        try app.wait("frames to flow") { $0["event"] as? String == "frames" && $0["flowing"] as? Bool == true }
        try app.wait("fullscreen") { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        XCTAssertEqual(try codesOnOperatorMonitor(desktop, keep: "remote-link-before"), [], "no code before the key")

        // L: the code on the operator monitor is the printed address, token and all, and it opens the page.
        try desktop.key("l")
        try waitForCodes(desktop, "the QR code of the printed address", keep: "remote-link-shown", [printed])
        XCTAssertEqual(try status(of: printed), "200", "the decoded address opens the page")
        XCTAssertEqual(try status(of: printed.components(separatedBy: "?token=")[0]), "401", "the check can fail: without the token, no page")

        // L again: gone.
        try desktop.key("l")
        try waitForCodes(desktop, "the QR code to go", keep: "remote-link-hidden", [])

        // The control bar's link button shows it too, and the control socket's command hides it.
        try desktop.pointer(moveTo: 640, 300)
        let shown = try app.wait("the control bar to show") { $0["event"] as? String == "controls" && $0["shown"] as? Bool == true }
        let link = try XCTUnwrap((shown.event["buttons"] as? [String: [Int]])?["link"], "no link button: \(shown.event)")
        let mark = app.count
        try desktop.click(link)
        try app.wait("remote-link from the button", after: mark) {
            $0["event"] as? String == "command" && $0["cmd"] as? String == "remote-link" && $0["source"] as? String == "button"
        }
        try waitForCodes(desktop, "the QR code from the button", keep: "remote-link-button", [printed])
        let client = try desktop.run("python3", ["-c", "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode()+b'\\n'); s.close()",
                                                 control, #"{"cmd":"remote-link","on":false}"#])
        XCTAssertEqual(client.status, 0, client.stderr)
        try waitForCodes(desktop, "the QR code hidden by the control socket", keep: "remote-link-off", [])

        kill(app.process.processIdentifier, SIGTERM)
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
        // The token only on the pairing line printed at start: not in the debug log, not in the events.
        let log = try String(contentsOf: logFile, encoding: .utf8)
        XCTAssertEqual(log.split(separator: "\n").filter { $0.contains(token) }.map(String.init), [pairingLine])
        XCTAssertTrue(log.contains("\"remote-link\""), "the debug log has the run's events (so the check above can fail)")
        let events = try String(contentsOf: app.events, encoding: .utf8)
        XCTAssertFalse(events.contains(token), "the token is never in the events file")
        XCTAssertTrue(events.contains("\"cmd\":\"remote-link\""), "the commands are in the events file")
    }

    func testWithoutTheRemoteTheKeySaysHowToTurnItOnAndShowsNoCode() throws {
        let desktop = try VirtualDesktop(test: self)
        let app = try start(desktop, [])
        try app.wait("frames to flow") { $0["event"] as? String == "frames" && $0["flowing"] as? Bool == true }
        try app.wait("fullscreen") { $0["event"] as? String == "fullscreen" && $0["fullscreen"] as? Bool == true }
        let mark = app.count
        try desktop.key("l")
        let refused = try app.wait("the hint", after: mark) { $0["event"] as? String == "error" }
        let message = refused.event["message"] as? String ?? ""
        XCTAssertTrue(message.contains("--remote-control PORT"), message)
        XCTAssertFalse(message.contains("\n"), "one line")
        // The hint is on the operator window (OCR), and no code is.
        let shot = desktop.directory.appendingPathComponent("operator-ocr.png").path
        var text = ""
        do {
            try waitFor("the hint on the operator window", timeout: 20, interval: 0.3) {
                let crop = try desktop.run("import", ["-window", "root", "-crop", "1280x720+0+0", "+repage", shot])
                guard crop.status == 0 else { throw Failure("import failed: \(crop.stderr)") }
                text = try runTool("tesseract", [shot, "-"], environment: ProcessInfo.processInfo.environment).stdout
                return text.replacingOccurrences(of: "\n", with: " ").contains("remote-control PORT")
            }
        } catch { XCTFail("\(error); OCR read: \(text)") }
        XCTAssertEqual(try codesOnOperatorMonitor(desktop, keep: "remote-link-off-hint"), [], "no code without the remote")
        kill(app.process.processIdentifier, SIGTERM)
        try waitFor("duo-capture to exit", timeout: 20) { !app.process.isRunning }
        XCTAssertEqual(app.process.terminationStatus, 0, desktop.tail("duo-capture.log"))
    }
}
