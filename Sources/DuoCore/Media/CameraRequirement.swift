/// A hard requirement on the session's cameras (`--require WxH@FPS`, `--require depth`, repeatable): a
/// format at least this large and this fast, or a depth stream. Unlike `--format` (an upper bound that
/// quietly picks less), a requirement nothing meets refuses the start (exit 65) and names the best there is.
///
/// Thread: value type, Sendable; pure.
public enum CameraRequirement: Sendable, Hashable, CustomStringConvertible {
    /// At least this size (both sides) at at least this rate.
    case format(VideoFormat)
    /// The camera on the air delivers depth as well as colour.
    case depth

    public var description: String {
        switch self {
        case .format(let f): FormatReport.exact(f)
        case .depth: "depth"
        }
    }

    public static func parse(_ text: String) throws(DuoError) -> CameraRequirement {
        if text == "depth" { return .depth }
        guard let f = VideoFormat.parse(text) else {
            throw .usage(.text("--require %s: give WIDTHxHEIGHT@FPS (such as 3840x2160@60: at least that size and rate) or depth", text))
        }
        return .format(f)
    }

    /// Whether `format` is at least as large and as fast as this requirement (depth says nothing of formats).
    public func admits(_ format: VideoFormat) -> Bool {
        guard case .format(let r) = self else { return true }
        return format.width >= r.width && format.height >= r.height && format.frameRate.value >= r.frameRate.value - 0.001
    }

    /// Formats admitted by every requirement.
    public static func admitted(_ formats: [VideoFormat], by requirements: [CameraRequirement]) -> [VideoFormat] {
        formats.filter { f in requirements.allSatisfy { $0.admits(f) } }
    }
}

/// Whether a session's cameras meet the hard requirements, decided before anything opens.
///
/// - One camera: it must meet every requirement.
/// - Two cameras in virtual mode: their common formats must (the virtual camera carries no depth).
/// - Two cameras in individual mode: at least one camera must meet them all; a camera that does not is an
///   unmet wish, said at start, on the HUD and in the sidecar, not a refusal.
///
/// Thread: value type, Sendable; pure.
public struct RequirementCheck: Sendable, Equatable {
    /// One camera as the check sees it: its upright formats (nil: any format goes, the test source) and
    /// whether it delivers depth.
    public struct Camera: Sendable, Equatable {
        public var label: String
        public var formats: [VideoFormat]?
        public var depth: Bool
        public init(label: String, formats: [VideoFormat]?, depth: Bool) {
            self.label = label; self.formats = formats; self.depth = depth
        }
    }

    /// Requirements a camera in individual mode does not meet: "camera B (Small): 320x180@30, not 1920x1080@60".
    public let unmetWishes: [String]

    /// Throws an input error (exit 65) naming the best available when nothing meets the requirements.
    public init(_ requirements: [CameraRequirement], cameras: [Camera], individual: Bool,
                minimumRate: Double = FormatSelection.defaultMinimumRate) throws(DuoError) {
        guard !requirements.isEmpty, !cameras.isEmpty else { unmetWishes = []; return }
        let asked = requirements.map(\.description).joined(separator: " ")
        func best(_ formats: [VideoFormat]?) -> String {
            guard let formats else { return "any format" }
            return FormatSelection.best(of: formats, upTo: nil, minimumRate: minimumRate).map(FormatReport.exact) ?? "no format"
        }
        /// What `camera` misses, in words; empty when it meets everything.
        func misses(_ formats: [VideoFormat]?, depth: Bool) -> [String] {
            var missed: [String] = []
            let formatNeeds = requirements.filter { if case .format = $0 { return true } else { return false } }
            if !formatNeeds.isEmpty, let formats, CameraRequirement.admitted(formats, by: formatNeeds).isEmpty {
                missed.append("at best \(best(formats)), not \(formatNeeds.map(\.description).joined(separator: " and "))")
            }
            if requirements.contains(.depth), !depth { missed.append("no depth") }
            return missed
        }
        if cameras.count == 2, !individual {
            let common: [VideoFormat]?
            switch (cameras[0].formats, cameras[1].formats) {
            case (nil, nil): common = nil
            case (let a?, nil): common = a
            case (nil, let b?): common = b
            case (let a?, let b?): common = FormatSelection.intersection(a, b)
            }
            let missed = misses(common, depth: false)
            guard missed.isEmpty else {
                let depthNote = requirements.contains(.depth) ? " (the virtual camera carries no depth)" : ""
                throw .input(.text("--require %s: cameras A+B (virtual) offer %s%s; give --camera-mode individual, one camera that meets it, or a lower --require", asked, missed.joined(separator: "; "), depthNote))
            }
            unmetWishes = []
            return
        }
        var wishes: [String] = []
        var anyMeets = false
        var bests: [String] = []
        for (i, camera) in cameras.enumerated() {
            let role = cameras.count > 1 ? "camera \(i == 0 ? "A" : "B") (\(camera.label))" : "camera \(camera.label)"
            let missed = misses(camera.formats, depth: camera.depth)
            if missed.isEmpty { anyMeets = true } else { wishes.append("\(role): \(missed.joined(separator: "; "))") }
            bests.append("\(role) offers at best \(best(camera.formats))\(camera.depth ? " with depth" : ", no depth")")
        }
        guard anyMeets else {
            throw .input(.text("--require %s: no camera meets it; %s; give a camera that meets it or a lower --require", asked, bests.joined(separator: ", ")))
        }
        unmetWishes = wishes
    }
}

extension RequirementCheck.Camera {
    /// A camera source as the check sees it: its upright formats and depth (a simulated camera's profile).
    public init(_ source: CameraSource) {
        var depth = false
        if case .simulated(let profile) = source { depth = profile.depth }
        self.init(label: source.label, formats: GraphPlan.uprightFormats(source), depth: depth)
    }
}
