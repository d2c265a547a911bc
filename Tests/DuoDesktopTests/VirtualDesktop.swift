import Foundation
import XCTest

/// A real two-monitor X desktop for end-to-end tests: Xorg with the dummy video driver on a free display
/// number, two 1280x720 RandR outputs side by side (DUMMY0 at 0,0 and DUMMY1 at 1280,0), and openbox
/// (fullscreen needs a window manager). Everything it starts is stopped by pid in `stop()`, which the
/// test registers as a teardown block so it runs even when the test fails.
///
/// Needs xserver-xorg-core, xserver-xorg-video-dummy, x11-xserver-utils, x11-utils, openbox, imagemagick
/// and xdotool (`Scripts/install-deps.sh --desktop`), and root for Xorg (CI runs as root).
///
/// Thread: the test's thread.
final class VirtualDesktop: TestDesktop {
    static let mode = "1280x720_60"
    /// Subject monitor modes besides 1280x720 (CVT reduced blanking; the dummy driver takes any).
    static let modelines: [String: [String]] = [
        "1920x1080_60": ["138.50", "1920", "1968", "2000", "2080", "1080", "1083", "1088", "1111", "+HSync", "-Vsync"],
        "3840x2160_60": ["533.25", "3840", "3888", "3920", "4000", "2160", "2163", "2168", "2222", "+HSync", "-Vsync"],
    ]
    /// The subject monitor's mode (DUMMY1).
    let subjectMode: String
    private(set) var display = ""
    let directory: URL
    private var processes: [Process] = []

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `subjectSize`: the subject monitor's `WxH` (1280x720, 1920x1080 or 3840x2160).
    init(monitors: Int = 2, subjectSize: String = "1280x720", test: XCTestCase) throws {
        subjectMode = subjectSize + "_60"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("duo-desktop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        test.addTeardownBlock { [self] in stop() }

        // A free number can be taken between the check and the start (another test run): then Xorg exits
        // at once, and the next number is tried.
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/dummy.conf")
        var number = Self.freeDisplayNumber(from: 60 + Int(getpid() % 200))
        for attempt in 1...5 {
            display = ":\(number)"
            let xorg = try launch("/usr/bin/Xorg", [display, "-noreset", "-config", config.path,
                                                     "-logfile", directory.appendingPathComponent("Xorg.log").path, "-nolisten", "tcp"],
                                  log: "xorg.out")
            do {
                try waitFor("the X server on \(display)", timeout: 30) {
                    guard xorg.isRunning else { throw Failure("Xorg exited: \(self.tail("Xorg.log"))") }
                    return (try? self.run("xdpyinfo", []))?.status == 0
                }
                break
            } catch {
                if xorg.isRunning || attempt == 5 { throw error }
                number = Self.freeDisplayNumber(from: number + 1)
            }
        }
        try xrandr(["--newmode", Self.mode, "74.48", "1280", "1336", "1472", "1664", "720", "721", "724", "746", "-HSync", "+Vsync"])
        try xrandr(["--addmode", "DUMMY0", Self.mode])
        try xrandr(["--addmode", "DUMMY1", Self.mode])
        if let line = Self.modelines[subjectMode] {
            try xrandr(["--newmode", subjectMode] + line)
            try xrandr(["--addmode", "DUMMY1", subjectMode])
        }
        try xrandr(["--output", "DUMMY0", "--mode", Self.mode, "--pos", "0x0", "--primary"])
        if monitors > 1 { try plugSubjectMonitor() }
        let wm = try launch("/usr/bin/openbox", ["--sm-disable"], log: "openbox.out")
        try waitFor("openbox to manage the screen", timeout: 30) {
            guard wm.isRunning else { throw Failure("openbox exited: \(self.tail("openbox.out"))") }
            return (try? self.run("xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"]))?.stdout.contains("window id") ?? false
        }
    }

