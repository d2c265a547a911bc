import DuoCore
import DuoMedia
import DuoWebRemote
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to 127.0.0.1:`port` speaking just enough HTTP and WebSocket (RFC 6455) for the
/// tests: the handshake, masked text frames out, frames in; and raw bytes for malformed frames.
final class WebSocketTestClient {
    let fd: Int32
    /// Every byte received, as received (the private-note test reads them all).
    private(set) var received = [UInt8]()
    private var pending = [UInt8]()

    /// `receiveBuffer`: a small receive buffer (bytes), for a client that stops reading.
    init(port: Int, host: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { throw DuoError.runtime("cannot connect to port \(port)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            rest = rest.dropFirst(n)
        }
    }

    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        received += buffer[0..<n]
        pending += buffer[0..<n]
        return true
    }

    /// Sends a GET for `target`; returns the status code and leaves the body unread.
    func request(_ target: String, upgrade: Bool, host: String = "127.0.0.1", headers: [String] = []) throws -> Int {
        var head = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n" + headers.map { $0 + "\r\n" }.joined()
        if upgrade {
            head += "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        }
        write(Array((head + "\r\n").utf8))
        while !(String(decoding: pending, as: UTF8.self).contains("\r\n\r\n")) {
            guard fill() else { throw DuoError.runtime("no HTTP answer") }
        }
        let text = String(decoding: pending, as: UTF8.self)
        let end = text.range(of: "\r\n\r\n")!
        pending.removeFirst(text[..<end.upperBound].utf8.count)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return status
    }

    /// Opens the WebSocket; true when the server switched protocols.
    func open(token: String?) throws -> Int {
        try request("/ws" + (token.map { "?token=\($0)" } ?? ""), upgrade: true)
    }

    /// One masked frame (`opcode` 1: text).
    static func frame(_ payload: [UInt8], opcode: UInt8 = 1, mask: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode]
        if payload.count < 126 { out.append(0x80 | UInt8(payload.count)) }
        else { out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] }
        out += mask
        out += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return out
    }

    func sendText(_ text: String) { write(Self.frame(Array(text.utf8))) }

    /// The next text message from the server (nil: closed or timed out).
    func nextText() -> String? {
        while true {
            if pending.count >= 2 {
                let opcode = pending[0] & 0x0F
                var length = Int(pending[1] & 0x7F), offset = 2
                if length == 126, pending.count >= 4 { length = Int(pending[2]) << 8 | Int(pending[3]); offset = 4 }
                else if length == 127, pending.count >= 10 { length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }; offset = 10 }
                if length < 126 || offset > 2, pending.count >= offset + length {
                    let payload = Array(pending[offset..<offset + length])
                    pending.removeFirst(offset + length)
                    if opcode == 8 { return nil }
                    if opcode == 1 { return String(decoding: payload, as: UTF8.self) }
                    continue
                }
            }
            guard fill() else { return nil }
        }
    }

    /// Messages until one whose JSON `event` is `name` (and `accept` holds).
    func next(_ name: String, _ accept: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        while let text = nextText() {
            if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
               object["event"] as? String == name, accept(object) { return object }
        }
        throw DuoError.runtime("no \(name) message from the page's socket")
    }

    /// Reads whatever arrives within `seconds` (for the byte checks).
    func drain(for seconds: Double) {
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline { _ = fill() }
    }
}

/// A UDP socket sending OSC to the run and reading its feedback.
final class OSCTestClient {
    let fd: Int32
    let port: Int
    init(port: Int) {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }
    func send(_ message: OSCMessage) { send(message.encoded()) }

    /// The next `/duo/state` feedback whose state `accept`s (nil: none within the timeout).
    func nextState(_ accept: (OSCMessage) -> Bool = { _ in true }) -> OSCMessage? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            if let message = try? OSCMessage.parse(Array(buffer[0..<n])).first, message.address == "/duo/state", accept(message) {
                return message
            }
        }
    }
}

/// A headless run with the web remote (and OSC) on free ports, its control socket and events file.
final class RemoteRun {
    let run: BackgroundRun
    let dir: String
    let socketPath: String
    let events: String
    private(set) var webPort = 0
    private(set) var token = ""
    private(set) var oscPort = 0
    /// The host of the pairing address printed.
    private(set) var pairingHost = ""

