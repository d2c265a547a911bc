import DuoCore
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The sender (`duo-capture --headless --subject-remote`) against displays that say odd or hostile
/// things in the handshake (Fixtures/fake-display.py speaks it on TCP), and an SRT receiver
/// (gst-launch-1.0) standing in for the display's picture: nothing a display says ends the run, cuts
/// the take short, or reaches the operator's terminal raw.
final class RemoteHandshakeTests: XCTestCase {
    private let passphrase = "correct-horse-battery"
    private let base = ["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--audio", "none"]

    /// A TCP and UDP port free now on loopback.
    private func freePort() throws -> Int {
        for _ in 0..<20 {
            let port = 20000 + Int.random(in: 0..<20000)
            let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0), udp = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            defer { close(tcp); close(udp) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let ok = [tcp, udp].allSatisfy { fd in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
                }
            }
            if ok { return port }
        }
        throw DuoError.runtime("no free port")
    }

    /// A child process whose output goes to a file in `dir`, ended at the test's end.
    private func launch(_ executable: String, _ arguments: [String], log: String, in dir: String) throws -> (Process, URL) {
        let file = URL(fileURLWithPath: "\(dir)/\(log)")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let handle = try FileHandle(forWritingTo: file)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        addTeardownBlock { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        return (process, file)
    }

    private func fakeDisplay(port: Int, width: Int, height: Int, mode: String, passphrase: String = "", reason: String = "",
                             in dir: String) throws -> URL {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fake-display.py").path
        let (_, log) = try launch("/usr/bin/python3", [script, "\(port)", "\(width)", "\(height)", mode, passphrase, reason],
                                  log: "fake-display.log", in: dir)
        let deadline = Date().addingTimeInterval(10)
        while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("ready") {
            guard Date() < deadline else { throw DuoError.runtime("the fake display did not start") }
            usleep(20_000)
        }
        return log
    }

    private func events(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A display on a monitor of 1281x721 (fractional scaling): the sender renders 1280x720 for it (x264
    /// takes only even sizes), the picture reaches the SRT receiver at that size, and the take recorded
    /// meanwhile is whole; the run ends by itself with exit 0.
    func testAnOddSizedDisplayGetsAnEvenPictureAndTheTakeIsWhole() throws {
        let dir = try scratchDirectory(self)
        let port = try freePort()
        _ = try fakeDisplay(port: port, width: 1281, height: 721, mode: "accept", passphrase: passphrase, in: dir)
        let (_, received) = try launch("/usr/bin/gst-launch-1.0", [
            "-v", "srtsrc", "uri=srt://:\(port)?mode=listener", "passphrase=\(passphrase)", "pbkeylen=32",
            "!", "application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96",
            "!", "rtph264depay", "!", "h264parse", "!", "fakesink", "sync=false",
        ], log: "receiver.log", in: dir)
        let eventsPath = "\(dir)/events.jsonl"
        let run = try duoCapture(base + ["--record", "--countdown", "0", "--duration", "4", "--record-dir", dir, "--json",
                                         "--subject-remote", "srt://127.0.0.1:\(port)", "--events", eventsPath],
                                 environment: ["DUO_SRT_PASSPHRASE": passphrase])
        XCTAssertEqual(run.status, 0, "a display's size never ends the run: \(run.stderr)")
        let connected = events(eventsPath).first { $0["event"] as? String == "remote" && $0["state"] as? String == "connected" }
        XCTAssertEqual(connected?["width"] as? Int, 1280, "rounded down to even: \(run.stderr)")
        XCTAssertEqual(connected?["height"] as? Int, 720)
        let receiverLog = (try? String(contentsOf: received, encoding: .utf8)) ?? ""
        XCTAssertTrue(receiverLog.contains("width=(int)1280, height=(int)720"), "the display received a 1280x720 picture: \(receiverLog.suffix(2000))")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1)
        XCTAssertGreaterThanOrEqual(report.takes.first?.durationSeconds ?? 0, 3.5, "the take is not cut short")
        XCTAssertNil(report.takes.first?.error ?? nil)
    }

    /// A remote branch whose encoder fails at once, again and again (a user's Pipelines/remote-subject.gst
    /// pinning an odd size x264 cannot take: each start says more than one error, some after the branch
    /// was dropped): the display is asked again each time, and the take and the run never notice.
    func testARemoteBranchFailingRepeatedlyNeverEndsTheRun() throws {
        let dir = try scratchDirectory(self)
        let pipelines = "\(dir)/Pipelines"
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Pipelines").path
        try FileManager.default.copyItem(atPath: shipped, toPath: pipelines)
        let remote = try String(contentsOfFile: "\(pipelines)/remote-subject.gst", encoding: .utf8)
        XCTAssertTrue(remote.contains("width={{width}},height={{height}}"))
        try remote.replacingOccurrences(of: "width={{width}},height={{height}}", with: "width=1281,height=721")
            .write(toFile: "\(pipelines)/remote-subject.gst", atomically: true, encoding: .utf8)
        let port = try freePort()
        let log = try fakeDisplay(port: port, width: 1280, height: 720, mode: "accept", passphrase: passphrase, in: dir)
        let eventsPath = "\(dir)/events.jsonl"
        let run = try duoCapture(base + ["--record", "--countdown", "0", "--duration", "5", "--record-dir", dir, "--json",
                                         "--pipelines", pipelines, "--subject-remote", "srt://127.0.0.1:\(port)", "--events", eventsPath],
                                 environment: ["DUO_SRT_PASSPHRASE": passphrase])
        XCTAssertEqual(run.status, 0, "a remote branch's errors never end the run: \(run.stderr)")
        let states = events(eventsPath).filter { $0["event"] as? String == "remote" }.compactMap { $0["state"] as? String }
        XCTAssertGreaterThanOrEqual(states.filter { $0 == "lost" }.count, 2, "the branch failed more than once: \(states)")
        XCTAssertTrue(((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("answered 2"), "the display was asked again")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.takes.count, 1)
        XCTAssertGreaterThanOrEqual(report.takes.first?.durationSeconds ?? 0, 4.5, "the take is not cut short")
        XCTAssertNil(report.takes.first?.error ?? nil)
    }

    /// A hello claiming a monitor of 2^62 pixels: from a display that cannot prove the passphrase it is
    /// never believed; from one that can, it is refused with a reason. The sender never crashes.
    func testAnImpossibleSizeIsNeverTrustedNorCrashesTheSender() throws {
        for (mode, expected) in [("accept-unproven", "did not prove it holds the passphrase"), ("accept", "which no monitor has")] {
            let dir = try scratchDirectory(self)
            let port = try freePort()
            _ = try fakeDisplay(port: port, width: 1 << 62, height: 1 << 62, mode: mode, passphrase: passphrase, in: dir)
            let eventsPath = "\(dir)/events.jsonl"
            let run = try duoCapture(base + ["--duration", "2", "--subject-remote", "srt://127.0.0.1:\(port)", "--events", eventsPath],
                                     environment: ["DUO_SRT_PASSPHRASE": passphrase])
            XCTAssertEqual(run.status, 0, "\(mode): \(run.stderr)")
            let refused = events(eventsPath).first { $0["event"] as? String == "remote" && $0["state"] as? String == "refused" }
            XCTAssertTrue((refused?["reason"] as? String ?? "").contains(expected), "\(mode): \(run.stderr)")
            XCTAssertFalse(events(eventsPath).contains { $0["state"] as? String == "connected" }, "\(mode): nothing is sent there")
        }
    }

    /// A display's refusal reason with a window-title change, a screen clear, a forged log line and a
    /// bidi override: shown as visible escapes on stderr and in the event, bounded in length.
    func testADisplaysWordsNeverReachTheTerminalRaw() throws {
        let dir = try scratchDirectory(self)
        let port = try freePort()
        let hostile = "\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m\nduo-capture: all fine\u{202E}gnp.exe" + String(repeating: "x", count: 1000)
        _ = try fakeDisplay(port: port, width: 1280, height: 720, mode: "refuse", passphrase: passphrase, reason: hostile, in: dir)
        let eventsPath = "\(dir)/events.jsonl"
        let run = try duoCapture(base + ["--duration", "1.5", "--subject-remote", "srt://127.0.0.1:\(port)", "--events", eventsPath],
                                 environment: ["DUO_SRT_PASSPHRASE": passphrase])
        XCTAssertEqual(run.status, 0, run.stderr)
        let controls = run.stderr.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }
        XCTAssertTrue(controls.isEmpty, "control characters reached the terminal: \(controls.map { $0.value })")
        XCTAssertTrue(run.stderr.contains(#"\u{1B}]0;PWNED\u{7}\u{1B}[2J\u{9B}31m\u{A}duo-capture: all fine\u{202E}gnp.exe"#), run.stderr)
        XCTAssertFalse(run.stderr.split(separator: "\n").contains { $0.hasPrefix("duo-capture: all fine") }, "no forged line")
        let refused = try XCTUnwrap(events(eventsPath).first { $0["event"] as? String == "remote" && $0["state"] as? String == "refused" })
        let reason = try XCTUnwrap(refused["reason"] as? String)
        XCTAssertFalse(reason.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0A }, reason)
        XCTAssertLessThanOrEqual(reason.count, 201, "bounded")
    }

    /// A passphrase file others can read is refused on both ends with one line saying to chmod 600 it;
    /// `--allow-readable-passphrase` takes it.
    func testAPassphraseFileOthersCanReadIsRefusedOnBothEnds() throws {
        let dir = try scratchDirectory(self)
        let file = "\(dir)/passphrase"
        try passphrase.write(toFile: file, atomically: true, encoding: .utf8)
        let port = try freePort()
        for mode: mode_t in [0o644, 0o640] {
            chmod(file, mode)
            let sender = try duoCapture(base + ["--duration", "1", "--subject-remote", "srt://127.0.0.1:\(port)", "--passphrase-file", file])
            XCTAssertEqual(sender.status, 65, sender.stderr)
            XCTAssertEqual(sender.stderr.split(separator: "\n").count, 1, sender.stderr)
            XCTAssertTrue(sender.stderr.contains("chmod 600 \(file)"), sender.stderr)
            let display = try duoCapture(["display", "--listen", "srt://:\(port)", "--passphrase-file", file])
            XCTAssertEqual(display.status, 65, display.stderr)
            XCTAssertTrue(display.stderr.contains("chmod 600 \(file)"), display.stderr)
        }
        let allowed = try duoCapture(base + ["--duration", "1", "--subject-remote", "srt://127.0.0.1:\(port)", "--passphrase-file", file,
                                             "--allow-readable-passphrase"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        let displayAllowed = try duoCapture(["display", "--listen", "srt://:\(port)", "--passphrase-file", file, "--allow-readable-passphrase"])
        XCTAssertFalse(displayAllowed.stderr.contains("chmod"), "the display goes on to look for a monitor: \(displayAllowed.stderr)")
        XCTAssertTrue(try duoCapture(["--help"]).stdout.contains("--allow-readable-passphrase"), "--help tells the way out")
        chmod(file, 0o600)
        let mine = try duoCapture(base + ["--duration", "1", "--subject-remote", "srt://127.0.0.1:\(port)", "--passphrase-file", file])
        XCTAssertEqual(mine.status, 0, mine.stderr)
    }
}
