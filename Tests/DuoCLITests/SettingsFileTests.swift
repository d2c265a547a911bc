import DuoCore
import DuoMedia
import DuoPlatform
import Foundation
import XCTest

/// `$XDG_CONFIG_HOME/duo-capture/duo-capture.conf`: defaults for the long options, read with GKeyFile;
/// the command line wins; every bad key or value is one line naming the file and line.
final class SettingsFileTests: XCTestCase {
    private func config(_ text: String) throws -> (home: String, path: String) {
        let home = try scratchDirectory(self)
        try FileManager.default.createDirectory(atPath: "\(home)/duo-capture", withIntermediateDirectories: true)
        let path = "\(home)/duo-capture/duo-capture.conf"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (home, path)
    }

    func testEveryKindOfValueAppliesAndTheCommandLineWins() throws {
        let dir = try scratchDirectory(self)
        let (home, path) = try config("""
            # duo-capture's defaults
            [duo-capture]
            source=videotestsrc
            format=320x240@30
            headless=true
            quiet=false
            countdown=0
            record-dir=\(dir)/takes
            audio=none
            wpm=150
            """)
        let shown = try duoCapture(["--print-config", "--format", "640x360@30"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("settings file: \(path)"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("source = videotestsrc\t(\(path):3)"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("format = 320x240@30\t(\(path):4, but the command line's --format wins)"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("command line: --format 640x360@30"), shown.stdout)
        // The settings make a headless run of a test source; the command line adds a take at its own size.
        let run = try duoCapture(["--record", "--duration", "1", "--json", "--format", "640x360@30"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        let take = try XCTUnwrap(report.takes.first)
        XCTAssertTrue(take.file.hasPrefix("\(dir)/takes/"), take.file)
        let decoded = try MediaInspector.decode(take.file)
        XCTAssertEqual([decoded.width, decoded.height], [640, 360], "the command line's format, not the file's")
        XCTAssertEqual(decoded.audio.frames, 0, "audio=none from the file")
    }

    func testABadKeyABadValueAndABadLineNameTheFileAndLine() throws {
        for (text, line, mentions) in [("[duo-capture]\nwpm=150\ncolour=blue\n", 3, "colour: unknown option --colour"),
                                       ("[duo-capture]\n\nwpm=fast\n", 3, "wpm: --wpm fast"),
                                       ("[duo-capture]\nheadless=maybe\n", 2, "headless is a switch: write headless=true or headless=false"),
                                       ("[duo-capture]\nthis is not a setting\n", 2, "not a key-value pair"),
                                       ("[camera]\nformat=320x240@30\n", 1, "unknown group [camera]")] {
            let (home, path) = try config(text)
            let run = try duoCapture(["--headless", "--duration", "1"], environment: ["XDG_CONFIG_HOME": home])
            XCTAssertEqual(run.status, 65, text)
            XCTAssertTrue(run.stderr.hasPrefix("duo-capture: error: \(path):\(line): "), run.stderr)
            XCTAssertTrue(run.stderr.contains(mentions), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)")
        }
    }
}

/// What the settings file may hold: defaults safe to keep, never one-shot actions or pipeline text; and
/// it never stops help or version, nor takes time out of proportion to its size.
final class SettingsLimitsTests: XCTestCase {
    private func config(_ text: String) throws -> (home: String, path: String) {
        let home = try scratchDirectory(self)
        try FileManager.default.createDirectory(atPath: "\(home)/duo-capture", withIntermediateDirectories: true)
        let path = "\(home)/duo-capture/duo-capture.conf"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (home, path)
    }

    func testOneShotActionsAndPipelineTextAreNotSettings() throws {
        let dir = try scratchDirectory(self)
        let written = "\(dir)/written-by-the-setting.raw"
        for (line, option) in [("record=true", "--record"), ("duration=5", "--duration"), ("timeline=\(dir)/t.jsonl", "--timeline"),
                               ("pipelines=\(dir)", "--pipelines"), ("no-encryption=true", "--no-encryption"), ("help=true", "--help"),
                               ("audio=audiotestsrc ! filesink location=\(written)", "--audio"),
                               ("audio=pulsesrc device=x ! filesink location=\(written)", "--audio")] {
            let (home, path) = try config("[duo-capture]\nsource=videotestsrc\n\(line)\n")
            let run = try duoCapture(["--headless", "--duration", "0.3", "--record-dir", dir], environment: ["XDG_CONFIG_HOME": home])
            XCTAssertEqual(run.status, 65, "\(line): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("duo-capture: error: \(path):3: "), run.stderr)
            XCTAssertTrue(run.stderr.contains("\(option) on the command line instead"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: written), line)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".mkv") }, [], "no take: \(line)")
        }
        // Kinds of source and device names are defaults worth keeping.
        for value in ["auto", "none", "test", "file:\(dir)/reading.wav", "pulsesrc device=alsa_input.usb-Blue_Yeti-00.analog-stereo",
                      "alsasrc device=hw:1,0", "pipewiresrc target-object=42"] {
            let (home, path) = try config("[duo-capture]\naudio=\(value)\n")
            let shown = try duoCapture(["--print-config"], environment: ["XDG_CONFIG_HOME": home])
            XCTAssertEqual(shown.status, 0, "\(value): \(shown.stderr)")
            XCTAssertTrue(shown.stdout.contains("audio = \(value)\t(\(path):2)"), shown.stdout)
        }
    }

    /// A run says at its start which settings came from the file.
    func testTheStartLineSaysWhichSettingsCameFromTheFile() throws {
        let (home, path) = try config("[duo-capture]\nsource=videotestsrc\nformat=320x240@30\naudio=none\nwpm=150\n")
        let run = try duoCapture(["--headless", "--duration", "0.3", "--format", "640x360@30"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(run.status, 0, run.stderr)
        let first = run.stderr.split(separator: "\n").first.map(String.init)
        XCTAssertEqual(first, "duo-capture: settings from \(path): source=videotestsrc, audio=none, wpm=150", run.stderr)
        let quiet = try duoCapture(["--headless", "--duration", "0.3", "--quiet"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertFalse(quiet.stderr.contains("settings from"), quiet.stderr)
    }

    /// 20,000 repeated keys (quadratic once: 101 s) are read in proportion to the file; the deadline is
    /// generous, the old parse took far longer.
    func testManyRepeatedKeysAreReadInLinearTime() throws {
        let (home, path) = try config("[duo-capture]\n" + String(repeating: "wpm=150\n", count: 20_000))
        for args in [["--print-config"], ["--version"], ["--headless", "--source", "videotestsrc", "--duration", "0.2"]] {
            let started = Date()
            let run = try duoCapture(args, environment: ["XDG_CONFIG_HOME": home])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertLessThan(Date().timeIntervalSince(started), 20, "\(args)")
            if args == ["--print-config"] { XCTAssertTrue(run.stdout.contains("wpm = 150\t(\(path):20001)"), run.stdout) }
        }
    }

    /// A folder (or a link loop) where the settings file goes: help and version work; a run is one line.
    func testSomethingOddAtTheSettingsPathNeverStopsHelpOrVersion() throws {
        let home = try scratchDirectory(self)
        let path = "\(home)/duo-capture/duo-capture.conf"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let help = try duoCapture(["--help"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("--print-config"), help.stdout)
        let version = try duoCapture(["--version"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertTrue(version.stdout.hasPrefix("duo-capture "), version.stdout)
        let run = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "0.2"], environment: ["XDG_CONFIG_HOME": home])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertEqual(run.stderr, "duo-capture: error: settings file \(path) is a folder; it must be a text file of key=value lines under [duo-capture]; move what is there away\n")
    }
}

/// duo-capture's own messages go through GStreamer's debug log, category `duo-capture`.
final class DiagnosticsTests: XCTestCase {
    func testTheProgramsLinesAreInGStreamersDebugLog() throws {
        let info = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "0.5"], environment: ["GST_DEBUG": "duo-capture:4", "GST_DEBUG_NO_COLOR": "1"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stderr.split(separator: "\n").contains { $0.contains("INFO") && $0.contains(" duo-capture ") && $0.contains("duo-capture: capturing videotestsrc") },
                      info.stderr)
        XCTAssertFalse(info.stderr.contains("event {"), "events are DEBUG, below this threshold")
        let verbose = try duoCapture(["--headless", "--source", "videotestsrc", "--duration", "0.5", "--verbose"], environment: ["GST_DEBUG_NO_COLOR": "1"])
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        XCTAssertTrue(verbose.stderr.split(separator: "\n").contains { $0.contains("DEBUG") && $0.contains(#"event {"camera":"videotestsrc","event":"started""#) },
                      verbose.stderr)
    }
}
