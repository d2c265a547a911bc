import DuoCore
import DuoMedia
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The run's listeners on the one network loop, end to end: many control clients connecting at once,
/// OSC over IPv6.
final class ListenerTests: XCTestCase {
    /// A control client that connects without waiting, as a client with a connect timeout does: a full
    /// listen backlog is EAGAIN at once, not a wait.
    private final class EagerClient {
        let fd: Int32
        private var pending = [UInt8]()
        init(path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8) + [0]
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard ok == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw DuoError.runtime("cannot connect to \(path): \(reason)")
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        deinit { close(fd) }
        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        /// The next event named `name`.
        func next(_ name: String) throws -> [String: Any] {
            while true {
                while let newline = pending.firstIndex(of: 10) {
                    let line = Data(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if let object = try JSONSerialization.jsonObject(with: line) as? [String: Any], object["event"] as? String == name { return object }
                }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { throw DuoError.runtime("no \(name) event: the socket closed or timed out") }
                pending += buffer[0..<n]
            }
        }
    }

    /// 64 clients connect to a run's control socket at once: every one is let in (none refused for a
    /// full backlog), each bad line is answered on its own connection only, and one client's command
    /// reaches every client as an event. (Before the network loop the socket's backlog was 8, drained
    /// by a thread that then started a thread per client.)
    func testManyControlClientsConnectingAtOnceAreAllServed() throws {
        let dir = try scratchDirectory(self)
        let socketPath = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "160x120@15", "--control", socketPath, "--quiet"],
                                    directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "the control socket") { FileManager.default.fileExists(atPath: socketPath) }
        // The socket file appears at bind, a moment before the loop serves it: one client first.
        let first = try ControlClient(path: socketPath)
        first.send(#"{"cmd":"dance-first"}"#)
        XCTAssertTrue((try first.next("error")["message"] as? String ?? "").contains("dance-first"))

        let clients = try (0..<64).map { _ in try EagerClient(path: socketPath) }
        for (i, client) in clients.enumerated() { client.send(#"{"cmd":"dance-\#(i)"}"#) }
        for (i, client) in clients.enumerated() {
            let message = try client.next("error")["message"] as? String ?? ""
            XCTAssertTrue(message.contains("unknown command \"dance-\(i)\""), "client \(i) got another's answer: \(message)")
        }
        clients[17].send(#"{"cmd":"mirror"}"#)
        for (i, client) in clients.enumerated() {
            XCTAssertEqual(try client.next("command")["cmd"] as? String, "mirror", "client \(i)")
        }
        first.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
    }

    /// OSC by default listens on ::1 as well as 127.0.0.1: a real datagram to ::1 starts a take, and the
    /// feedback comes back over IPv6. (Before, OSC was IPv4 only and the datagram went nowhere.)
    func testOSCOverIPv6DrivesTheRun() throws {
        let remote = try RemoteRun(self)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        guard remote.run.stderr.contains("OSC listening on udp://127.0.0.1:\(remote.oscPort) and udp://[::1]:\(remote.oscPort)") else {
            return XCTFail("OSC does not listen on ::1: \(remote.run.stderr)")
        }
        let control = try ControlClient(path: remote.socketPath)
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        XCTAssertEqual(getaddrinfo("::1", String(remote.oscPort), &hints, &list), 0)
        defer { freeaddrinfo(list) }
        let target = try XCTUnwrap(list)
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let record = OSCMessage("/duo/record").encoded()
        _ = record.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, target.pointee.ai_addr, target.pointee.ai_addrlen) }
        // Waited for in the events file (bounded), then read in order from the control socket.
        try remote.run.wait(for: "the take OSC started over IPv6") { remote.eventLines.contains { $0.contains(#""event":"take-started""#) } }
        let command = try control.next("command")
        XCTAssertEqual(command["source"] as? String, "osc")
        XCTAssertEqual(command["cmd"] as? String, "record")
        let file = try XCTUnwrap(try control.next("take-started")["file"] as? String)
        var sawRecording = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !sawRecording {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            if let state = try? OSCMessage.parse(Array(buffer[0..<n])).first, state.address == "/duo/state" {
                sawRecording = state.arguments.first == .string("recording")
            }
        }
        XCTAssertTrue(sawRecording, "the feedback came back over IPv6")
        try remote.run.wait(for: "the take to grow") { ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 20_000 }
        control.send(#"{"cmd":"stop"}"#)
        XCTAssertEqual(try control.next("take-ended")["kept"] as? Bool, true)
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        XCTAssertGreaterThan(try MediaInspector.decode(file).video.frames, 0)
    }
}
