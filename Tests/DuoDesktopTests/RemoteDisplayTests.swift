import DuoCore
import Foundation
import XCTest

/// The subject view on another machine (here: another process on loopback) over SRT: `duo-capture display`
/// on the virtual desktop's second monitor, `duo-capture --headless --subject-remote` sending to it. What
/// the display shows is read back with OCR from a screenshot.
final class RemoteDisplayTests: XCTestCase {
    typealias App = DesktopEndToEndTests.App
    private let passphrase = "correct-horse-battery"

    /// A pair of ports no other test uses at the same time (each test its own; a run its own range).
    private func port() -> Int { 7300 + Int(getpid() % 100) * 20 + (name.hashValue & 0x7) * 2 }

    /// A script whose private note says words that must never reach the subject.
    private func script(_ desktop: VirtualDesktop) throws -> String {
        let path = desktop.directory.appendingPathComponent("remote.md").path
        try Data("""
            # Remote prompter

            Welcome to the remote prompter test. These words travel across the network to the glass.
            [[note: PINEAPPLE SUBMARINE is only for the operator]]

            The second paragraph keeps the reader busy while the network misbehaves.
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func display(_ desktop: VirtualDesktop, port: Int, passphrase: String?, name: String = "display",
                         calling: Bool = false) throws -> App {
        let events = desktop.directory.appendingPathComponent("\(name).jsonl")
        var args = ["display", calling ? "--connect" : "--listen", calling ? "srt://127.0.0.1:\(port)" : "srt://:\(port)",
                    "--subject-monitor", "1", "--events", events.path]
        var env: [String: String] = [:]
        if let passphrase { env["DUO_SRT_PASSPHRASE"] = passphrase } else { args.append("--no-encryption") }
        let p = try desktop.launch(DesktopEndToEndTests.binary.path, args, log: "\(name).log", environment: env,
                                   directory: VirtualDesktop.repositoryRoot)
        let app = App(process: p, events: events)
        try app.wait("the display to wait for duo-capture") { $0["event"] as? String == "display" && $0["state"] as? String == "waiting" }
        return app
    }

    private func sender(_ desktop: VirtualDesktop, to port: Int, script: String, passphrase: String?, extra: [String] = [],
                        listening: Bool = false) throws -> App {
        let events = desktop.directory.appendingPathComponent("sender.jsonl")
        var env: [String: String] = ["DISPLAY": ""]
        if let passphrase { env["DUO_SRT_PASSPHRASE"] = passphrase }
        let p = try desktop.launch(DesktopEndToEndTests.binary.path,
                                   ["--headless", "--source", "videotestsrc", "--format", "640x360@30", "--script", script,
                                    "--accessory", "teleprompter", "--wpm", "60", "--subject-remote", listening ? "srt://:\(port)" : "srt://127.0.0.1:\(port)",
                                    "--events", events.path, "--record-dir", desktop.directory.appendingPathComponent("takes").path] + extra,
                                   log: "sender.log", environment: env, directory: VirtualDesktop.repositoryRoot)
        return App(process: p, events: events)
    }

    /// The display's monitor (the second, 1280x720 at x 1280) read with tesseract.
    private func readDisplay(_ desktop: VirtualDesktop) throws -> String {
        let shot = desktop.directory.appendingPathComponent("display.png").path
        let crop = try desktop.run("import", ["-window", "root", "-crop", "1280x720+1280+0", "+repage", shot])
        XCTAssertEqual(crop.status, 0, crop.stderr)
        let ocr = try runTool("tesseract", [shot, "-"], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(ocr.status, 0, ocr.stderr)
        return ocr.stdout
    }

    func testTheDisplayShowsTheScriptAndNeverAPrivateNote() throws {
        let desktop = try VirtualDesktop(test: self)
        let port = port()
        let shown = try display(desktop, port: port, passphrase: passphrase)
        let sending = try sender(desktop, to: port, script: try script(desktop), passphrase: passphrase, extra: ["--duration", "30"])
        let connected = try sending.wait("the display to accept the sender") { $0["event"] as? String == "remote" && $0["state"] as? String == "connected" }
        XCTAssertEqual(connected.event["width"] as? Int, 1280, "rendered for the display's own monitor")
        XCTAssertEqual(connected.event["height"] as? Int, 720)
        try shown.wait("the display to show the view") { $0["event"] as? String == "display" && $0["state"] as? String == "showing" }
        var text = ""
        try waitFor("the script's words on the display", timeout: 20, interval: 0.5) {
            text = try readDisplay(desktop)
            return text.contains("remote prompter test")
        }
        XCTAssertFalse(text.uppercased().contains("PINEAPPLE"), "a private note reached the display: \(text)")
        XCTAssertFalse(text.uppercased().contains("SUBMARINE"), "a private note reached the display: \(text)")
        // The operator's view stays at home: the local take is not disturbed, and the display recovers
        // ("waiting") when the sender goes.
        sending.process.terminate()
        try waitFor("the sender to end", timeout: 20) { !sending.process.isRunning }
        try shown.wait("the display to wait again") { $0["event"] as? String == "display" && $0["state"] as? String == "waiting" }
        try waitFor("'waiting for duo-capture' on the display", timeout: 10, interval: 0.5) {
            try readDisplay(desktop).contains("waiting for duo-capture")
        }
    }

    /// The other way round: the sender listens (`--subject-remote srt://:PORT`) and the display calls it
    /// (`--connect`), as when the display's network lets only outgoing connections through.
    func testADisplayThatCallsAListeningSender() throws {
        let desktop = try VirtualDesktop(test: self)
        let port = port()
        let sending = try sender(desktop, to: port, script: try script(desktop), passphrase: passphrase, extra: ["--duration", "30"], listening: true)
        try sending.wait("the sender to listen") { $0["event"] as? String == "remote" && $0["state"] as? String == "connected" }
        let shown = try display(desktop, port: port, passphrase: passphrase, calling: true)
        try shown.wait("the view through the display's own call") { $0["event"] as? String == "display" && $0["state"] as? String == "showing" }
        try waitFor("the script's words on the display", timeout: 20, interval: 0.5) { try readDisplay(desktop).contains("remote prompter test") }
    }

    /// A wrong passphrase is refused with a clear line on both ends, and nothing is shown.
    func testAWrongPassphraseIsRefusedOnBothEnds() throws {
        let desktop = try VirtualDesktop(test: self)
        let port = port()
        let shown = try display(desktop, port: port, passphrase: passphrase)
        let sending = try sender(desktop, to: port, script: try script(desktop), passphrase: "not-the-right-one", extra: ["--duration", "4"])
        let refused = try sending.wait("the sender to be refused") { $0["event"] as? String == "remote" && $0["state"] as? String == "refused" }
        XCTAssertEqual(refused.event["reason"] as? String, "wrong passphrase; give both ends the same --passphrase-file (or DUO_SRT_PASSPHRASE)")
        let seen = try shown.wait("the display to refuse the sender") { $0["event"] as? String == "display" && $0["state"] as? String == "refused" }
        XCTAssertTrue((seen.event["reason"] as? String ?? "").hasPrefix("wrong passphrase"))
        try waitFor("the sender to end", timeout: 20) { !sending.process.isRunning }
        XCTAssertEqual(sending.process.terminationStatus, 0, "the run itself goes on and ends normally")
        XCTAssertTrue(desktop.tail("display.log").contains("refused a sender at 127.0.0.1: wrong passphrase"), desktop.tail("display.log"))
        XCTAssertFalse(shown.all().contains { $0["state"] as? String == "showing" }, "nothing was shown")
    }

    /// A peer that connects and says nothing, one that sends a byte every second, and one guessing the
    /// passphrase six times in a row: the real sender is still accepted at once; the guesses are answered
    /// ever later, three are logged one by one and the rest in one summary line.
    func testIdlePeersAndGuessersKeepNoSenderOut() throws {
        let desktop = try VirtualDesktop(test: self)
        let port = port()
        let shown = try display(desktop, port: port, passphrase: passphrase)
        let peers = Process()
        peers.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        peers.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/handshake-peers.py").path,
                           "\(port)", "6"]
        try startLogged(peers, to: desktop.directory.appendingPathComponent("peers.log"))
        defer { if peers.isRunning { peers.terminate() } }
        try waitFor("the peers to hold their connections", timeout: 10) { desktop.tail("peers.log").contains("holding") }
        let sending = try sender(desktop, to: port, script: try script(desktop), passphrase: passphrase, extra: ["--duration", "12"])
        let connected = try sending.wait("the display to accept the sender", timeout: 10) {
            $0["event"] as? String == "remote" && $0["state"] as? String == "connected"
        }
        XCTAssertLessThan(connected.event["t"] as? Double ?? 99, 2, "accepted at its first ask, though two peers hold connections open")
        try waitFor("the guesses", timeout: 20) { desktop.tail("peers.log").contains("guessed") }
        let seconds = desktop.tail("peers.log").split(separator: "\n").filter { $0.hasPrefix("guess ") }.compactMap { Double($0.split(separator: " ")[2]) }
        XCTAssertEqual(seconds.count, 6, desktop.tail("peers.log"))
        XCTAssertGreaterThanOrEqual(seconds.last ?? 0, 1.9, "the sixth guess waited: \(seconds)")
        try waitFor("the display to close the trickling connection (3 s in all for a hello)", timeout: 10) {
            desktop.tail("peers.log").contains("trickle closed by the display")
        }
        shown.process.terminate()
        try waitFor("the display to end", timeout: 20) { !shown.process.isRunning }
        let log = (try? String(contentsOf: desktop.directory.appendingPathComponent("display.log"), encoding: .utf8)) ?? ""
        let refusedLines = log.split(separator: "\n").filter { $0.contains("refused a sender at 127.0.0.1: wrong passphrase") }
        XCTAssertEqual(refusedLines.count, 3, log)
        XCTAssertTrue(log.contains("duo-capture: display: refused 3 more wrong passphrases from 127.0.0.1 in the last minute"), log)
        XCTAssertEqual(shown.all().filter { $0["state"] as? String == "refused" }.count, 4, "three refusals and the summary")
        XCTAssertTrue(sending.all().contains { $0["event"] as? String == "remote" && $0["state"] as? String == "connected" })
    }

    /// Between sender and display, a relay drops 2 % of the packets with 20 ms delay and 10 ms jitter,
    /// then passes nothing for 5 s. Within SRT's budget no frame is missing on screen; after the outage the
    /// display shows the view again by itself; the take recorded meanwhile decodes complete.
    func testLossJitterAndAnOutageBetweenSenderAndDisplay() throws {
        let desktop = try VirtualDesktop(test: self)
        let displayPort = port(), relayPort = port() + 1
        let shown = try display(desktop, port: displayPort, passphrase: passphrase)
        let relay = Process()
        relay.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        relay.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/lossy-relay.py").path,
                           "\(relayPort)", "\(displayPort)", "0.02", "20", "10", "8", "5"]
        try startLogged(relay, to: desktop.directory.appendingPathComponent("relay.log"))
        defer { relay.terminate() }
        try waitFor("the relay", timeout: 10) { desktop.tail("relay.log").contains("relay ready") }
        let sending = try sender(desktop, to: relayPort, script: try script(desktop), passphrase: passphrase,
                                 extra: ["--record", "--countdown", "0", "--duration", "22", "--srt-latency", "200"])
        let first = try shown.wait("the view through the lossy relay") { $0["event"] as? String == "display" && $0["state"] as? String == "showing" }
        // The outage begins 8 s after the first packet: the display notices a second later.
        let gone = try shown.wait("the outage", after: first.index + 1, timeout: 30) { $0["event"] as? String == "display" && $0["state"] as? String == "waiting" }
        let seconds = (gone.event["t"] as! Double) - (first.event["t"] as! Double) - 1.0
        let frames = Double((gone.event["frames"] as! Int) - (first.event["frames"] as! Int))
        XCTAssertGreaterThanOrEqual(frames / seconds, 0.95 * 30, "frames shown per second through 2 % loss: no frame missing")
        try shown.wait("the display to recover by itself", after: gone.index + 1, timeout: 30) {
            $0["event"] as? String == "display" && $0["state"] as? String == "showing"
        }
        try waitFor("the take to end", timeout: 40) { !sending.process.isRunning }
        XCTAssertEqual(sending.process.terminationStatus, 0, desktop.tail("sender.log"))
        let takes = try FileManager.default.contentsOfDirectory(atPath: desktop.directory.appendingPathComponent("takes").path).filter { $0.hasSuffix(".mkv") }
        XCTAssertEqual(takes.count, 1)
        let inspected = try runTool(DesktopEndToEndTests.binary.path, ["inspect", desktop.directory.appendingPathComponent("takes/\(takes[0])").path, "--json"],
                                    environment: ProcessInfo.processInfo.environment)
        let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any], inspected.stderr)
        XCTAssertGreaterThanOrEqual(decoded["videoFrames"] as? Int ?? 0, 21 * 30, "the take is complete though the network was not")
        XCTAssertLessThanOrEqual(decoded["maxGapMs"] as? Double ?? 999, 34)
        let remote = sending.all().filter { $0["event"] as? String == "remote" }.map { $0["state"] as? String ?? "?" }
        XCTAssertEqual(remote.first, "connected")
        XCTAssertEqual(remote.last, "connected", "the sender found the display again after the outage: \(remote)")
    }
}

/// A remote display without a passphrase is a clear error, never a silent unencrypted stream.
final class RemoteDisplayOptionTests: XCTestCase {
    func testNoPassphraseIsAClearErrorNotAnUnencryptedStream() throws {
        let binary = DesktopEndToEndTests.binary.path
        let run = try runTool(binary, ["--headless", "--source", "videotestsrc", "--subject-remote", "srt://127.0.0.1:7999", "--duration", "1"],
                              environment: ProcessInfo.processInfo.environment.filter { $0.key != "DUO_SRT_PASSPHRASE" && $0.key != "DISPLAY" })
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stderr, "duo-capture: error: SRT is encrypted by default: give --passphrase-file FILE (or set DUO_SRT_PASSPHRASE), the same on both ends; --no-encryption only on a closed network\n")
        let short = try runTool(binary, ["--headless", "--source", "videotestsrc", "--subject-remote", "srt://127.0.0.1:7999", "--duration", "1"],
                                environment: ["DUO_SRT_PASSPHRASE": "short", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(short.status, 65)
        XCTAssertTrue(short.stderr.contains("the passphrase must be 10 to 79 characters"), short.stderr)
        let bad = try runTool(binary, ["--headless", "--subject-remote", "udp://127.0.0.1:7999"], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("expected an SRT address"), bad.stderr)
    }
}
