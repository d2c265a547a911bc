import CDuoTestHub
import CGStreamer
import DuoCLI
import DuoCore
import DuoMedia
import Foundation

//  The test hub: what tests, QA timelines and benchmarks need and users never meet, registered only by
//  duo-capture-testhub's entry point (duo-capture registers none of it).
//
//   - DUO_TEST_CAMERAS=DIR: a device provider whose cameras are files in DIR (they come and go as files
//     do), so hotplug takes the GstDeviceMonitor path real cameras take;
//   - DUO_BENCH_FRAME_CODE=FILE: a frame number stamped into each remote subject view and read back on
//     the display's glass (Benchmarks/remote-display.py);
//   - DUO_TEST_CLOCK_CODE=1: each camera frame's time stamped into its pixels, for the screen track's
//     sync test (ScreenTrackDesktopTests);
//   - the fault commands, on the control socket and in timelines:
//       {"cmd":"unplug","camera":"B"} / {"cmd":"replug","camera":"B"}   a camera stops, and comes back
//       {"cmd":"unplug","monitor":"subject"} / {"cmd":"replug",…}        the desktop's subject monitor
//       {"cmd":"rotate","camera":"A","degrees":90}                      a camera turned in its mount

/// Registers the test hub, first thing; a second call does nothing.
///
/// Thread: the main task (or a test), before anything starts.
public enum TestHub {
    private static let installed = Locked(false)

    public static func install() {
        var first = false
        installed.update { done in first = !done; done = true }
        guard first else { return }
        let env = ProcessInfo.processInfo.environment
        if let folder = env["DUO_TEST_CAMERAS"], !folder.isEmpty {
            MediaHooks.setups.update { $0.append { _ = duo_register_test_cameras(folder) } }
        }
        if let log = env["DUO_BENCH_FRAME_CODE"], !log.isEmpty {
            MediaHooks.remoteView.set { pad in duo_attach_frame_code(pad, log, 1) }
            MediaHooks.displayDecoded.set { pad in duo_attach_frame_code(pad, log, 0) }
        }
        if env["DUO_TEST_CLOCK_CODE"] == "1" {
            MediaHooks.cameraOut.set { pad in duo_attach_clock_code(pad) }
        }
        for name in ["unplug", "replug"] {
            CommandExtensions.register(name) { object throws(DuoError) in try HubCommands.parsePlug(name, object) }
        }
        CommandExtensions.register("rotate") { object throws(DuoError) in try HubCommands.parseRotate(object) }
        RunExtensions.handler.set(HubCommands(cameraFolder: env["DUO_TEST_CAMERAS"].flatMap { $0.isEmpty ? nil : $0 }))
    }
}

/// The test hub's fault commands: parsed from their JSON, carried out on a run.
///
/// Thread: Sendable; `handle` runs on the run director's actor.
struct HubCommands: RunExtension {
    let cameraFolder: String?

    static func camera(_ object: [String: Any]) -> Int? { (object["camera"] as? String).flatMap { ["A": 0, "B": 1][$0] } }

    static func parsePlug(_ cmd: String, _ object: [String: Any]) throws(DuoError) -> ExtensionCommand {
        if let monitor = object["monitor"] as? String {
            guard monitor == "subject" else {
                throw .usage("control: \(cmd) takes \"monitor\": \"subject\" (the operator's monitor stays), such as {\"cmd\":\"\(cmd)\",\"monitor\":\"subject\"}")
            }
            return ExtensionCommand(name: cmd, fields: ["monitor": "subject"])
        }
        guard let camera = camera(object) else {
            throw .usage("control: \(cmd) needs \"camera\": \"A\" or \"B\" (or \"monitor\": \"subject\"), such as {\"cmd\":\"\(cmd)\",\"camera\":\"B\"}")
        }
        return ExtensionCommand(name: cmd, fields: ["camera": "\(camera)"])
    }

    static func parseRotate(_ object: [String: Any]) throws(DuoError) -> ExtensionCommand {
        guard let camera = camera(object), let degrees = StrictJSON.int(object["degrees"]), [0, 90, 180, 270].contains(degrees) else {
            throw .usage("control: rotate needs \"camera\": \"A\" or \"B\" and \"degrees\": 0, 90, 180 or 270, such as {\"cmd\":\"rotate\",\"camera\":\"A\",\"degrees\":180}")
        }
        return ExtensionCommand(name: "rotate", fields: ["camera": "\(camera)", "degrees": "\(degrees)"])
    }

    func handle(_ command: ExtensionCommand, in run: RunExtensionContext) async -> String? {
        do throws(DuoError) {
            switch command.name {
            case "unplug", "replug":
                let plugged = command.name == "replug"
                if command.fields["monitor"] == "subject" { return run.subjectMonitor(plugged) }
                guard let camera = command.fields["camera"].flatMap(Int.init) else { return "no camera named" }
                // A camera from the device monitor is pulled out and plugged back through its provider (the
                // test provider's cameras), so the run hears it as it hears a real camera come and go.
                if camera < run.cameraIdentities.count, let identity = run.cameraIdentities[camera], run.watchingDevices {
                    try setTestCameraPlugged(identity, plugged)
                    return nil
                }
                try await run.holdCamera(camera, plugged)
            case "rotate":
                guard let camera = command.fields["camera"].flatMap(Int.init), let degrees = command.fields["degrees"].flatMap(Int.init) else {
                    return "no camera or degrees"
                }
                guard let session = run.capture as? CaptureSession else { return "this run's capture cannot turn a camera" }
                try await session.rotateCamera(camera, degrees: degrees)
            default:
                return "not a test hub command"
            }
            return nil
        } catch {
            return error.message
        }
    }

    /// The test hub's unplug and re-plug of a test provider's camera (`DUO_TEST_CAMERAS`): its file is
    /// moved aside, and moved back under another name, so it returns at another path with the same
    /// identity, as a USB camera re-plugged into another port does. The change arrives as any other.
    func setTestCameraPlugged(_ identity: String, _ plugged: Bool) throws(DuoError) {
        guard let folder = cameraFolder else {
            throw .usage("camera id:\(identity) is a real device: unplug it by hand")
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        func identityOf(_ file: String) -> String? {
            guard let text = try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8) else { return nil }
            return text.split(separator: "\n").first { $0.hasPrefix("serial=") }.map { String($0.dropFirst(7)) }
        }
        if plugged {
            guard let aside = files.first(where: { $0.hasSuffix(".unplugged") && identityOf($0) == identity }) else { return }
            var n = 2
            let stem = aside.replacingOccurrences(of: ".unplugged", with: "")
            while FileManager.default.fileExists(atPath: "\(folder)/\(stem)-\(n).camera") { n += 1 }
            rename("\(folder)/\(aside)", "\(folder)/\(stem)-\(n).camera")
        } else {
            guard let file = files.first(where: { $0.hasSuffix(".camera") && identityOf($0) == identity }) else {
                throw .usage("camera id:\(identity) is not plugged in")
            }
            let stem = String(file.dropLast(".camera".count))
            rename("\(folder)/\(file)", "\(folder)/\(stem).unplugged")
        }
    }

}
