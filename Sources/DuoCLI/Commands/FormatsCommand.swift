import DuoCore
import DuoMedia
import Foundation

/// `duo-capture formats CAMERA [CAMERA] [--format WxH@FPS] [--min-fps N]`: each camera's formats, the
/// two cameras' intersection after decoding and what it drops, and the format a session would run at
/// (exit 1 when none). A camera is `inner`, `outer`, `profile:FILE`, `caps:FILE`, `file:CLIP` or `v4l2:/dev/videoN`.
///
/// Thread: main task; synchronous.
enum FormatsCommand {
    static var help: String { tr("usage: duo-capture formats CAMERA [CAMERA] [--format WxH@FPS] [--min-fps N]; a CAMERA is inner, outer, profile:FILE, caps:FILE (caps as gst-device-monitor-1.0 prints them), file:CLIP (a video clip), v4l2:/dev/videoN, or a listed camera: id:IDENTITY, pipewire:NODE, libcamera:ID") }

    static func run(_ arguments: [String]) throws(DuoError) -> FormatReport {
        var reader = OptionReader(arguments, help: tr("see duo-capture formats --help"))
        var cameras: [(label: String, profile: CameraProfile)] = []
        var limit: VideoFormat?
        var minimumRate = FormatSelection.defaultMinimumRate
        while let arg = reader.next() {
            switch arg {
            case "--help", "-h": throw .usage(help)
            case "--format": limit = try Options.formatOption(try reader.value(arg))
            case "--min-fps": minimumRate = try reader.number(arg, 1...240)
            default:
                guard !arg.hasPrefix("-") else { throw .usage(tr("unknown option '%s' for formats; %s", arg, help)) }
                guard cameras.count < 2 else { throw .usage(tr("formats: at most two cameras (A and B), as a session has; %s", help)) }
                cameras.append(try camera(arg))
            }
        }
        guard !cameras.isEmpty else { throw .usage(tr("formats: give a camera; %s", help)) }
        return FormatReport(cameras: cameras, upTo: limit, minimumRate: minimumRate)
    }

    static func camera(_ text: String) throws(DuoError) -> (label: String, profile: CameraProfile) {
        if text.hasPrefix("caps:"), text.count > 5 {
            let path = String(text.dropFirst(5))
            return ("\(path) (caps)", try CapsFile.profile(path: path))
        }
        if text.hasPrefix("file:"), text.count > 5 {
            // A clip played as a camera: its one mode, the clip's size and frame rate.
            let path = String(text.dropFirst(5))
            return ("file:\(path)", CameraProfile(id: path, name: "file:\(path)", modes: [try ClipCamera.probe(path)]))
        }
        if text.hasPrefix("v4l2:"), text.count > 5 {
            let device = String(text.dropFirst(5))
            guard FileManager.default.fileExists(atPath: device) else {
                throw .usage(tr("camera %s does not exist; list cameras with: duo-capture cameras", device))
            }
            let modes = try CameraDiscovery.probeV4L2(device)
            return (device, CameraProfile(id: device, name: device, modes: modes))
        }
        if text.hasPrefix("id:") || text.hasPrefix("pipewire:") || text.hasPrefix("libcamera:") {
            return try listedCamera(text.hasPrefix("id:") ? String(text.dropFirst(3)) : text)
        }
        let name = text.hasPrefix("profile:") ? String(text.dropFirst(8)) : text
        guard text.hasPrefix("profile:") || text == "inner" || text == "outer" else {
            throw .usage(tr("formats: camera '%s': give inner, outer, profile:FILE, caps:FILE, file:CLIP, v4l2:/dev/videoN, id:IDENTITY or pipewire:NODE", text))
        }
        let profile = try SessionSetup.loadProfile(name)
        return ("\(profile.name) (\(profile.id))", profile)
    }

    /// A camera the device monitor lists (`cameras`), by identity: a PipeWire or libcamera camera's
    /// formats are the ones its stack offers; a V4L2 one is probed at its device.
    static func listedCamera(_ identity: String) throws(DuoError) -> (label: String, profile: CameraProfile) {
        let stacks = CameraStacks.prepare()
        let cameras = CameraDiscovery.list()
        guard let camera = cameras.first(where: { $0.identity == identity }) else {
            let known = cameras.map { "id:\($0.identity)" }.joined(separator: ", ")
            let why = identity.hasPrefix("pipewire:") ? stacks.pipeWire.map { "; \($0)" } ?? "" : ""
            throw .usage(known.isEmpty ? tr("camera id:%s is not connected (no cameras found); list cameras with: duo-capture cameras%s", identity, why)
                                       : tr("camera id:%s is not connected (connected: %s); list cameras with: duo-capture cameras%s", identity, known, why))
        }
        let modes = camera.stack == .v4l2 ? try camera.devicePath.map { path throws(DuoError) in try CameraDiscovery.probeV4L2(path) } ?? camera.modes : camera.modes
        let label = camera.stack == .v4l2 || camera.stack == .test ? camera.name : "\(camera.name) (\(camera.stack.displayName))"
        return (label, CameraProfile(id: camera.identity, name: camera.name, modes: modes))
    }
}
