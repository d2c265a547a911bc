import DuoCore
import DuoMedia
import Foundation
import XCTest

/// duo-capture installed like a desktop program (Scripts/install.sh into a temporary prefix, with the
/// binary already built for the tests): run from another folder, it finds its data under
/// PREFIX/share/duo-capture and records; the man page renders; the desktop entry and completion are there.
final class InstallTests: XCTestCase {
    /// The duo-capture built for the tests (installed as is: no release build in the suite).
    private var builtBinary: String {
        let next = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("duo-capture")
        return FileManager.default.fileExists(atPath: next.path) ? next.path : root.appendingPathComponent(".build/debug/duo-capture").path
    }

    private var root: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    func testAnInstalledDuoCaptureRunsFromAnywhere() throws {
        let prefix = try scratchDirectory(self)
        let built = builtBinary
        let install = try shell("bash Scripts/install.sh --prefix '\(prefix)' --binary '\(built)'", in: root.path)
        XCTAssertEqual(install.status, 0, install.stderr)
        for file in ["bin/duo-capture", "share/duo-capture/Pipelines/record.gst", "share/duo-capture/Assets/cameras/inner.json",
                     "share/applications/duo-capture.desktop", "share/man/man1/duo-capture.1.gz",
                     "share/bash-completion/completions/duo-capture"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), file)
        }
        // From a folder with no checkout above it, with no DUO_CAPTURE_DATA: the data comes from share/.
        let elsewhere = try scratchDirectory(self)
        let run = try shell("'\(prefix)/bin/duo-capture' --headless --camera inner --format 320x180@30 --record --countdown 0 --duration 1 "
                            + "--record-dir '\(elsewhere)/takes' --json --quiet", in: elsewhere, environment: ["DUO_CAPTURE_DATA": ""])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        XCTAssertGreaterThan(try MediaInspector.decode(try XCTUnwrap(report.takes.first).file).video.frames, 20)
        let man = try shell("man -l '\(prefix)/share/man/man1/duo-capture.1.gz'", in: elsewhere, environment: ["MANWIDTH": "100", "MANPAGER": "cat", "LC_ALL": "C.UTF-8"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertTrue(man.stdout.contains("DUO-CAPTURE(1)") && man.stdout.contains("--subject-remote"), String(man.stdout.prefix(400)))
        let desktop = try String(contentsOfFile: "\(prefix)/share/applications/duo-capture.desktop", encoding: .utf8)
        XCTAssertTrue(desktop.contains("Exec=\(prefix)/bin/duo-capture --accessory teleprompter"), desktop)
        let completion = try shell("source '\(prefix)/share/bash-completion/completions/duo-capture' && complete -p duo-capture", in: elsewhere)
        XCTAssertEqual(completion.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "complete -F _duo_capture duo-capture")
        try assertRunsByName(binDirectory: "\(prefix)/bin")
    }

    /// The installed man page is made from --help with real sections and in UTF-8: `man` shows NAME,
    /// SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, FILES and SEE ALSO as headings, the help's —, … and →
    /// as themselves (help2man made them "???" and put everything under DESCRIPTION), and options as
    /// typed. Installs only (no recording): a few seconds.
    func testTheInstalledManPageHasItsSectionsInUTF8() throws {
        let prefix = try scratchDirectory(self)
        let install = try shell("bash Scripts/install.sh --prefix '\(prefix)' --binary '\(builtBinary)'", in: root.path)
        XCTAssertEqual(install.status, 0, install.stderr)
        let page = "\(prefix)/share/man/man1/duo-capture.1.gz"
        let raw = try shell("zcat '\(page)'", in: prefix)
        XCTAssertFalse(raw.stdout.contains("???"), "the page's source has ??? where the help has UTF-8")
        let man = try shell("man -l '\(page)'", in: prefix, environment: ["MANWIDTH": "100", "MANPAGER": "cat", "LC_ALL": "C.UTF-8"])
        XCTAssertEqual(man.status, 0, man.stderr)
        let headings = man.stdout.split(separator: "\n").map(String.init).filter { $0.first?.isUppercase == true }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES", "FILES", "SEE ALSO"] {
            XCTAssertTrue(headings.contains(section), "no \(section) section; headings: \(headings)")
        }
        XCTAssertFalse(man.stdout.contains("???"), String(man.stdout.prefix(600)))
        for text in ["—", "…", "duo-capture --headless --source videotestsrc", "--subject-remote srt://HOST:PORT"] {
            XCTAssertTrue(man.stdout.contains(text), "the rendered page lacks \(text)")
        }
        // Each option is a term of its own, not run into the prose: "--record" starts a line.
        XCTAssertTrue(man.stdout.contains("\n       --record\n"), "--record is not a term of its own")
    }

    /// As a user types it after installing: `duo-capture` found on PATH, from a folder that is neither
    /// the binary's nor a checkout, in a fresh account (HOME set, no XDG variables): it finds its data,
    /// records into $HOME/Videos/duo-capture and keeps its state under $HOME, not the password file's home.
    private func assertRunsByName(binDirectory: String) throws {
        let home = try scratchDirectory(self) + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let elsewhere = try scratchDirectory(self)
        var fresh: [String: String] = ["HOME": home, "PATH": "\(binDirectory):/usr/bin:/bin", "DUO_CAPTURE_DATA": ""]
        for name in ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_VIDEOS_DIR"] { fresh[name] = "" }
        let which = try shell("command -v duo-capture", in: elsewhere, environment: fresh)
        XCTAssertEqual(which.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(binDirectory)/duo-capture")
        let plain = try shell("duo-capture --headless --source videotestsrc --duration 1", in: elsewhere, environment: fresh)
        XCTAssertEqual(plain.status, 0, "typed by name from \(elsewhere): \(plain.stderr)")
        XCTAssertFalse(plain.stderr.contains("cannot find"), plain.stderr)
        let script = "\(elsewhere)/talk.md"
        try "# Hello\n\nA short script for a fresh account.\n".write(toFile: script, atomically: true, encoding: .utf8)
        let take = try shell("duo-capture --headless --camera inner --format 320x180@30 --script talk.md --record --countdown 0 --duration 1 --json --quiet",
                             in: elsewhere, environment: fresh)
        XCTAssertEqual(take.status, 0, take.stderr)
        let report = try JSONDecoder().decode(RunReport.self, from: Data(take.stdout.utf8))
        let file = try XCTUnwrap(report.takes.first).file
        XCTAssertTrue(file.hasPrefix("\(home)/Videos/duo-capture/"), "the take goes under the fresh HOME: \(file)")
        XCTAssertGreaterThan(try MediaInspector.decode(file).video.frames, 20)
        let remembered = try String(contentsOfFile: "\(home)/.local/state/duo-capture/last-script", encoding: .utf8)
        XCTAssertTrue(remembered.contains("talk.md"), "state under $HOME/.local/state: \(remembered)")
    }

    /// The Debian package (Scripts/build-deb.sh, packaging the binary built for the tests) installs with
    /// dpkg, runs from anywhere, and purging it leaves none of its files behind.
    func testTheDebianPackageInstallsRunsAndPurgesClean() throws {
        let out = try scratchDirectory(self)
        let built = builtBinary
        let build = try shell("bash Scripts/build-deb.sh --out '\(out)' --binary '\(built)'", in: root.path)
        XCTAssertEqual(build.status, 0, build.stderr)
        let deb = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix(".deb") })
        // The Chinese catalogue is in the package (issue 41).
        let contents = try shell("dpkg-deb -c '\(out)/\(deb)'", in: out)
        XCTAssertTrue(contents.stdout.contains("./usr/share/locale/zh_CN/LC_MESSAGES/duo-capture.mo"), "the .deb has no zh_CN catalogue")
        let info = try shell("dpkg-deb -f '\(out)/\(deb)' Depends", in: out)
        XCTAssertTrue(info.stdout.contains("gstreamer1.0-plugins-good") && info.stdout.contains("libgtk-3-0"), info.stdout)
        addTeardownBlock { _ = try? self.shell("dpkg --purge duo-capture", in: "/") }
        let install = try shell("dpkg -i '\(out)/\(deb)'", in: out)
        XCTAssertEqual(install.status, 0, install.stderr)
        let page = try shell("zcat /usr/share/man/man1/duo-capture.1.gz", in: out)
        XCTAssertTrue(page.stdout.contains(".SH OPTIONS") && page.stdout.contains(".SH EXAMPLES"), "the .deb's man page has no OPTIONS/EXAMPLES")
        XCTAssertFalse(page.stdout.contains("???"), "the .deb's man page has ??? where the help has UTF-8")
        let files = try shell("dpkg -L duo-capture", in: out).stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(files.contains("/usr/bin/duo-capture") && files.contains("/usr/share/duo-capture/Pipelines/record.gst"), "\(files.prefix(10))")
        let run = try shell("/usr/bin/duo-capture --headless --camera inner --format 320x180@30 --duration 0.5", in: out, environment: ["DUO_CAPTURE_DATA": ""])
        XCTAssertEqual(run.status, 0, run.stderr)
        try assertRunsByName(binDirectory: "/usr/bin")
        let purge = try shell("dpkg --purge duo-capture", in: out)
        XCTAssertEqual(purge.status, 0, purge.stderr)
        let left = files.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        XCTAssertEqual(left, [], "purge left files behind")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/usr/share/duo-capture"))
    }

    private func shell(_ command: String, in directory: String, environment: [String: String] = [:]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { if v.isEmpty { env.removeValue(forKey: k) } else { env[k] = v } }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}