    /// Switches DUMMY1 on at 1280,0. The query afterwards makes the server re-probe its outputs, as a
    /// real hotplug does: without it the dummy driver leaves DUMMY1 "disconnected" in the cached
    /// resources that GDK reads (XRRGetScreenResourcesCurrent), and GDK would not list it (seen).
    func plugSubjectMonitor() throws {
        try xrandr(["--output", "DUMMY1", "--mode", subjectMode, "--pos", "1280x0"])
        try xrandr(["-q"])
    }
    func unplugSubjectMonitor() throws {
        try xrandr(["--output", "DUMMY1", "--off"])
        try xrandr(["-q"])
    }

    func xrandr(_ args: [String]) throws {
        let r = try run("xrandr", args)
        guard r.status == 0 else { throw Failure("xrandr \(args.joined(separator: " ")) failed: \(r.stderr)") }
    }

    /// Presses keys as a user would (XTEST, to the focused window).
    func key(_ keys: String...) throws {
        let r = try run("xdotool", ["key"] + keys)
        guard r.status == 0 else { throw Failure("xdotool key \(keys) failed: \(r.stderr)") }
    }

    /// The whole root window (both monitors), as `import -window root` captures it.
    func screenshot() throws -> Screenshot {
        let r = try run("import", ["-window", "root", "-depth", "8", "ppm:-"], binary: true)
        guard r.status == 0 else { throw Failure("import failed: \(r.stderr)") }
        return try Screenshot(ppm: r.data)
    }

    /// Starts a program on this display; it is stopped (by pid) with the desktop.
    func launch(_ path: String, _ args: [String], log: String, environment: [String: String] = [:],
                directory cwd: URL? = nil) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["HOME"] = directory.path
        env["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path  // remembered speeds stay here
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let cwd { p.currentDirectoryURL = cwd }
        try startLogged(p, to: directory.appendingPathComponent(log))
        processes.append(p)
        return p
    }

    struct Result { let status: Int32; let stdout: String; let stderr: String; let data: Data }

    /// Runs a tool to completion on this display.
    func run(_ tool: String, _ args: [String], binary: Bool = false) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        return try runTool(tool, args, environment: env, binary: binary)
    }

    func stop() {
        stopAll(&processes)
        if ProcessInfo.processInfo.environment["DUO_KEEP"] == nil { try? FileManager.default.removeItem(at: directory) }
    }

    func tail(_ log: String) -> String { tailOf(directory.appendingPathComponent(log)) }

    /// A display number with no server and no lock file, away from the usual :0…:20 and from other tests.
    static func freeDisplayNumber(from start: Int) -> Int {
        var n = start
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") || FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") {
            n += 1
        }
        return n
    }
}

/// A desktop the end-to-end tests drive (X11 or Wayland): screenshots and the logs of what it runs.
///
/// Thread: the test's thread.
protocol TestDesktop: AnyObject {
    func screenshot() throws -> Screenshot
    func tail(_ log: String) -> String
}