    init(_ test: XCTestCase, extra: [String] = [], script: String? = nil, osc: Bool = true, launcher: [String] = [],
         environment: [String: String] = [:]) throws {
        dir = try scratchDirectory(test)
        socketPath = "\(dir)/control.sock"
        events = "\(dir)/events.jsonl"
        var scriptArguments: [String] = []
        if let script {
            try Data(script.utf8).write(to: URL(fileURLWithPath: "\(dir)/script.md"))
            scriptArguments = ["--script", "\(dir)/script.md"]
        }
        run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0",
                                 "--record-dir", dir, "--control", socketPath, "--events", events, "--remote-control", "0",
                                 "--json", "--quiet"] + (osc ? ["--osc", "0"] : []) + scriptArguments + extra, directory: dir,
                           launcher: launcher, environment: environment)
        try run.wait(for: "the pairing address") { run.stderr.contains("?token=") && (!osc || run.stderr.contains("OSC listening")) }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        let err = run.stderr
        let url = try XCTUnwrap(err.split(separator: " ").first { $0.contains("?token=") })
        let parts = url.split(separator: "?token=")
        pairingHost = String(parts[0].dropFirst("http://".count).split(separator: ":")[0])
        webPort = Int(parts[0].split(separator: ":").last!.trimmingCharacters(in: CharacterSet(charactersIn: "/"))) ?? 0
        token = String(parts[1])
        if osc, let line = err.split(separator: "\n").first(where: { $0.contains("OSC listening on udp://") }) {
            let address = line.split(separator: "udp://")[1].split(separator: " ")[0]
            oscPort = Int(address.split(separator: ":").last!) ?? 0
        }
    }

    func pageSocket() throws -> WebSocketTestClient {
        let client = try WebSocketTestClient(port: webPort)
        XCTAssertEqual(try client.open(token: token), 101)
        return client
    }

    var eventLines: [String] { ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    /// The run's resident memory, kilobytes.
    var rssKilobytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(run.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func quit(_ control: ControlClient) -> Int32 {
        control.send(#"{"cmd":"quit"}"#)
        return run.finish()
    }
}

final class RemoteControlTests: XCTestCase {
    static let script = """
        # Remote

        [[note: SECRET-OPERATOR-NOTE only for the operator]]
        Good evening and welcome to the show. Tonight we talk about remote control from a phone.

        <!-- HIDDEN-COMMENT-NOTE not for the subject -->
        ## Second

        The second part follows the marker, with more words to read aloud slowly.
        """

    /// Without the token the page and the WebSocket are refused with 401, said once in the log, and no
    /// command reaches the run; with it, the page is served and its socket opens.
    func testWithoutTheTokenEverythingIsRefused() throws {
        // --verbose: the debug log (every event, on stderr) is checked for the token too.
        let remote = try RemoteRun(self, extra: ["--verbose"], script: Self.script, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)

        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/", upgrade: false), 401)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/?token=0000", upgrade: false), 401)
        let refused = try WebSocketTestClient(port: remote.webPort)
        XCTAssertEqual(try refused.open(token: "not-the-token-at-all"), 401)
        // A refused socket carries nothing to the run, even when it sends a frame anyway.
        refused.sendText(#"{"cmd":"record"}"#)
        let noToken = try WebSocketTestClient(port: remote.webPort)
        XCTAssertEqual(try noToken.open(token: nil), 401)
        noToken.sendText(#"{"cmd":"record"}"#)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/?token=\(remote.token)", upgrade: false), 200)

        // The run still answers, and it never heard a remote command nor started a take.
        control.send(#"{"cmd":"mirror"}"#)
        XCTAssertEqual(try control.next("command")["source"] as? String, "control")
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let lines = remote.eventLines
        XCTAssertFalse(lines.contains { $0.contains(#""source":"remote""#) }, lines.joined(separator: "\n"))
        XCTAssertFalse(lines.contains { $0.contains("take-started") })
        let refusals = remote.run.stderr.split(separator: "\n").filter { $0.contains("remote: refused 127.0.0.1") }
        XCTAssertEqual(refusals.count, 2, "one line per refused address and kind within the window: \(remote.run.stderr)")
        // The token is printed once, to the terminal only: not in the debug log, though a page used it.
        XCTAssertTrue(remote.run.stderr.contains("event {"), "the debug log was on")
        XCTAssertEqual(remote.run.stderr.components(separatedBy: remote.token).count - 1, 1)
        XCTAssertFalse(lines.contains { $0.contains(remote.token) }, "the token is never in the events file")
    }

    /// The page's socket sends the control socket's commands and receives the run's events: record starts
    /// a take, speed + changes the status speed, a take started over the control socket shows at once;
    /// a command a remote may not send (quit) and a bad line are refused on that page only.
    func testThePageSocketDrivesTheRunAndFollowsIt() throws {
        let remote = try RemoteRun(self, script: Self.script, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)
        let page = try remote.pageSocket()

        page.sendText(#"{"cmd":"record"}"#)
        let command = try control.next("command")
        XCTAssertEqual(command["cmd"] as? String, "record")
        XCTAssertEqual(command["source"] as? String, "remote")
        // The page hears the take's file name, not its folder (issue 35); the file is in the record folder.
        let name = try XCTUnwrap(try page.next("take-started")["file"] as? String)
        XCTAssertFalse(name.contains("/"), name)
        let file = "\(remote.dir)/\(name)"
        page.sendText(#"{"cmd":"speed","step":1}"#)
        let status = try page.next("status") { $0["trigger"] as? String == "command" }
        XCTAssertEqual(status["speed"] as? String, "190 wpm")
        page.sendText(#"{"cmd":"quit"}"#)
        XCTAssertTrue((try page.next("error")["message"] as? String ?? "").contains("quit is not taken from a remote"))
        page.sendText("no json")
        XCTAssertTrue((try page.next("error")["message"] as? String ?? "").contains("not a JSON object"))
        try remote.run.wait(for: "the take to grow") { ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 20_000 }
        page.sendText(#"{"cmd":"stop"}"#)
        let ended = try page.next("take-ended")
        XCTAssertEqual(ended["kept"] as? Bool, true)

        // A take started elsewhere reaches the page as it happens.
        control.send(#"{"cmd":"record"}"#)
        XCTAssertNotNil(try page.next("take-started"))
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        XCTAssertTrue(remote.run.process.terminationReason == .exit)
    }

    /// A private note (`[[note: …]]`, `<!-- … -->`) never appears in any byte the page or the control
    /// socket receives, though the page gets the subject's words at the reading position.
    func testPrivateNotesNeverReachThePageOrTheSocket() throws {
        let remote = try RemoteRun(self, script: Self.script, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)
        let pageFetch = try WebSocketTestClient(port: remote.webPort)
        XCTAssertEqual(try pageFetch.request("/?token=\(remote.token)", upgrade: false), 200)
        pageFetch.drain(for: 0.3)
        let page = try remote.pageSocket()
        // The reading words arrive (the note's block is on screen); a command and a marker jump walk on.
        let reading = try page.next("reading")
        XCTAssertTrue((reading["words"] as? String ?? "").contains("Good evening"), "\(reading)")
        page.sendText(#"{"cmd":"jump","to":"next"}"#)
        _ = try page.next("reading") { ($0["words"] as? String ?? "").contains("second part") }
        page.sendText(#"{"cmd":"jump","to":"start"}"#)
        _ = try page.next("status") { $0["trigger"] as? String == "command" }
        page.drain(for: 1.5)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        for (name, bytes) in [("page", pageFetch.received), ("page socket", page.received)] {
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertFalse(text.contains("SECRET-OPERATOR-NOTE"), "\(name) received the note")
            XCTAssertFalse(text.contains("HIDDEN-COMMENT-NOTE"), "\(name) received the comment")
        }
        XCTAssertTrue(String(decoding: page.received, as: UTF8.self).contains("second part"))
        let events = remote.eventLines.joined(separator: "\n")
        XCTAssertFalse(events.contains("SECRET-OPERATOR-NOTE") || events.contains("HIDDEN-COMMENT-NOTE"))
    }

    /// OSC: /duo/record starts a take, /duo/speed 1.5 sets 1.5 times the default speed, a malformed
    /// packet and an unknown address are refused with one line each, /duo/state feedback arrives.
    func testOSCDrivesTheRunAndSendsItsState() throws {
        let remote = try RemoteRun(self, script: Self.script)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)
        let osc = OSCTestClient(port: remote.oscPort)

        osc.send(OSCMessage("/duo/state"))
        XCTAssertEqual(osc.nextState()?.arguments.first, .string("idle"))
        osc.send(OSCMessage("/duo/record"))
        let command = try control.next("command")
        XCTAssertEqual(command["source"] as? String, "osc")
        let file = try XCTUnwrap(try control.next("take-started")["file"] as? String)
        XCTAssertNotNil(osc.nextState { $0.arguments.first == .string("recording") }, "feedback goes to the last sender")
        osc.send(OSCMessage("/duo/speed", [.float(1.5)]))
        var status = try control.next("status")
        while status["trigger"] as? String != "command" { status = try control.next("status") }
        XCTAssertEqual(status["speed"] as? String, "240 wpm")
        XCTAssertNotNil(osc.nextState { $0.arguments.count > 3 && $0.arguments[3] == .string("240 wpm") }, "the new speed is fed back")

        // Refused: a cut packet, an unknown address, a wrong argument type. None reaches the run.
        osc.send(Array(OSCMessage("/duo/record").encoded().prefix(5)))
        osc.send(OSCMessage("/duo/dance"))
        osc.send(OSCMessage("/duo/speed", [.string("fast")]))
        try remote.run.wait(for: "the refusals") {
            let e = remote.run.stderr
            return (e.contains("osc: the packet is cut short") || e.contains("osc: a string is not terminated"))
                && e.contains("osc: unknown address /duo/dance") && e.contains("osc: /duo/speed takes one number")
        }
        try remote.run.wait(for: "the take to grow") { ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 20_000 }
        control.send(#"{"cmd":"stop"}"#)
        XCTAssertEqual(try control.next("take-ended")["kept"] as? Bool, true)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let commands = remote.eventLines.filter { $0.contains(#""event":"command""#) && $0.contains(#""source":"osc""#) }
        XCTAssertEqual(commands.count, 2, "record and speed (/duo/state asks, it commands nothing): \(commands)")
        XCTAssertEqual(commands.filter { $0.contains(#""cmd":"speed""#) }.count, 1, "the wrong-type speed never ran")
        let err = remote.run.stderr
        XCTAssertTrue(err.contains("osc: unknown address /duo/dance"), err)
        XCTAssertTrue(err.contains("osc: /duo/speed takes one number"), err)
    }

    /// A flood of 10,000 WebSocket messages (good, bad and malformed) and 10,000 OSC datagrams during a
    /// take: the take decodes complete, the control socket still answers at once, memory grows < 5 MB.
    func testAFloodNeitherStallsTheRunNorGrowsMemory() throws {
        let remote = try RemoteRun(self, script: Self.script)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let control = try ControlClient(path: remote.socketPath)
        control.send(#"{"cmd":"record"}"#)
        let file = try XCTUnwrap(try control.next("take-started")["file"] as? String)
        let page = try remote.pageSocket()
        let osc = OSCTestClient(port: remote.oscPort)
        let fd = page.fd
        let reader = Thread {   // keeps reading, as a phone does, until the server closes the socket
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
        }
        reader.start()
        let lines = [#"{"cmd":"speed","step":1}"#, #"{"cmd":"speed","step":-1}"#, "garbage", #"{"cmd":"quit"}"#, #"{"cmd":"dance"}"#]
        func flood(_ count: Int) {
            for i in 0..<count {
                page.sendText(lines[i % lines.count])
                osc.send(i % 3 == 0 ? [0x2F, 0x64, 0x75] : OSCMessage(i % 2 == 0 ? "/duo/speed/up" : "/duo/bogus").encoded())
            }
        }
        /// Waits until the camera delivered `frames` more frames (the run goes on), answering the control socket.
        func waitFrames(_ frames: Int) throws {
            var status = try control.next("status")
            let start = status["cameraFrames"] as? Int ?? 0
            while (status["cameraFrames"] as? Int ?? 0) < start + frames { status = try control.next("status") }
        }
        // Every path warmed up first (allocator arenas, first refusals), then measured.
        flood(1_000)
        try waitFrames(30)
        let before = remote.rssKilobytes

        flood(10_000)
        // Malformed frame last: an unmasked client frame closes that page's socket only.
        page.write([0x81, 0x03, 0x61, 0x62, 0x63])

        // The control socket answers straight away, the take goes on.
        let asked = Date()
        control.send(#"{"cmd":"mirror"}"#)
        while try control.next("command")["source"] as? String != "control" {}
        XCTAssertLessThan(Date().timeIntervalSince(asked), 2, "the control socket answered late")
        try waitFrames(60)
        let after = remote.rssKilobytes
        print("flood: RSS \(before) kB before, \(after) kB after 10,000 WebSocket and 10,000 OSC messages")
        XCTAssertLessThan(after - before, 5_000, "RSS grew from \(before) kB to \(after) kB")
        control.send(#"{"cmd":"stop"}"#)
        let ended = try control.next("take-ended")
        XCTAssertEqual(ended["kept"] as? Bool, true)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        let frames = try XCTUnwrap(ended["frames"] as? Int)
        XCTAssertEqual(Double(try MediaInspector.decode(file).video.frames), Double(frames), accuracy: 1)
        XCTAssertGreaterThan(frames, 90)
        // The flood was said in a few lines, not thousands.
        let said = remote.run.stderr.split(separator: "\n").filter { $0.contains("remote:") || $0.contains("osc:") }
        XCTAssertLessThan(said.count, 20, said.joined(separator: "\n"))
        XCTAssertTrue(said.contains { $0.contains("the excess is dropped") }, said.joined(separator: "\n"))
    }

    /// The page itself, in headless Chromium: loaded with the token, its record button starts a take, its
    /// speed + button changes the speed, and a take started over the control socket shows REC within
    /// 500 ms. (Tests/DuoCLITests/Fixtures/remote-page.py drives the browser through chromedriver.)
    func testThePageInHeadlessChromium() throws {
        let remote = try RemoteRun(self, script: Self.script, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/remote-page.py").path
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [fixture, "http://127.0.0.1:\(remote.webPort)/?token=\(remote.token)", remote.socketPath]
        let out = Pipe(), err = Pipe()
        python.standardOutput = out
        python.standardError = err
        try python.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0, errors)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [String: Any], errors)
        XCTAssertEqual(result["recordSource"] as? String, "remote", "\(result)")
        XCTAssertEqual(result["takeStarted"] as? Bool, true, "\(result)")
        XCTAssertEqual(result["speedBefore"] as? String, "160 wpm", "\(result)")
        XCTAssertEqual(result["speedAfter"] as? String, "190 wpm", "\(result)")
        XCTAssertEqual(result["pageSpeed"] as? String, "190 wpm", "\(result)")
        XCTAssertEqual(result["stoppedByPage"] as? Bool, true, "\(result)")
        let recShownMs = try XCTUnwrap(result["recShownMs"] as? Double, "\(result)")
        XCTAssertLessThan(recShownMs, 500, "the page showed REC \(recShownMs) ms after the take started")
        XCTAssertEqual(result["withoutTokenStatus"] as? Int, 401, "\(result)")
        XCTAssertTrue((result["withoutTokenBody"] as? String ?? "").contains("needs its token"), "\(result)")
        let control = try ControlClient(path: remote.socketPath)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
    }

    /// --help (and so the man page) describes the remote; a bad value is one line saying what to give.
    func testHelpAndBadRemoteOptions() throws {
        let help = try duoCapture(["--help"])
        for words in ["--remote-control [ADDRESS:]PORT", "--remote-token-file FILE", "--osc [ADDRESS:]PORT", "/duo/speed 1.5",
                      "printed once", "401", "the L key shows", "QR code on the operator window", #"{"cmd":"remote-link","on":true}"#,
                      "L            the phone remote's address and QR code"] {
            XCTAssertTrue(help.stdout.contains(words), "--help lacks \(words)")
        }
        let dir = try scratchDirectory(self)
        try Data("short\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/token"))
        chmod("\(dir)/token", 0o600)
        // Issue 35: a token others can read, and one too weak to be 128 bits, are refused.
        try Data("aaaaaaaaaaaaaaaaaaaaaaaaaaaa\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/weak"))
        chmod("\(dir)/weak", 0o600)
        try Data("studio-phone-token-2026\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/readable"))
        chmod("\(dir)/readable", 0o644)
        let cases: [([String], String)] = [
            (["--remote-control", "0", "--remote-token-file", "\(dir)/weak"], "too few characters"),
            (["--remote-control", "0", "--remote-token-file", "\(dir)/readable"], "can be read by others (mode 644); run chmod 600"),
            (["--remote-control", "80800"], "expected [ADDRESS:]PORT"),
            (["--remote-control", "phone.local:8080"], "is no IP address"),
            (["--osc", "0.0.0.0:x"], "expected [ADDRESS:]PORT"),
            (["--remote-control", "0", "--remote-token-file", "\(dir)/token"], "at least 22"),
            (["--remote-control", "0", "--remote-token-file", "\(dir)/missing"], "cannot be read"),
            (["--remote-token-file", "\(dir)/token"], "give --remote-control PORT too"),
        ]
        for (arguments, problem) in cases {
            let run = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "1"] + arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "one line: \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(problem), "\(arguments): \(run.stderr)")
        }
    }

    /// A token file pairs the same address from one run to the next.
    func testATokenFileGivesTheToken() throws {
        let dir = try scratchDirectory(self)
        try Data("studio-phone-token-2026\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/token"))
        chmod("\(dir)/token", 0o600)
        let remote = try RemoteRun(self, extra: ["--remote-token-file", "\(dir)/token"], osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        XCTAssertEqual(remote.token, "studio-phone-token-2026")
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/?token=studio-phone-token-2026", upgrade: false), 200)
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort).request("/?token=studio-phone-token-2027", upgrade: false), 401)
        XCTAssertEqual(remote.quit(try ControlClient(path: remote.socketPath)), 0, remote.run.stderr)
    }

    /// Listening on every interface, the pairing address is this machine's own LAN address (a phone
    /// cannot open 0.0.0.0), and the page answers there.
    func testOnTheLANThePairingAddressIsOneAPhoneCanOpen() throws {
        let remote = try RemoteRun(self, extra: ["--remote-control", "0.0.0.0:0"], osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        XCTAssertNotEqual(remote.pairingHost, "0.0.0.0", remote.run.stderr)
        XCTAssertTrue(remote.run.stderr.contains("listening on http://0.0.0.0:"), remote.run.stderr)
        let lan = LocalAddresses.ipv4()
        if !lan.isEmpty { XCTAssertTrue(lan.contains(remote.pairingHost), "\(remote.pairingHost) not in \(lan)") }
        XCTAssertEqual(try WebSocketTestClient(port: remote.webPort, host: remote.pairingHost).request("/?token=\(remote.token)", upgrade: false), 200)
        XCTAssertEqual(remote.quit(try ControlClient(path: remote.socketPath)), 0, remote.run.stderr)
    }

    /// A page that stops reading is closed after a few seconds without room, as the control socket drops
    /// a client that falls behind: the server never holds ever more events for it, and the other pages
    /// and the control socket go on.
    func testAPageThatStopsReadingIsDropped() throws {
        let remote = try RemoteRun(self, script: Self.script, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let asleep = try WebSocketTestClient(port: remote.webPort, receiveBuffer: 1024)
        XCTAssertEqual(try asleep.open(token: remote.token), 101)
        let page = try remote.pageSocket()
        let fd = page.fd
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
        }
        reader.start()
        // Commands at the rate a remote may send make events for every page; the sleeping one fills up.
        let deadline = Date().addingTimeInterval(40)
        var step = 1
        while !remote.run.stderr.contains("fell behind reading events"), Date() < deadline {
            page.sendText(#"{"cmd":"speed","step":\#(step)}"#)
            step = -step
            usleep(12_000)
        }
        XCTAssertTrue(remote.run.stderr.contains("remote: 127.0.0.1: nothing read for 3 s"), remote.run.stderr)
        // The sleeping page, woken, reads what was queued and then its close: no wait for the read timeout.
        let woken = Date()
        while asleep.nextText() != nil {}
        XCTAssertLessThan(Date().timeIntervalSince(woken), 15, "the server closed the sleeping page's socket")
        // The reading page is still served, and the control socket answers.
        let control = try ControlClient(path: remote.socketPath)
        page.sendText(#"{"cmd":"mirror"}"#)
        var command = try control.next("command")
        while command["cmd"] as? String != "mirror" { command = try control.next("command") }
        XCTAssertEqual(command["source"] as? String, "remote")
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
    }
}
