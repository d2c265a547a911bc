import Foundation

//  The capture graph, assembled from Pipelines/*.gst (the files say what each branch does):
//
//  camera ─▶ normalise (rotate, convert, scale, rate, fixed caps) ─▶ tee ─┬─▶ operator branch
//                                                                        ├─▶ subject branch (leaky, downscaled)
//                                                                        └─▶ per take: record branch ─▶ mux ─▶ file
//  audio (optional) ─▶ fixed caps ─▶ level ─▶ tee "at" ─┬─▶ fakesink                                  ▲
//                                                      └─▶ per take: record-audio branch ────────────┘
//
//  This file only composes text; nothing here calls GStreamer, so `duo-capture pipeline` and the tests
//  can inspect the exact graph that will run.

/// Everything the graph needs to be built, decided before any GStreamer object exists.
///
/// Thread: value type, Sendable; built at start-up, then owned (read-only) by the session actor.
public struct GraphPlan: Sendable {
    public let library: PipelineLibrary
    public let camera: CameraSource
    /// The mode the camera is opened in (native pixel format); nil for the plain test source.
    public let cameraMode: CameraProfile.Mode
    /// Camera B of a two-camera (virtual) session, and the mode it opens in for the common format.
    public let secondCamera: CameraSource?
    public let secondCameraMode: CameraProfile.Mode?
    /// Individual mode: each camera at its own best format (`--camera-mode individual`).
    public let individual: Bool
    /// Camera B's upright format in individual mode (nil in virtual mode: both share `format`).
    public let secondFormat: VideoFormat?
    /// The fixed format after normalising: what the tee, every branch and every take carry.
    public let format: VideoFormat
    public let aspect: AspectRatio?
    public let subjectSize: (width: Int, height: Int)
    public let encoder: EncoderChoice
    public let container: ContainerChoice
    public let bitrateKbps: Int
    public let audio: AudioSource
    /// Where the operator and subject branches end: fakesinks (headless) or GTK windows (desktop).
    public var sinks: SinkMode = .headless
    /// Whose face each camera (A, B) sees; the displays' mirroring follows the active one (DirectionMap).
    /// A simulated camera says it in its profile; others are taken to face the subject unless `--faces`.
    public var faces: [FacingViewer] = [.theSubject, .theSubject]
    /// `--mirror-preview`: the operator flips their own preview.
    public var operatorMirrorChoice = false
    /// Each camera's identity as the device monitor knows it (A, B); nil for a simulated camera. A camera
    /// with one is watched: pulled out, it is lost; plugged back (at any path), it is taken back.
    public var deviceIdentities: [String?] = [nil, nil]
    /// `--require`: the hard requirements the formats were chosen to meet, and what a camera in individual
    /// mode does not meet (RequirementCheck), said at start, on the HUD and in each take's sidecar.
    public let requirements: [CameraRequirement]
    public var unmetWishes: [String] = []
    /// Whether each camera (A, B) delivers depth (a simulated camera's profile says so).
    public var depth: [Bool] {
        [camera, secondCamera].compactMap { $0 }.map { if case .simulated(let p) = $0 { p.depth } else { false } }
    }
    /// What the start line and the HUD add to the format: the requirements and any unmet wish.
    public var requirementNote: String {
        var parts: [String] = []
        if !requirements.isEmpty { parts.append("required \(requirements.map(\.description).joined(separator: " "))") }
        if !unmetWishes.isEmpty { parts.append("unmet: \(unmetWishes.joined(separator: "; "))") }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: "; ")))"
    }

    /// `--follow voice`: the recogniser's model files (built from the script), and the recogniser branch
    /// on the audio tee; nil without voice-follow.
    public var voice: VoiceModelFiles?

    /// `--screen`: the monitor recorded as each take's second video track (ScreenTrack.swift); nil: none.
    public var screen: ScreenTrack?

    /// `--framing`: the face detector's branch and the hints it feeds; `.off` adds no branch.
    public var framing: FramingMode = .off
    /// The Haar cascade the detector reads (opencv-data's frontal face).
    public static let faceCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
    /// Frames per second the quick detector looks at.
    public static let framingRate = 5
    /// Frames per second the fine detector looks at (it costs about twice the quick one a frame).
    public static let framingFineRate = 1
    /// The tallest picture the fine detector sees: a face of 8 % of the camera's height is then 25
    /// pixels, just over the cascade's own 24.
    public static let framingFineHeight = 320

    /// The picture the quick detector sees: the camera's, at most 384 wide, keeping its aspect, even
    /// sizes. With the cascade's coarse steps it is sure of faces from about a quarter of the height.
    public var framingSize: (width: Int, height: Int) {
        let w = min(384, fineFramingSize.width) & ~1
        return (max(2, w), max(2, (w * format.height / max(1, format.width)) & ~1))
    }

    /// The picture the fine detector sees: the camera's, at most `framingFineHeight` tall, keeping its
    /// aspect, even sizes.
    public var fineFramingSize: (width: Int, height: Int) {
        let h = min(Self.framingFineHeight, format.height) & ~1
        return (max(2, (h * format.width / max(1, format.height)) & ~1), max(2, h))
    }

    /// The detectors' branch (Pipelines/framing.gst), attached to the camera tee while the graph plays.
    public func framingDescription(cascade: String = GraphPlan.faceCascade) throws(DuoError) -> String {
        let size = framingSize, fine = fineFramingSize
        return try library.render("framing", ["rate": "\(Self.framingRate)", "width": "\(size.width)", "height": "\(size.height)",
                                              "fineRate": "\(Self.framingFineRate)",
                                              "fineWidth": "\(fine.width)", "fineHeight": "\(fine.height)",
                                              "cascade": AudioSource.launchQuoted(cascade)])
    }

    /// How each display's picture is mirrored while camera `index` is on the air.
    public func mirrors(activeCamera index: Int) -> (operatorPreview: Bool, subjectPicture: Bool) {
        DirectionMap.mirrors(activeCameraFaces: faces[min(max(0, index), faces.count - 1)], operatorChoice: operatorMirrorChoice)
    }

    public init(library: PipelineLibrary, camera: CameraSource, secondCamera: CameraSource? = nil, individual: Bool = false,
                requested: VideoFormat?, minimumRate: Double = FormatSelection.defaultMinimumRate,
                aspect: AspectRatio?, encoder: EncoderChoice, container: ContainerChoice,
                bitrateKbps: Int? = nil, audio: AudioSource = .none, requirements: [CameraRequirement] = []) throws(DuoError) {
        self.individual = individual && secondCamera != nil
        self.requirements = requirements
        // --require: only formats that meet it are chosen from (a camera meeting none keeps its own best:
        // an unmet wish, said at start; RequirementCheck refused the start when none meets it at all).
        func meeting(_ offered: [VideoFormat]) -> [VideoFormat] {
            let met = CameraRequirement.admitted(offered, by: requirements)
            return met.isEmpty ? offered : met
        }
        self.library = library
        self.audio = audio
        self.camera = camera
        self.secondCamera = secondCamera
        self.aspect = aspect
        self.encoder = encoder
        self.container = container
        // No hidden cap: --format bounds the choice only when given.
        func best(_ cam: CameraSource) throws(DuoError) -> VideoFormat {
            guard let offered = Self.uprightFormats(cam) else { return requested ?? VideoFormat(width: 1280, height: 720, frameRate: FrameRate(30)) }
            return try FormatSelection.choose(for: cam.label, offered: meeting(offered), upTo: requested, minimumRate: minimumRate)
        }
        // Each camera's chain ends at an even size (4:2:0 video and the encoder need one): an odd camera
        // mode opens as it is and is scaled by a pixel in its normaliser. `format` is what leaves it.
        if let second = secondCamera, individual {
            // Individual cameras: each at its own best format; a swap during a take follows --swap-policy.
            let rawA = try best(camera), rawB = try best(second)
            cameraMode = Self.mode(of: camera, upright: rawA)
            secondCameraMode = Self.mode(of: second, upright: rawB)
            format = rawA.evenSized
            secondFormat = rawB.evenSized
        } else if let second = secondCamera {
            secondFormat = nil
            // The virtual camera: the formats both cameras deliver upright, after decoding (the pixel
            // format is normalised), best first; the session runs at one of them and never changes it.
            let offeredA = Self.uprightFormats(camera), offeredB = Self.uprightFormats(second)
            let common: [VideoFormat]?
            switch (offeredA, offeredB) {
            case (nil, nil): common = nil
            case (let a?, nil): common = a
            case (nil, let b?): common = b
            case (let a?, let b?): common = FormatSelection.intersection(a, b)
            }
            let raw: VideoFormat
            if let common {
                guard !common.isEmpty else {
                    throw .usage(.text("cameras A (%s) and B (%s) share no format; give two cameras with a common size and frame rate", camera.label, second.label))
                }
                raw = try FormatSelection.choose(for: "A+B (virtual)", offered: meeting(common), upTo: requested, minimumRate: minimumRate)
            } else {
                raw = requested ?? VideoFormat(width: 1280, height: 720, frameRate: FrameRate(30))
            }
            cameraMode = Self.mode(of: camera, upright: raw)
            secondCameraMode = Self.mode(of: second, upright: raw)
            format = raw.evenSized
        } else {
            if let modes = camera.modes {
                let chosen = try FormatSelection.choose(for: camera.label, offered: meeting(modes.map(\.format)), upTo: requested, minimumRate: minimumRate)
                cameraMode = Self.preferredMode(modes.filter { $0.format == chosen })
            } else {
                // Any format goes (the test source): --format, else what --require asks for, else 720p30.
                let floor = requirements.compactMap { if case .format(let f) = $0 { f } else { nil } }.last
                let f = requested ?? floor ?? VideoFormat(width: 1280, height: 720, frameRate: FrameRate(30))
                cameraMode = .init(pixelFormat: "I420", format: f)
            }
            let raw = cameraMode.format
            format = (camera.rotation % 180 == 0 ? raw : VideoFormat(width: raw.height, height: raw.width, frameRate: raw.frameRate)).evenSized
            secondCameraMode = nil
            secondFormat = nil
        }
        // Whatever picked it, the session's format is one duo-capture records: every size and bitrate
        // below is computed within range.
        for f in [format, secondFormat].compactMap({ $0 }) where !f.isRecordable {
            throw .input(.text("format %s is beyond what duo-capture records (%s to %s pixels a side, 1 to 1000 fps); give --format within it", f, VideoFormat.sides.lowerBound, VideoFormat.sides.upperBound))
        }
        // The subject view needs little: at most 640 wide, keeping the camera's aspect, even sizes.
        let sw = min(640, format.width) & ~1
        subjectSize = (sw, max(2, (sw * format.height / format.width) & ~1))
        self.bitrateKbps = bitrateKbps ?? Self.defaultBitrate(format)
    }

    /// The most a default bitrate asks for, kbps: x264enc's own limit (2 Gbit/s).
    static let largestDefaultBitrate = 2_048_000

    /// A bitrate for the format, kbps: a tenth of a bit per pixel per frame, within 1000 and
    /// `largestDefaultBitrate`; computed in floating point, so no format's size can overflow it.
    static func defaultBitrate(_ format: VideoFormat) -> Int {
        let kbps = Double(format.width) * Double(format.height) * format.frameRate.value.rounded() / 10_000
        guard kbps.isFinite else { return 1000 }
        return Int(min(max(1000, kbps), Double(largestDefaultBitrate)))
    }

    /// What the start line adds when a camera's size was odd: the size it delivers and the even one its
    /// chain scales it to (4:2:0 video and the encoder need even sides); nil when every side is even.
    public var evenSizeNote: String? {
        var notes: [String] = []
        for (index, mode) in [cameraMode, secondCameraMode].enumerated() {
            guard let mode, let source = index == 0 ? camera : secondCamera else { continue }
            let raw = Self.upright(mode.format, source.rotation)
            let even = format(ofCamera: index)
            guard raw.width != even.width || raw.height != even.height else { continue }
            let from = "\(raw.width)x\(raw.height)", to = "\(even.width)x\(even.height)"
            notes.append(secondCamera == nil ? tr("odd size %s scaled to %s", from, to)
                         : tr("camera %1$s's odd size %2$s scaled to %3$s", index == 0 ? "A" : "B", from, to))
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// A sensor format turned upright by `rotation` degrees.
    static func upright(_ format: VideoFormat, _ rotation: Int) -> VideoFormat {
        rotation % 180 == 0 ? format : VideoFormat(width: format.height, height: format.width, frameRate: format.frameRate)
    }

    /// The upright format camera `index` (0 = A, 1 = B) delivers: the common one in virtual mode.
    public func format(ofCamera index: Int) -> VideoFormat {
        index == 1 ? (secondFormat ?? format) : format
    }

    /// A camera's formats as they leave the source chain (rotated upright); nil when any format goes.
    static func uprightFormats(_ camera: CameraSource) -> [VideoFormat]? {
        camera.modes?.map { camera.rotation % 180 == 0 ? $0.format : VideoFormat(width: $0.format.height, height: $0.format.width, frameRate: $0.format.frameRate) }
    }

    /// The mode a camera opens in to deliver `upright` (after its rotation).
    static func mode(of camera: CameraSource, upright: VideoFormat) -> CameraProfile.Mode {
        let sensor = camera.rotation % 180 == 0 ? upright : VideoFormat(width: upright.height, height: upright.width, frameRate: upright.frameRate)
        guard let modes = camera.modes else { return .init(pixelFormat: "I420", format: sensor) }
        return preferredMode(modes.filter { $0.format == sensor })
    }

    /// Prefer a raw mode over MJPEG at the same size and rate: no decode cost.
    static func preferredMode(_ candidates: [CameraProfile.Mode]) -> CameraProfile.Mode {
        candidates.first { $0.pixelFormat != "jpeg" } ?? candidates[0]
    }

    /// videoflip's `video-direction` per clockwise rotation. (Its deprecated `method` property is ignored
    /// when set from a launch description in GStreamer 1.22: frames passed through unrotated.)
    static let rotationDirections = [0: "identity", 90: "90r", 180: "180", 270: "90l"]
    /// videoflip's `video-direction` for a clockwise turn of 0, 90, 180 or 270 degrees.
    public static func rotationDirection(_ degrees: Int) -> String { rotationDirections[degrees] ?? "identity" }

    public func cameraDescription(name: String = GraphElement.cameraSource.rawValue) throws(DuoError) -> String {
        try cameraDescription(camera, mode: cameraMode, name: name)
    }

    func cameraDescription(_ camera: CameraSource, mode cameraMode: CameraProfile.Mode, name: String,
                           output: VideoFormat? = nil) throws(DuoError) -> String {
        let format = output ?? self.format
        var values = [
            "name": name,
            "camera_format": cameraMode.pixelFormat,
            "camera_width": "\(cameraMode.format.width)",
            "camera_height": "\(cameraMode.format.height)",
            "camera_rate": cameraMode.format.frameRate.capsValue,
        ]
        let file: String
        switch camera {
        case .testSource:
            file = "camera-test"
            values["pattern"] = "smpte"
        case .simulated(let profile):
            file = "camera-test"
            values["pattern"] = profile.testPattern
        case .v4l2(let device, _, _):
            file = cameraMode.pixelFormat == "jpeg" ? "camera-v4l2-jpeg" : "camera-v4l2-raw"
            values["device"] = device
        case .service(let stack, let target, _, _, _):
            file = stack == .libcamera ? "camera-libcamera" : cameraMode.pixelFormat == "jpeg" ? "camera-pipewire-jpeg" : "camera-pipewire-raw"
            values["target"] = AudioSource.launchQuoted(target)
        case .file:
            // The clip plays in a pipeline of its own (DuoMedia's ClipCamera) into this channel.
            file = "camera-file"
            values["channel"] = Self.clipChannel(forSource: name)
        }
        let source = try library.render(file, values)
        let normalise = try library.render("normalise", [
            "name": name,
            "rotation": Self.rotationDirection(camera.rotation),
            "width": "\(format.width)", "height": "\(format.height)", "rate": format.frameRate.capsValue,
        ])
        return "\(source) ! \(normalise)"
    }

    /// The normaliser alone (Pipelines/normalise.gst, at any size), for asking GStreamer which pixel
    /// formats a camera's chain takes (`CameraIntake`).
    public static func intakeDescription(_ library: PipelineLibrary) throws(DuoError) -> String {
        try library.render("normalise", ["name": "intake", "rotation": "identity", "width": "320", "height": "240", "rate": "30/1"])
    }

    /// The channel a `--camera file:PATH` clip is played into (intervideosink → intervideosrc), one per
    /// camera source element and process.
    public static func clipChannel(forSource name: String) -> String {
        "duo-capture-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
    }

    /// The clip player's pipeline for a `--camera file:PATH` camera whose source is `name`: the file
    /// decoded, converted to the camera's mode and paced by its sink at the clip's own frame rate
    /// (Pipelines/camera-file-player.gst). nil for any other camera.
    public func clipPlayerDescription(camera index: Int) throws(DuoError) -> String? {
        let source = index == 0 ? camera : secondCamera
        let mode = index == 0 ? cameraMode : secondCameraMode
        guard case .file(let path, _, _)? = source, let mode else { return nil }
        return try library.render("camera-file-player", [
            "location": AudioSource.launchQuoted(path),
            "channel": Self.clipChannel(forSource: GraphElement.cameraSource.forCamera(index)),
            "camera_width": "\(mode.format.width)", "camera_height": "\(mode.format.height)",
            "camera_rate": mode.format.frameRate.capsValue,
        ])
    }

    /// The running graph without takes: camera ─▶ tee ─▶ operator, subject.
    /// `includingVoice`: the recogniser branch too (the printed graph); a session attaches it itself, so
    /// it can be replaced when the script changes.
    public func liveDescription(includingVoice: Bool = true) throws(DuoError) -> String {
        let mirrored = mirrors(activeCamera: 0)
        let operatorMirror = mirrored.operatorPreview ? "horiz" : "identity"
        let op = sinks == .headless
            ? try library.render("operator-headless", [
                "operator_reader": operatorPictureRead ? try library.render("operator-mirror", ["operator_mirror": operatorMirror]) + " " : "",
            ])
            : try library.render("operator-desktop", [
                "operator_caps": pictureCaps(operatorPictureSize ?? (format.width, format.height)),
                "operator_mirror": operatorMirror,
                "operator_max_rate": "\(operatorMaxRate ?? Int(Int32.max))",
            ])
        let subject = try library.render("subject-\(sinks.rawValue)", [
            "subject_width": "\(subjectSize.width)", "subject_height": "\(subjectSize.height)",
            "subject_caps": pictureCaps(subjectPictureSize ?? subjectSize),
            "subject_mirror": mirrored.subjectPicture ? "horiz" : "identity",
        ])
        var d: String
        if let second = secondCamera, let secondMode = secondCameraMode {
            // Both cameras run all the time, each normalised to the same caps; the selector passes one.
            // drop-backwards: a swap must not step timestamps back (GStreamer 1.22).
            d = "input-selector name=selector drop-backwards=true ! tee name=t allow-not-linked=true  t. ! \(op)  t. ! \(subject)"
            d += "  \(try cameraDescription(camera, mode: cameraMode, name: GraphElement.cameraSource.forCamera(0))) ! selector.sink_0"
            d += "  \(try cameraDescription(second, mode: secondMode, name: GraphElement.cameraSource.forCamera(1), output: format(ofCamera: 1))) ! selector.sink_1"
        } else {
            d = "\(try cameraDescription()) ! tee name=t allow-not-linked=true  t. ! \(op)  t. ! \(subject)"
        }
        if let source = audio.sourceDescription {
            d += "  " + (try library.render("audio", ["audio_source": source]))
            if includingVoice, let voice { d += "  at. ! " + (try voiceDescription(voice)) }
        }
        if let screen { d += "  " + (try screenDescription(screen)) }
        return d
    }

    /// The recogniser branch for `files` (Pipelines/voice-follow.gst), attached to the audio tee.
    public func voiceDescription(_ files: VoiceModelFiles) throws(DuoError) -> String {
        try library.render("voice-follow", ["hmm": AudioSource.launchQuoted(files.acousticModel),
                                            "lm": AudioSource.launchQuoted(files.languageModel),
                                            "dict": AudioSource.launchQuoted(files.dictionary)])
    }

    /// The branch that sends the subject view to a remote display (Pipelines/remote-subject.gst), rendered
    /// `width`×`height` for it. `name` prefixes its elements.
    public func remoteDescription(name: String, address: SRTAddress, width: Int, height: Int, passphrase: String?,
                                  latencyMilliseconds: Int) throws(DuoError) -> String {
        let uri = address.isListener ? "srt://:\(address.port)?mode=listener" : "srt://\(address.host!):\(address.port)?mode=caller"
        // About 0.1 bit per pixel per frame: sharp text at 1080p60 in ~6 Mbit/s, bounded for a LAN.
        let kbps = max(1000, min(12000, Int(Double(width * height) * format.frameRate.value * 0.1 / 1000)))
        return try library.render("remote-subject", [
            "name": name, "uri": AudioSource.launchQuoted(uri), "width": "\(width)", "height": "\(height)",
            "keyint": "\(max(1, Int(format.frameRate.value.rounded())))", "kbps": "\(kbps)",
            "latency": "\(latencyMilliseconds)",
            "encryption": passphrase.map { "passphrase=\"\(AudioSource.launchQuoted($0))\" pbkeylen=32" } ?? "",
        ])
    }

    /// Whether every camera delivers one picture size (one camera, or the virtual camera): only then can
    /// the preview branches scale to a fixed size. Individual cameras of different sizes leave the size to
    /// the sinks, so a swap never stretches one camera's picture to the other's shape.
    public var picturesHaveOneSize: Bool { secondFormat.map { $0.width == format.width && $0.height == format.height } ?? true }

    /// The size each desktop preview branch scales its pictures to, once, before the display shows them
    /// unscaled: the operator monitor's and the subject monitor's fit, decided from the monitors before
    /// the graph is built (a size change while playing makes gtksink in GStreamer 1.22 map new frames with
    /// the old size and show nothing: seen). nil: the camera's size, and the small headless subject size.
    public var operatorPictureSize: (width: Int, height: Int)?
    /// The desktop operator preview's frame rate cap (`PreviewPacing`); nil: every camera frame.
    public var operatorMaxRate: Int?
    /// Headless: whether something reads the operator picture's pixels (a test sampling its luma), so it
    /// is mirrored as the desktop's would be. Otherwise no one sees it and it gets no per-frame work.
    public var operatorPictureRead = false
    /// The interval between the operator preview's frames, ns: the camera's, or the cap's.
    public var operatorFrameInterval: Int64 {
        let camera = format.frameRate.frameDurationNanoseconds
        guard let cap = operatorMaxRate, cap > 0 else { return camera }
        return max(camera, camera * Int64((format.frameRate.value / Double(cap)).rounded()))
    }
    public var subjectPictureSize: (width: Int, height: Int)?

    /// The operator preview's caps at `size` (set while playing when its window changes size).
    public func operatorCaps(_ size: (width: Int, height: Int)) -> String { pictureCaps(size) }

    /// A desktop size capsfilter's caps (`operator_size`, `subject_size`): BGRx for gtksink, pinned to
    /// `size` only when every camera delivers one picture size.
    func pictureCaps(_ size: (width: Int, height: Int)) -> String {
        picturesHaveOneSize ? "video/x-raw,format=BGRx,width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1"
            : "video/x-raw,format=BGRx"
    }

    /// Renders every file this plan will use (the live graph and a take's branches), so a broken pipeline
    /// file is reported before anything starts rather than at the first take.
    public func validate() throws(DuoError) {
        _ = try liveDescription()
        _ = try recordDescription(location: "check.\(container.rawValue)")
        _ = try recordAudioDescription()
        _ = try recordScreenDescription()
    }

    /// Elements a take needs beyond the live graph; checked before the graph starts.
    public var recordElements: [String] {
        var e = [encoder.element, container.element, "h264parse", "videocrop", "queue", "filesink"]
        if audio != .none { e += ["audioconvert", "audioresample"] + container.audioEncoderElements }
        if screen != nil { e += ["videoconvert", "videoscale"] }
        return e
    }

    /// A take's audio branch (nil without audio): starts with record_audio_queue, ends in `record_mux.`.
    public func recordAudioDescription() throws(DuoError) -> String? {
        guard audio != .none else { return nil }
        return try library.render("record-audio", [
            "audio_encoder": try library.render(container.audioEncoderFile, [:]),
        ])
    }

    /// One take's bin: the video branch (record_queue … record_sink) and, with audio, the audio branch
    /// (record_audio_queue … record_mux).
    public func recordDescription(location: String, format recorded: VideoFormat? = nil) throws(DuoError) -> String {
        var d = try recordVideoDescription(location: location, format: recorded ?? format)
        if let audio = try recordAudioDescription() { d += "  \(audio)" }
        if let screen = try recordScreenDescription() { d += "  \(screen)" }
        return d
    }

    /// One take's video branch; its first element is the record queue, its last the file sink.
    public func recordVideoDescription(location: String, format: VideoFormat? = nil) throws(DuoError) -> String {
        let format = format ?? self.format
        let bitrateKbps = format == self.format ? self.bitrateKbps : Self.defaultBitrate(format)
        let crop = aspect?.centredCrop(frameWidth: format.width, frameHeight: format.height) ?? (left: 0, right: 0, top: 0, bottom: 0)
        let fps = Int(format.frameRate.value.rounded())
        let encoderValues = [
            "bitrate_kbps": "\(bitrateKbps)", "bitrate_bps": "\(bitrateKbps * 1000)",
            "keyframe_interval": "\(max(1, fps))",
        ]
        let escaped = AudioSource.launchQuoted(location)
        return try library.render("record", [
            "crop_left": "\(crop.left)", "crop_right": "\(crop.right)",
            "crop_top": "\(crop.top)", "crop_bottom": "\(crop.bottom)",
            "encoder": try library.render("encoder-\(encoder.rawValue)", encoderValues),
            "muxer": try library.render("muxer-\(container.rawValue)", [:]),
            "location": escaped,
        ])
    }

    /// The whole graph with one take attached, in a form `gst-launch-1.0 -e` runs as is.
    public func launchDescription(recordingTo location: String?) throws(DuoError) -> String {
        var d = try liveDescription()
        // What the session adds beside the graph it parses: each clip camera's player (a pipeline of its
        // own in a run; here a chain of the same one, so the printed graph plays the clip once), and the
        // face detector's branch on the tee.
        for index in 0..<(secondCamera == nil ? 1 : 2) {
            if let player = try clipPlayerDescription(camera: index) { d += "  " + player }
        }
        if framing != .off { d += "  t. ! " + (try framingDescription()) }
        // A named microphone's leg, which the session attaches to the mixer itself.
        if let leg = try microphoneDescription(generation: 1) { d += "  \(leg) ! \(GraphElement.audioMixer.rawValue)." }
        if let location {
            d += "  t. ! " + (try recordVideoDescription(location: location))
            if let audio = try recordAudioDescription() { d += "  at. ! \(audio)" }
            if let screen = try recordScreenDescription() { d += "  st. ! \(screen)" }
        }
        return d
    }
}

/// Where the operator and subject branches end: `Pipelines/operator-<mode>.gst`, `subject-<mode>.gst`.
///
/// Thread: value type, Sendable.
public enum SinkMode: String, Sendable {
    /// fakesinks: CI, `--headless`.
    case headless
    /// gtksinks in the operator and subject windows; the subject branch behind a valve (`subject_valve`).
    case desktop
}
