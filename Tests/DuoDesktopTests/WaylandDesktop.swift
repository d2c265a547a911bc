import Foundation
import XCTest

/// A real Wayland desktop for end-to-end tests: sway with its headless backend (software rendering),
/// output HEADLESS-1 (1280x720 at 0,0, the operator's) and, once plugged in, HEADLESS-2 (1280x720 at
/// 1280,0, the subject's). sway 1.7 (Debian 12) can add a headless output (`create_output`) but not take
/// one away: `output HEADLESS-2 disable` answers success, logs "Failed to commit output HEADLESS-2" and
/// the output stays (seen), and `output … unplug` only came with sway 1.8. So the subject output is
/// plugged in during a run here, and unplugging is tested on X11. sway refuses to run as root, so it runs as the unprivileged user `duo-wayland` (created
/// here when missing) with its own XDG_RUNTIME_DIR; the program under test and the tools (grim for
/// screenshots, wtype for keys, swaymsg to switch an output off and on) connect to its socket as root.
/// Everything it starts is stopped by pid in `stop()`, registered as a teardown block.
///
/// sway runs with direct scan-out off (`-Dnoscanout`, one of its debug switches). On this headless backend,
/// with both cores busy, an output whose fullscreen window sway scans out directly stayed the empty
/// workspace's grey in 2 to 5 runs of 10, while the program kept drawing and committing frames (its frame
/// clock ticking) and `swaymsg output * dpms off; … on` or a fullscreen toggle showed the right picture at
/// once; the same binary with scan-out off painted both outputs in 12 runs of 12. The scan-out path here
/// is the test backend's, not a monitor's, so it is left out; what remains is the program's own painting.
///
/// Needs sway, grim and wtype (`Scripts/install-deps.sh --desktop`), and root (CI runs as root).
///
/// Thread: the test's thread.
final class WaylandDesktop: TestDesktop {
    static let user = "duo-wayland"
    let directory: URL
    let runtime: URL
    private(set) var socket = ""
    private(set) var swaySocket = ""
    private var processes: [Process] = []

    init(test: XCTestCase) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("duo-wayland-\(UUID().uuidString)")
        runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        test.addTeardownBlock { [self] in stop() }
        try Self.ensureUser()
        let config = runtime.appendingPathComponent("sway.conf")
        try """
            output HEADLESS-1 mode --custom 1280x720@60Hz pos 0 0
            output HEADLESS-2 mode --custom 1280x720@60Hz pos 1280 0
            default_border none
            focus_follows_mouse no
            """.write(to: config, atomically: true, encoding: .utf8)
        try run("chown", ["-R", "\(Self.user):\(Self.user)", runtime.path], check: true)
        try run("chmod", ["0700", runtime.path], check: true)

        let sway = try launch("/usr/bin/setpriv", ["--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups",
                                                    "/usr/bin/sway", "-Dnoscanout", "-c", config.path], log: "sway.log",
                              environment: ["HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path, "WLR_BACKENDS": "headless",
                                            "WLR_HEADLESS_OUTPUTS": "1", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"],
                              asCompositor: true)
        try waitFor("sway's sockets", timeout: 30) {
            guard sway.isRunning else { throw Failure("sway exited: \(self.tail("sway.log"))") }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
            guard let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
                  let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") }) else { return false }
            socket = wayland
            swaySocket = runtime.appendingPathComponent(ipc).path
            return (try? self.run("swaymsg", ["-t", "get_outputs"]))?.stdout.contains("HEADLESS-1") ?? false
        }
    }

    /// The unprivileged user sway runs as (a system account without a login shell).
    static func ensureUser() throws {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/id")
        check.arguments = [user]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        if check.terminationStatus == 0 { return }
        let add = Process()
        add.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
        add.arguments = ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user]
        try add.run()
        add.waitUntilExit()
        guard add.terminationStatus == 0 else { throw Failure("useradd \(user) failed (the Wayland tests need root)") }
    }

    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtime.path, "WAYLAND_DISPLAY": socket, "SWAYSOCK": swaySocket, "GDK_BACKEND": "wayland"]
    }

    /// Plugs in HEADLESS-2 (the configuration places it at 1280,0, 1280x720). Once per desktop.
    func plugSubjectOutput() throws { try run("swaymsg", ["create_output"], check: true) }

    /// A key press and release through the compositor's virtual keyboard (wtype), to the focused window.
    /// wtype makes a new virtual keyboard each call, and a key sent before the client has taken that
    /// keyboard's keymap is dropped (seen: 2 keys of 6 arrived); `-s 150` lets the keymap arrive first.
    func key(_ name: String) throws { try run("wtype", ["-s", "150", "-k", name], check: true) }

    /// Every output side by side, as grim captures them.
    func screenshot() throws -> Screenshot {
        let r = try run("grim", ["-t", "ppm", "-"], binary: true)
        guard r.status == 0 else { throw Failure("grim failed: \(r.stderr)") }
        return try Screenshot(ppm: r.data)
    }

    /// Starts a program on this desktop (as root, unless `asCompositor`); stopped by pid with the desktop.
    @discardableResult
    func launch(_ path: String, _ args: [String], log: String, environment extra: [String: String] = [:],
                asCompositor: Bool = false) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        if !asCompositor {
            for (k, v) in environment { env[k] = v }
            env["HOME"] = directory.path
            env["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        }
        for (k, v) in extra { env[k] = v }
        p.environment = env
        try startLogged(p, to: directory.appendingPathComponent(log))
        processes.append(p)
        return p
    }

    @discardableResult
    func run(_ tool: String, _ args: [String], binary: Bool = false, check: Bool = false) throws -> VirtualDesktop.Result {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        if !socket.isEmpty { for (k, v) in environment { env[k] = v } }
        let result = try runTool(tool, args, environment: env, binary: binary)
        if check, result.status != 0 { throw Failure("\(tool) \(args.joined(separator: " ")) failed: \(result.stderr)") }
        return result
    }

    func stop() {
        stopAll(&processes)
        try? FileManager.default.removeItem(at: directory)
    }

    func tail(_ log: String) -> String { tailOf(directory.appendingPathComponent(log)) }
}