/// Runs a tool to completion with `environment`; its output, and the status.
func runTool(_ tool: String, _ args: [String], environment: [String: String], binary: Bool = false,
             directory: URL? = nil) throws -> VirtualDesktop.Result {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [tool] + args
    p.environment = tool == "tesseract" ? ocrEnvironment(environment) : environment
    if let directory { p.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return VirtualDesktop.Result(status: p.terminationStatus, stdout: binary ? "" : String(decoding: data, as: UTF8.self),
                                 stderr: String(decoding: errData, as: UTF8.self), data: data)
}

/// `environment` for tesseract: one OpenMP thread. Its threads spin waiting for each other, which on a
/// loaded two-core machine doubles the time of every read (1.2 s instead of 2.6 s on the same image);
/// the text read is the same.
func ocrEnvironment(_ environment: [String: String]) -> [String: String] {
    environment.merging(["OMP_THREAD_LIMIT": "1"]) { old, _ in old }
}

/// Starts `process` with its output and errors going to `log` (created empty).
func startLogged(_ process: Process, to log: URL) throws {
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let out = try FileHandle(forWritingTo: log)
    process.standardOutput = out
    process.standardError = out
    try process.run()
}

/// Stops processes newest first, by pid: SIGTERM, then SIGKILL after 5 s.
func stopAll(_ processes: inout [Process]) {
    for p in processes.reversed() where p.isRunning {
        kill(p.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
    }
    processes.removeAll()
}

/// The last 1,500 characters of a log file.
func tailOf(_ file: URL) -> String {
    String(((try? String(contentsOf: file, encoding: .utf8)) ?? "").suffix(1500))
}

/// A failed step of a desktop test, with what was seen. Thread: value type.
struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Polls `condition` (a check of something observable: a server answering, an event in a file, pixels)
/// until it holds. Never a fixed sleep: it returns as soon as the condition is true.
func waitFor(_ what: String, timeout: Double, interval: Double = 0.05, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        if Date() > deadline { throw Failure("timed out after \(Int(timeout)) s waiting for \(what)") }
        usleep(UInt32(interval * 1e6))
    }
}

/// An RGB screenshot.
///
/// Thread: value type; the test's thread.
struct Screenshot {
    let width: Int, height: Int
    let rgb: [UInt8]

    init(ppm data: Data) throws {
        // P6\n<w> <h>\n<max>\n<binary>
        let bytes = [UInt8](data)
        var fields: [String] = []
        var i = 0
        while fields.count < 4 && i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09 { i += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: "#") { while i < bytes.count, bytes[i] != 0x0a { i += 1 }; continue }
            var f = ""
            while i < bytes.count, !(bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09) { f.append(Character(UnicodeScalar(bytes[i]))); i += 1 }
            fields.append(f)
        }
        i += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255",
              bytes.count - i >= w * h * 3 else { throw Failure("not an 8-bit PPM screenshot (\(fields))") }
        width = w; height = h
        rgb = Array(bytes[i..<(i + w * h * 3)])
    }

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let o = (y * width + x) * 3
        return (Int(rgb[o]), Int(rgb[o + 1]), Int(rgb[o + 2]))
    }

    /// Statistics of a region, sampled every `step` pixels.
    struct Stats: CustomStringConvertible {
        var dark = 0.0, bright = 0.0, saturated = 0.0
        /// Rows (of the sample grid) containing bright pixels, grouped into bands separated by dark rows.
        var brightBands = 0
        var description: String {
            String(format: "dark %.3f, bright %.3f, saturated %.3f, bright bands %d", dark, bright, saturated, brightBands)
        }
    }

    func stats(x: Int, y: Int, width w: Int, height h: Int, step: Int = 2) -> Stats {
        var s = Stats()
        var n = 0
        var inBand = false
        for yy in stride(from: y, to: min(height, y + h), by: step) {
            var rowBright = 0
            for xx in stride(from: x, to: min(width, x + w), by: step) {
                let p = pixel(xx, yy)
                let luma = (299 * p.r + 587 * p.g + 114 * p.b) / 1000
                let chroma = max(p.r, p.g, p.b) - min(p.r, p.g, p.b)
                n += 1
                if luma < 60 { s.dark += 1 }
                if luma > 170 && chroma < 60 { s.bright += 1; rowBright += 1 }
                if chroma > 120 { s.saturated += 1 }
            }
            if rowBright > 0 && !inBand { s.brightBands += 1 }
            inBand = rowBright > 0
        }
        let total = Double(max(1, n))
        s.dark /= total; s.bright /= total; s.saturated /= total
        return s
    }
}

extension VirtualDesktop {
    /// Where the window whose title matches `named` (an xdotool regular expression) is on the root window,
    /// as xwininfo says; nil while there is none.
    func windowGeometry(named name: String) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let id = try run("xdotool", ["search", "--name", name]).stdout.split(separator: "\n").first.map(String.init) else { return nil }
        let info = try run("xwininfo", ["-id", id]).stdout
        func value(_ key: String) -> Int? {
            info.split(separator: "\n").first { $0.contains(key) }.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        guard let x = value("Absolute upper-left X"), let y = value("Absolute upper-left Y"), let w = value("Width"), let h = value("Height") else { return nil }
        return (x, y, w, h)
    }
}
