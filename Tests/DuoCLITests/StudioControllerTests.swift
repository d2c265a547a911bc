import DuoCLI
import DuoCore
import Foundation
import XCTest

/// obs-websocket 5 and the HyperDeck Ethernet protocol (issue 40), driven by clients not written here:
/// obsws-python from PyPI and a HyperDeck client following Blackmagic's published protocol
/// (Tests/DuoCLITests/Fixtures/controllers.py), against one real headless run whose take is decoded.
final class StudioControllerTests: XCTestCase {
    /// A virtual environment with the PyPI clients, made once and kept in the tests' cache folder.
    static func python() throws -> String {
        let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        let env = "\(base)/duo-capture-tests/controllers-venv-1"
        let python = "\(env)/bin/python3"
        let ready = "\(env)/ready"
        if FileManager.default.fileExists(atPath: ready) { return python }
        try? FileManager.default.removeItem(atPath: env)
        for step in [["/usr/bin/python3", "-m", "venv", env],
                     [python, "-m", "pip", "install", "-q", "obsws-python==1.8.0", "simpleobsws==1.4.3"]] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: step[0])
            p.arguments = Array(step.dropFirst())
            let err = Pipe()
            p.standardError = err
            try p.run()
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw FaceClips.Failure("could not install obsws-python and simpleobsws from PyPI (\(step.joined(separator: " "))): \(said); give this machine access to PyPI")
            }
        }
        FileManager.default.createFile(atPath: ready, contents: Data())
        return python
    }

    /// One run, both servers: obsws-python connects with the password, GetVersion says duo-capture,
    /// StartRecord goes through and the event client sees RecordStateChanged started, GetRecordStatus
    /// says active, CreateRecordChapter lands in the events, StopRecord returns the path of a file that
    /// decodes, an unknown request gets 204 and the connection stays, a wrong password is refused. Then
    /// HyperDeck: banner, notify, record with the asynchronous 508 (status: record), stop, clips count
    /// counts the take, unsupported and unknown commands get their codes, an overlong line 100, quit.
    func testObsWebSocketAndHyperDeckDriveARun() throws {
        let python = try Self.python()
        let dir = try scratchDirectory(self)
        let password = "pass-\(UUID().uuidString.prefix(8))"
        let passwordFile = "\(dir)/obs-password"
        try Data("\(password)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        chmod(passwordFile, 0o600)
        let events = "\(dir)/events.jsonl"
        let socketPath = "\(dir)/control.sock"
        let run = try BackgroundRun(["--headless", "--source", "videotestsrc", "--format", "320x240@30", "--countdown", "0",
                                     "--record-dir", dir, "--control", socketPath, "--events", events, "--quiet",
                                     "--obs-websocket", "0", "--obs-websocket-password-file", passwordFile, "--hyperdeck", "0"],
                                    directory: dir)
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.wait(for: "both listeners") { run.stderr.contains("obs-websocket listening") && run.stderr.contains("HyperDeck listening") }
        let err = run.stderr
        XCTAssertFalse(err.contains(password), "a password from a file is never printed")
        func port(after marker: String) throws -> Int {
            let line = try XCTUnwrap(err.split(separator: "\n").first { $0.contains(marker) })
            let address = line.split(separator: marker)[1].split(separator: "/")[0].split(separator: " ")[0]
            return try XCTUnwrap(Int(address.split(separator: ":").last!))
        }
        let obsPort = try port(after: "ws://127.0.0.1:"), deckPort = try port(after: "tcp://127.0.0.1:")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/controllers.py").path
        let client = Process()
        client.executableURL = URL(fileURLWithPath: python)
        client.arguments = [fixture, "\(obsPort)", password, "\(deckPort)"]
        let out = Pipe(), errors = Pipe()
        client.standardOutput = out
        client.standardError = errors
        try client.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.waitUntilExit()
        XCTAssertEqual(client.terminationStatus, 0, "\(said)\n\(run.stderr)")
        let r = try XCTUnwrap(try JSONSerialization.jsonObject(with: output) as? [String: Any], said)

        // obs-websocket
        XCTAssertEqual(r["obsVersion"] as? String, "duo-capture \(DuoCaptureMain.version)", "\(r)")
        XCTAssertEqual(r["rpcVersion"] as? Int, 1)
        XCTAssertEqual(r["available"] as? [String], ObsRequests.available)
        XCTAssertEqual(r["active"] as? Bool, true, "\(r)")
        let states = (r["states"] as? [[Any]] ?? []).compactMap { $0.first as? String }
        XCTAssertEqual(states, ["OBS_WEBSOCKET_OUTPUT_STARTED", "OBS_WEBSOCKET_OUTPUT_STOPPING", "OBS_WEBSOCKET_OUTPUT_STOPPED"], "\(r)")
        let path = try XCTUnwrap(r["stopPath"] as? String, "\(r)")
        XCTAssertTrue(path.hasPrefix(dir + "/") && path.hasSuffix(".mkv"), path)
        let inspected = try duoCapture(["inspect", path, "--json"])
        XCTAssertEqual(inspected.status, 0, inspected.stderr)
        let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any])
        XCTAssertGreaterThanOrEqual(decoded["videoFrames"] as? Int ?? 0, 25, "the take StopRecord named decodes with a second of frames: \(decoded)")
        XCTAssertEqual(decoded["width"] as? Int, 320)
        XCTAssertEqual(r["unknown"] as? Int, ObsStatus.unknownRequestType.rawValue, "\(r)")
        XCTAssertEqual(r["studioMode"] as? Bool, false, "the connection stays after an unknown request")
        XCTAssertEqual(r["scene"] as? String, "Camera A")
        XCTAssertEqual(r["wrongPassword"] as? String, "OBSSDKError", "\(r)")
        XCTAssertTrue(run.stderr.contains("obs-websocket: refused 127.0.0.1: wrong password"), run.stderr)
        let lines = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains(#""event":"chapter""#) && $0.contains(#""title":"Step one""#) && $0.contains(#""take":1"#) },
                      "CreateRecordChapter is a chapter event in the take")
        XCTAssertTrue(lines.contains { $0.contains(#""cmd":"record""#) && $0.contains(#""source":"obs-websocket""#) })

        // simpleobsws (MessagePack): the same run, its own client habits.
        let simple = try XCTUnwrap(r["simple"] as? [String: Any], "\(r)")
        XCTAssertEqual(simple["identified"] as? Bool, true, "\(simple)")
        XCTAssertEqual(simple["version"] as? String, "duo-capture \(DuoCaptureMain.version)")
        XCTAssertEqual(simple["start"] as? Bool, true)
        XCTAssertEqual(simple["states"] as? [String], ["OBS_WEBSOCKET_OUTPUT_STARTED", "OBS_WEBSOCKET_OUTPUT_STOPPING", "OBS_WEBSOCKET_OUTPUT_STOPPED"])
        let secondPath = try XCTUnwrap(simple["stopPath"] as? String, "\(simple)")
        XCTAssertNotEqual(secondPath, path)
        let second = try duoCapture(["inspect", secondPath, "--json"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(simple["unknown"] as? Int, 204)
        XCTAssertEqual(simple["batch"] as? [Int], [100, 204, 100], "a batch runs every request in order")
        XCTAssertEqual(simple["wrongClose"] as? Int, ObsCloseCode.authenticationFailed.rawValue)

        // Bad input closes that connection with the protocol's code and a line; the run goes on (below).
        XCTAssertEqual(r["malformed"] as? Int, ObsCloseCode.messageDecodeError.rawValue, "\(r)")
        XCTAssertEqual(r["outOfOrder"] as? Int, ObsCloseCode.notIdentified.rawValue, "\(r)")
        XCTAssertTrue(run.stderr.contains("not a JSON object") && run.stderr.contains("a Request before Identify"), run.stderr)

        // HyperDeck
        XCTAssertEqual((r["banner"] as? [String])?.first, "500 connection info:", "\(r)")
        XCTAssertEqual(r["notify"] as? [String], ["200 ok"])
        XCTAssertEqual(r["record"] as? [String], ["200 ok"])
        let asyncRecord = r["asyncRecord"] as? [String] ?? []
        XCTAssertEqual(asyncRecord.first, "508 transport info:", "\(r)")
        XCTAssertTrue(asyncRecord.contains("status: record"), "\(asyncRecord)")
        XCTAssertEqual(r["stop"] as? [String], ["200 ok"])
        XCTAssertTrue((r["asyncStop"] as? [String] ?? []).contains("status: preview"), "\(r)")
        let before = try XCTUnwrap(r["clipsBefore"] as? Int), after = try XCTUnwrap(r["clipsAfter"] as? Int)
        XCTAssertEqual(before, 2, "the obs-websocket takes are clips")
        XCTAssertEqual(after, before + 1, "clips count counts the HyperDeck take")
        XCTAssertEqual(r["unsupported"] as? [String], ["103 unsupported"])
        XCTAssertEqual(r["unknownDeck"] as? [String], ["100 syntax error"])
        XCTAssertEqual(r["ping"] as? [String], ["200 ok"])
        XCTAssertEqual(r["overlong"] as? [String], ["100 syntax error"])
        XCTAssertEqual(r["quit"] as? [String], ["200 ok"])
        XCTAssertEqual(r["closed"] as? Bool, true)
        XCTAssertTrue(lines.contains { $0.contains(#""cmd":"record""#) && $0.contains(#""source":"hyperdeck""#) })

        let control = try ControlClient(path: socketPath)
        control.send(#"{"cmd":"quit"}"#)
        XCTAssertEqual(run.finish(), 0, run.stderr)
    }

    /// --help (and so the man page) names both servers; a LAN address without a password file is refused
    /// at start with one line, as are a password file others can read and bad values.
    func testHelpAndRefusalsAtStart() throws {
        let help = try duoCapture(["--help"])
        for words in ["--obs-websocket [ADDRESS:]PORT", "--obs-websocket-password-file FILE", "--hyperdeck [ADDRESS:]PORT", "9993"] {
            XCTAssertTrue(help.stdout.contains(words), "--help lacks \(words)")
        }
        let dir = try scratchDirectory(self)
        try Data("secret-words\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/readable"))
        chmod("\(dir)/readable", 0o644)
        let cases: [([String], String)] = [
            (["--obs-websocket", "0.0.0.0:0"], "can be reached from other machines: give --obs-websocket-password-file FILE"),
            (["--obs-websocket", "[::]:0"], "can be reached from other machines"),
            (["--obs-websocket", "0", "--obs-websocket-password-file", "\(dir)/readable"], "can be read by others (mode 644); run chmod 600"),
            (["--obs-websocket-password-file", "\(dir)/readable"], "give --obs-websocket PORT too"),
            (["--obs-websocket", "70000"], "expected [ADDRESS:]PORT"),
            (["--hyperdeck", "deck.local:9993"], "is no IP address"),
        ]
        for (arguments, problem) in cases {
            let run = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "1"] + arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n").filter { $0.contains(problem) }
            XCTAssertEqual(lines.count, 1, "\(arguments): one line saying \(problem): \(run.stderr)")
        }
    }
}
