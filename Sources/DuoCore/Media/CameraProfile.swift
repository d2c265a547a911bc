import Foundation

/// A camera described by the formats it offers. Shipped profiles (Assets/cameras/) simulate the Duo's two
/// front cameras; `--camera profile:FILE` loads a user's own. Real cameras produce the same shape from
/// their probed caps.
///
/// Thread: immutable value, Sendable.
public struct CameraProfile: Sendable, Equatable {
    public struct Mode: Sendable, Equatable {
        /// The camera's native pixel format as GStreamer names it (NV12, YUY2, I420, ...); MJPEG is `jpeg`.
        public let pixelFormat: String
        public let format: VideoFormat
        /// The pixel format of a mode whose caps name none (a PipeWire node can offer one): nothing can
        /// convert it.
        public static let unnamedPixelFormat = "no pixel format"
        public init(pixelFormat: String, format: VideoFormat) {
            self.pixelFormat = pixelFormat
            self.format = format
        }
    }

    public let id: String
    public let name: String
    /// Degrees clockwise the sensor image must be rotated to be upright (0, 90, 180, 270). Applied once,
    /// in the source chain.
    public let rotation: Int
    /// `videotestsrc` pattern used when this profile is simulated, so the two cameras look different.
    public let testPattern: String
    public let modes: [Mode]
    /// Whether the camera also delivers depth (the Duo's front cameras each do; their virtual camera,
    /// and so duo-capture's, carries none).
    public let depth: Bool
    /// Whose face the camera sees (the profile's `faces`); nil: not said (taken as the subject's).
    public let faces: FacingViewer?

    public init(id: String, name: String, rotation: Int = 0, testPattern: String = "smpte", modes: [Mode], depth: Bool = false,
                faces: FacingViewer? = nil) {
        self.id = id
        self.name = name
        self.rotation = rotation
        self.testPattern = testPattern
        self.modes = modes
        self.depth = depth
        self.faces = faces
    }

    public var formats: [VideoFormat] { modes.map(\.format) }

    /// The JSON schema, also what `--help` points users at.
    private struct File: Decodable {
        struct Entry: Decodable {
            let pixelFormat: String?
            let width: Int
            let height: Int
            let frameRates: [Double]
        }
        let id: String
        let name: String
        let rotation: Int?
        let testPattern: String?
        let formats: [Entry]
        let depth: Bool?
        let faces: String?
    }

    static let knownPixelFormats: Set<String> = ["NV12", "YUY2", "I420", "UYVY", "YV12", "RGB", "BGR", "BGRx", "GRAY8", "jpeg"]
    static let testPatterns: Set<String> = ["smpte", "ball", "snow", "black", "white", "pinwheel", "spokes", "gradient", "colors", "smpte75", "circular", "checkers-8", "zone-plate", "bar"]

    /// Parses a profile. Every failure is one line naming the file, the problem and the fix.
    public static func parse(_ data: Data, source: String) throws(DuoError) -> CameraProfile {
        let file = try JSONProblem.decode(File.self, from: data) { problem in
            switch problem {
            case .missing(let key, _):
                .input(.text("camera profile %s: missing \"%s\"; see Assets/cameras/inner.json for the format", source, key))
            case .wrongType(let path):
                .input(.text("camera profile %s: wrong type at %s; see Assets/cameras/inner.json for the format", source, path.isEmpty ? Said.text("the top level") : Said(verbatim: path)))
            case .null, .invalid, .notJSON:
                .input(.text("camera profile %s is not valid JSON; see Assets/cameras/inner.json for the format", source))
            }
        }
        guard !file.id.isEmpty, file.id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .input(.text("camera profile %s: \"id\" must be letters, digits, - or _", source))
        }
        let rotation = file.rotation ?? 0
        guard [0, 90, 180, 270].contains(rotation) else {
            throw .input(.text("camera profile %s: \"rotation\" must be 0, 90, 180 or 270, not %s", source, rotation))
        }
        let pattern = file.testPattern ?? "smpte"
        guard testPatterns.contains(pattern) else {
            throw .input(.text("camera profile %s: unknown \"testPattern\" %s; use one of %s", source, pattern, testPatterns.sorted().joined(separator: ", ")))
        }
        guard !file.formats.isEmpty else {
            throw .input(.text("camera profile %s: \"formats\" is empty; list at least one {width, height, frameRates}", source))
        }
        var modes: [Mode] = []
        for (i, entry) in file.formats.enumerated() {
            let pixel = entry.pixelFormat ?? "NV12"
            guard knownPixelFormats.contains(pixel) else {
                throw .input(.text("camera profile %s: formats[%s] has unknown pixelFormat %s; use one of %s", source, i, pixel, knownPixelFormats.sorted().joined(separator: ", ")))
            }
            // An odd side is allowed, as real cameras have them: the camera's chain scales it to even.
            guard (16...8192).contains(entry.width), (16...8192).contains(entry.height) else {
                throw .input(.text("camera profile %s: formats[%s] size %sx%s must be between 16 and 8192", source, i, entry.width, entry.height))
            }
            guard !entry.frameRates.isEmpty else {
                throw .input(.text("camera profile %s: formats[%s] has no frameRates", source, i))
            }
            for fps in entry.frameRates {
                guard let rate = FrameRate.parse(String(fps)) else {
                    throw .input(.text("camera profile %s: formats[%s] frame rate %s must be between 1 and 1000", source, i, fps))
                }
                modes.append(Mode(pixelFormat: pixel, format: VideoFormat(width: entry.width, height: entry.height, frameRate: rate)))
            }
        }
        return CameraProfile(id: file.id, name: file.name, rotation: rotation, testPattern: pattern, modes: modes, depth: file.depth ?? false,
                             faces: try file.faces.map { text throws(DuoError) in
                                 guard let v = FacingViewer(rawValue: text) else {
                                     throw .input(.text("%s: faces is '%s'; give \"operator\" or \"subject\" (whose face the camera sees)", source, text))
                                 }
                                 return v
                             })
    }

}
