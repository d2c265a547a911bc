import DuoCore
import DuoPlatform
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Idle connections to the web remote beyond the run's open-file limit (issue 35): 700 TCP connections
/// that never send a request, to a run started under `ulimit -n 512` (the test itself stays under the
/// 1,024 a machine commonly allows). The run keeps its
/// descriptors (a take still writes its sidecar), the page is still served to a real client at once, the
/// idle connections are closed within seconds; and a soft limit below the hard one is raised at start.
final class IdleConnectionTests: XCTestCase {
    /// A TCP connection to 127.0.0.1:`port` that sends nothing (nil: refused or timed out).
    private func idleConnection(_ port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private func openDescriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    func testMoreIdleConnectionsThanTheRunCanHoldNeitherStarveItNorKeepThePageOut() throws {
        // The run is held to 512 descriptors and met with 700 idle connections: more than it could ever
        // hold, while the test's own sockets stay under the 1,024 machines commonly allow a process.
        DescriptorLimit.raiseToHard()
        let hard = DescriptorLimit.current.hard
        guard hard >= 1_000 else {
            return XCTFail("this test opens 700 sockets and the hard descriptor limit is \(hard): raise ulimit -Hn")
        }
        let remote = try RemoteRun(self, osc: false, launcher: ["/bin/bash", "-c", "ulimit -n 512; exec \"$@\"", "bash"])
        defer { if remote.run.process.isRunning { remote.run.process.terminate() } }
        let pid = remote.run.process.processIdentifier
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        XCTAssertTrue(limits.split(separator: "\n").contains { $0.hasPrefix("Max open files") && $0.contains(" 512 ") }, limits)
        let control = try ControlClient(path: remote.socketPath)

        var idle: [Int32] = []
        defer { for fd in idle { close(fd) } }
        let t0 = Date()
        for _ in 0..<700 { if let fd = idleConnection(remote.webPort) { idle.append(fd) } }
        print("idle: connecting took \(Date().timeIntervalSince(t0)) s")
        let most = openDescriptors(pid)
        print("idle: \(idle.count) connections made; the run holds \(most) descriptors")
        XCTAssertGreaterThan(idle.count, 600, "the listener stopped taking connections")
        XCTAssertLessThan(most, 300, "the idle connections hold the run's descriptors")

        // A real client gets the page at once, with the idle ones still open.
        let page = try WebSocketTestClient(port: remote.webPort)
        XCTAssertEqual(try page.request("/?token=\(remote.token)", upgrade: false), 200)

        print("idle: page at \(Date().timeIntervalSince(t0)) s")
        // A take with its sidecar.
        control.send(#"{"cmd":"record"}"#)
        let file = try XCTUnwrap(try control.next("take-started")["file"] as? String)
        try remote.run.wait(for: "the take to grow") { ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 20_000 }
        control.send(#"{"cmd":"stop"}"#)
        XCTAssertEqual(try control.next("take-ended")["kept"] as? Bool, true)
        let sidecar = TakeSidecar.path(forTake: file)
        try remote.run.wait(for: "the sidecar") { FileManager.default.fileExists(atPath: sidecar) }
        XCTAssertNoThrow(try TakeSidecar.read(sidecar))

        print("idle: sidecar at \(Date().timeIntervalSince(t0)) s")
        // The idle connections are closed by the run within seconds (each reads its end: 0 bytes).
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        let last = try XCTUnwrap(idle.last)
        setsockopt(last, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        let started = Date()
        XCTAssertEqual(recv(last, &byte, 1, 0), 0, "an idle connection was not closed")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        try remote.run.wait(for: "the descriptors to come back") { self.openDescriptors(pid) < 100 }
        print("idle: closed at \(Date().timeIntervalSince(t0)) s")
        XCTAssertEqual(remote.quit(control), 0, remote.run.stderr)
        XCTAssertFalse(remote.run.stderr.contains("check free space"), remote.run.stderr)
        let said = remote.run.stderr.split(separator: "\n").filter { $0.contains("remote:") }
        XCTAssertLessThan(said.count, 10, said.joined(separator: "\n"))

        // A soft limit below the hard one is raised to it at start.
        let soft = try RemoteRun(self, osc: false, launcher: ["/bin/bash", "-c", "ulimit -Sn 256; exec \"$@\"", "bash"])
        defer { if soft.run.process.isRunning { soft.run.process.terminate() } }
        let line = try String(contentsOfFile: "/proc/\(soft.run.process.processIdentifier)/limits", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(numbers.count, 2, String(line))
        XCTAssertEqual(numbers.first, numbers.last, "the soft limit was not raised to the hard one: \(line)")
        XCTAssertNotEqual(numbers.first, 256, String(line))
    }

    /// A write that fails says the system's reason, not "check free space".
    func testAFailedWriteSaysTheRealReason() throws {
        let dir = try scratchDirectory(self)
        let sidecar = TakeSidecar(toolVersion: "t", gstreamerVersion: "g", take: 1, file: "\(dir)/gone/take.mkv", started: Date(),
                                  countdownSeconds: 0, cameras: [], format: "320x240@30", aspect: nil, encoder: "x264",
                                  container: "mkv", audio: nil)
        XCTAssertThrowsError(try sidecar.write(nextTo: "\(dir)/gone/take.mkv")) { error in
            let message = (error as? DuoError)?.message ?? ""
            XCTAssertTrue(message.contains("the folder is gone"), message)
            XCTAssertFalse(message.contains("check free space"), message)
        }
        XCTAssertTrue(WriteProblem.describe(NSError(domain: NSPOSIXErrorDomain, code: Int(EMFILE))).contains("too many open files"))
        XCTAssertTrue(WriteProblem.describe(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))).contains("no space left"))
        XCTAssertTrue(WriteProblem.describe(NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteNoPermission.rawValue))
            .contains("permission denied"))
    }
}
