import Foundation
import XCTest

/// A private PipeWire session for tests: its own 0700 `XDG_RUNTIME_DIR`, a session D-Bus, `pipewire` and
/// `wireplumber`, and virtual cameras and microphones published as `gst-launch-1.0` children
/// (`pipewiresink mode=provide`). Pass `environment` to every duo-capture child so it talks to this
/// daemon and nothing else. Everything it starts is stopped by pid in `stop()`, which the test registers
/// as a teardown block so it runs even when the test fails.
///
/// Needs pipewire, pipewire-bin, wireplumber, gstreamer1.0-pipewire and dbus (`Scripts/install-deps.sh
/// --desktop`); runs as root (CI does).
///
/// Checked on Debian 12 (PipeWire 0.3.65, WirePlumber 0.4.13):
/// - A `pipewiresrc` whose downstream caps are ANY (straight into fakesink) connects as
///   `Stream/Input/Data`, WirePlumber finds no target of that media type and destroys it ("unconnected").
///   With any `video/x-raw` caps downstream it is linked to `target-object=<node.name>` and frames flow.
/// - Stopping a GstDeviceMonitor that runs PipeWire's provider corrupts the heap now and then (see
///   `CameraDiscovery.retire`); a consumer that crashed can leave a published node that never delivers
///   again (publish it anew).
/// - A published camera's `node.name` stays the same when it is published again; `object.serial` and
///   the node id do not.
/// - A virtual microphone published in F32LE mono 48 kHz (PipeWire's own sample format) is listed by
///   `gst-device-monitor-1.0 Audio/Source`. The first `pipewiresrc` after publishing sometimes gets no
///   buffers (later ones do); S16LE failed every other time.
///
/// Thread: the test's thread.
final class PipeWireDaemon {
    /// The private runtime directory (0700): `pipewire-0`, `bus`, the logs.
    let directory: URL
    /// What a child needs to reach this daemon: `XDG_RUNTIME_DIR` and `DBUS_SESSION_BUS_ADDRESS`.
    let environment: [String: String]
    private var daemons: [Process] = []
    /// Published nodes by `node.name`.
    private var published: [String: Process] = [:]
    private var stopped = false

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Starts dbus-daemon, pipewire and wireplumber, and returns when WirePlumber has published its
    /// `default` metadata (it links streams from then on).
    init(test: XCTestCase) throws {
        // Short: the sockets' paths must fit in sun_path (108 bytes).
        directory = URL(fileURLWithPath: "/tmp/duo-pw-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        environment = ["XDG_RUNTIME_DIR": directory.path,
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/bus"]
        test.addTeardownBlock { [self] in stop() }

        // The session bus starts no service on demand (no <servicedir>): with xdg-desktop-portal installed
        // (`--desktop`), a call to org.freedesktop.portal.Desktop would start the real portal, which on
        // this bus has no backend; a test that wants a portal runs its own (ScreenCastPortalTests).
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let bus = try launch("/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--nopidfile"], log: "dbus.log")
        daemons.append(bus)
        try Self.waitFor("the session bus", timeout: 20) {
            guard bus.isRunning else { throw Failure("dbus-daemon exited: \(self.tail("dbus.log"))") }
            return FileManager.default.fileExists(atPath: "\(self.directory.path)/bus")
        }
        let pipewire = try launch("/usr/bin/pipewire", [], log: "pipewire.log")
        daemons.append(pipewire)
        try Self.waitFor("the PipeWire daemon", timeout: 20) {
            guard pipewire.isRunning else { throw Failure("pipewire exited: \(self.tail("pipewire.log"))") }
            return FileManager.default.fileExists(atPath: "\(self.directory.path)/pipewire-0")
                && (try? self.run("/usr/bin/pw-cli", ["info", "0"]))?.status == 0
        }
        let wireplumber = try launch("/usr/bin/wireplumber", [], log: "wireplumber.log")
        daemons.append(wireplumber)
        try Self.waitFor("WirePlumber", timeout: 20) {
            guard wireplumber.isRunning else { throw Failure("wireplumber exited: \(self.tail("wireplumber.log"))") }
            return (try? self.run("/usr/bin/pw-cli", ["ls", "Metadata"]))?.stdout.contains("metadata.name = \"default\"") ?? false
        }
    }

