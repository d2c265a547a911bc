import DuoCore
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Every receiver of the run's events gets the same typed events: in a real headless run with the web
/// remote, the page's socket and a control-socket client receive, line for line and byte for byte (the
/// same `t`), the events file's lines from the moment they connected: the page the events it forwards,
/// the control client every one.
final class EventReceiversTests: XCTestCase {
    func testThePageTheControlSocketAndTheEventsFileGetTheSameEvents() throws {
        let remote = try RemoteRun(self, extra: ["--verbose"], script: RemoteControlTests.script, osc: false)
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let listener = try RawLineClient(path: remote.socketPath)
        let control = try ControlClient(path: remote.socketPath)
        let page = try remote.pageSocket()
        var pageLines: [String] = []
        /// Page messages until the event `name` that `accept`s; at most 30 s (a periodic status comes
        /// every second, so the socket's own timeout alone would never end a wait).
        @discardableResult
        func read(until name: String, _ accept: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, let text = page.nextText() {
                pageLines.append(text)
                if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                   object["event"] as? String == name, accept(object) { return object }
            }
            throw DuoError.runtime("no \(name) on the page's socket; it got \(pageLines)")
        }

        control.send(#"{"cmd":"record"}"#)
        let started = try XCTUnwrap(try read(until: "take-started")["t"] as? Double)
        // A second of recording: a periodic status a second after the take began.
        try read(until: "status") { ($0["t"] as? Double ?? 0) >= started + 1 && $0["recording"] as? Bool == true }
        control.send(#"{"cmd":"speed","step":1}"#)
        try read(until: "status") { $0["trigger"] as? String == "command" }
        control.send(#"{"cmd":"stop"}"#)
        try read(until: "take-ended") { $0["kept"] as? Bool == true }
        control.send(#"{"cmd":"mirror"}"#)
        try read(until: "status") { $0["trigger"] as? String == "command" && $0["mirror"] as? String == "h" }
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        while let text = page.nextText() { pageLines.append(text) }
        let controlLines = listener.linesUntilClosed()

        let fileLines = remote.eventLines
        let forwarded = Set(WebRemoteRunState.forwarded.map(\.rawValue))
        func name(_ line: String) -> String {
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["event"] as? String ?? ""
        }
        // The page's own lines (the reading words, the note codes) are no events of the run.
        let pageEvents = pageLines.filter { name($0) != "reading" && name($0) != "note-codes" }
        // What the page may see of them (WebRemoteRunState.pageEvent): take files by name only, no errors.
        func pageView(_ line: String) -> String {
            guard ["take-started", "take-ended", "shot-take", "mark"].contains(name(line)) else { return line }
            return line.replacingOccurrences(of: #""file":"[^"]*/([^"/]*)""#, with: #""file":"$1""#, options: .regularExpression)
        }
        let fileForwarded = fileLines.filter { forwarded.contains(name($0)) && name($0) != "error" }.map(pageView)
        XCTAssertTrue(Self.isRun(pageEvents, within: fileForwarded, snapshot: 2),
                      "the page got the events file's forwarded lines\npage:\n\(pageEvents.joined(separator: "\n"))\nfile:\n\(fileForwarded.joined(separator: "\n"))")
        XCTAssertTrue(Self.isRun(controlLines, within: fileLines, snapshot: 0),
                      "the control client got the events file's lines\nclient:\n\(controlLines.joined(separator: "\n"))\nfile:\n\(fileLines.joined(separator: "\n"))")
        for wanted in ["command", "take-started", "take-ended", "status"] {
            XCTAssertTrue(pageEvents.contains { name($0) == wanted }, "the page got a \(wanted) event")
        }
        XCTAssertEqual(controlLines.last.map(name), "stopped", "the control client got the run's last event")
        XCTAssertGreaterThan(controlLines.count, 8)
        // The debug log (--verbose) writes the same lines too.
        for line in fileLines.suffix(3) { XCTAssertTrue(remote.run.stderr.contains("event \(line)"), line) }
    }

    /// Whether `lines`, after at most `snapshot` leading lines (what a page is given when it connects,
    /// copies of earlier events), are a contiguous run of `file`'s lines that reaches at least the file's
    /// next-to-last line: nothing lost, added, reordered or written differently.
    static func isRun(_ lines: [String], within file: [String], snapshot: Int) -> Bool {
        for skip in 0...min(snapshot, lines.count) {
            let rest = Array(lines.dropFirst(skip))
            guard let first = rest.first, let start = file.firstIndex(of: first) else { continue }
            let slice = Array(file[start...].prefix(rest.count))
            if slice == rest, start + rest.count >= file.count - 1 { return true }
        }
        return false
    }
}

/// A control-socket client that reads nothing until asked, then every line until the run closes it.
final class RawLineClient {
    private let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else { throw DuoError.runtime("cannot connect to \(path)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func linesUntilClosed() -> [String] {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