    /// Publishes a virtual camera node called `name` (its `node.name` and description) offering `caps`
    /// (for example `video/x-raw,format=YUY2,width=1280,height=720,framerate=30/1`), and returns when the
    /// daemon lists it. Give the caps a format: without one the node offers a format with no pixel
    /// format at all, which no consumer can convert (not-negotiated).
    func publishCamera(_ name: String, caps: String = "video/x-raw,format=YUY2,width=640,height=480,framerate=30/1",
                       pattern: String = "smpte") throws {
        try publish(name, ["videotestsrc", "is-live=true", "pattern=\(pattern)", "!", caps, "!",
                           "pipewiresink", "mode=provide",
                           "stream-properties=props,media.class=Video/Source,node.name=\(name),node.description=\(name)"])
    }

    /// Publishes several cameras at once (name, caps) and returns when the daemon lists them all: their
    /// processes start together, so a test of many nodes waits for them once.
    func publishCameras(_ cameras: [(name: String, caps: String)]) throws {
        for camera in cameras {
            try launchPublisher(camera.name, ["videotestsrc", "is-live=true", "!", camera.caps, "!", "pipewiresink", "mode=provide",
                                              "stream-properties=props,media.class=Video/Source,node.name=\(camera.name),node.description=\(camera.name)"])
        }
        for camera in cameras { try waitPublished(camera.name) }
    }

    /// Publishes a virtual microphone (`Audio/Source`, a sine tone, F32LE mono 48 kHz) called `name`.
    func publishMicrophone(_ name: String, frequency: Int = 440) throws {
        try publish(name, ["audiotestsrc", "is-live=true", "wave=sine", "freq=\(frequency)", "!",
                           "audio/x-raw,format=F32LE,rate=48000,channels=1", "!",
                           "pipewiresink", "mode=provide",
                           "stream-properties=props,media.class=Audio/Source,node.name=\(name),node.description=\(name)"])
    }

    /// Removes a published node (its process ends, as a camera pulled out), and returns when the daemon
    /// no longer lists it.
    func unpublish(_ name: String) throws {
        guard let process = published.removeValue(forKey: name) else { throw Failure("\(name) is not published") }
        end(process)
        try Self.waitFor("\(name) to leave PipeWire", timeout: 20) { !self.hasNode(name) }
    }

    /// Whether the daemon lists a node with this `node.name`.
    func hasNode(_ name: String) -> Bool {
        (try? run("/usr/bin/pw-cli", ["ls", "Node"]))?.stdout.contains("node.name = \"\(name)\"") ?? false
    }

    /// Stops the published nodes, then wireplumber, pipewire and the bus, each by pid, and removes the
    /// runtime directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        for process in published.values { end(process) }
        published = [:]
        for process in daemons.reversed() { end(process) }
        daemons = []
        try? FileManager.default.removeItem(at: directory)
    }

    /// The last lines of one of the daemon's logs (for failure messages).
    func tail(_ log: String, lines: Int = 15) -> String {
        let text = (try? String(contentsOf: directory.appendingPathComponent(log), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    private func publish(_ name: String, _ graph: [String]) throws {
        try launchPublisher(name, graph)
        try waitPublished(name)
    }

    private func launchPublisher(_ name: String, _ graph: [String]) throws {
        if let old = published.removeValue(forKey: name) { end(old) }
        published[name] = try launch("/usr/bin/gst-launch-1.0", ["-q"] + graph, log: "publish-\(name).log")
    }

    private func waitPublished(_ name: String) throws {
        guard let process = published[name] else { throw Failure("\(name) is not published") }
        try Self.waitFor("\(name) to appear in PipeWire", timeout: 20) {
            guard process.isRunning else { throw Failure("publishing \(name) failed: \(self.tail("publish-\(name).log"))") }
            return self.hasNode(name)
        }
    }

    private func launch(_ executable: String, _ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["PIPEWIRE_REMOTE", "PIPEWIRE_RUNTIME_DIR", "PULSE_SERVER", "DISPLAY", "WAYLAND_DISPLAY"] {
            env.removeValue(forKey: key)
        }
        for (k, v) in environment { env[k] = v }
        // WirePlumber remembers default nodes and stream targets under XDG_STATE_HOME: keep that private too.
        env["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        process.environment = env
        let logURL = directory.appendingPathComponent(log)
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logURL)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs a PipeWire tool against this daemon to its end (at most 10 s).
    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> Run {
        try runToEnd(URL(fileURLWithPath: executable), arguments, removing: ["PIPEWIRE_REMOTE"], environment: environment, timeout: 10)
    }

    /// SIGTERM, then SIGKILL if it has not ended within 5 s; always reaped.
    private func end(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Polls `condition` until it holds or `timeout` seconds pass (then throws, naming `what`).
    static func waitFor(_ what: String, timeout: Double, interval: Double = 0.05, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return }
            guard Date() < deadline else { throw Failure("timed out after \(timeout) s waiting for \(what)") }
            usleep(useconds_t(interval * 1_000_000))
        }
    }
}
