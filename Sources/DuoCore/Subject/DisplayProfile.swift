import Foundation

/// A subject monitor's reserved regions, read from `Assets/displays/*.json`: per-edge insets and occlusion
/// rectangles (for example a webcam clipped to the top centre of the screen). All values are fractions of
/// the monitor: x, width, left and right of its width; y, height, top and bottom of its height. So one
/// profile fits the monitor at any resolution.
///
/// ```json
/// { "insets": { "top": 0.0, "left": 0.02, "bottom": 0.03, "right": 0.02 },
///   "occlusions": [ { "kind": "camera", "x": 0.45, "y": 0.0, "width": 0.1, "height": 0.08 } ],
///   "readingLine": 0.25 }
/// ```
///
/// Thread: value type, Sendable; loaded off the streaming thread.
public struct DisplayProfile: Sendable, Hashable {
    /// Per-edge insets, fractions of the screen (thread: value type).
    public struct Insets: Sendable, Hashable, Codable {
        public var top: Double, left: Double, bottom: Double, right: Double
        public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
            self.top = top; self.left = left; self.bottom = bottom; self.right = right
        }
        /// Edges left out are 0.
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            top = try c.decodeIfPresent(Double.self, forKey: .top) ?? 0
            left = try c.decodeIfPresent(Double.self, forKey: .left) ?? 0
            bottom = try c.decodeIfPresent(Double.self, forKey: .bottom) ?? 0
            right = try c.decodeIfPresent(Double.self, forKey: .right) ?? 0
        }
    }

    /// Something in front of the screen the text must avoid (thread: value type).
    public struct Occlusion: Sendable, Hashable, Codable {
        public enum Kind: String, Sendable, Hashable, Codable {
            /// A camera lens: the reading line sits next to it so the subject's eye line meets the lens.
            case camera
            /// Anything else the text must avoid (a bezel notch, a tally light, a clamp).
            case other
        }
        public var kind: Kind
        public var x: Double, y: Double, width: Double, height: Double
        public init(kind: Kind, x: Double, y: Double, width: Double, height: Double) {
            self.kind = kind; self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    public var insets: Insets
    public var occlusions: [Occlusion]
    /// Where the reading line sits, as a fraction of the height; nil places it next to the camera
    /// occlusion (or a third of the way down without one).
    public var readingLine: Double?
    /// Where the camera's lens is (`"lens"`, or `--lens`, which overrides it): the reading line goes next
    /// to it and the self-view to the far side. nil: the older layout (reading line a third of the way down).
    public var lens: LensPosition?

    public static let plain = DisplayProfile(insets: Insets(), occlusions: [], readingLine: nil)

    public init(insets: Insets, occlusions: [Occlusion], readingLine: Double?, lens: LensPosition? = nil) {
        self.insets = insets; self.occlusions = occlusions; self.readingLine = readingLine; self.lens = lens
    }

    private struct File: Decodable {
        var description: String?
        var insets: Insets?
        var occlusions: [Occlusion]?
        var readingLine: Double?
        var lens: LensPosition?
    }

    public static func load(path: String) throws(DuoError) -> DisplayProfile {
        let fm = FileManager.default
        try InputFile.requireRegular(path, .text("display profile"), hint: .text("give a JSON file like Assets/displays/plain.json"))
        let size = ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= 1_048_576 else {
            throw .input(.text("display profile %s is over 1 MB; a profile is a small JSON file like Assets/displays/plain.json", path))
        }
        guard let data = fm.contents(atPath: path) else {
            throw .input(.text("cannot read display profile %s; check its permissions", path))
        }
        return try parse(data: data, name: path)
    }

    public static func parse(data: Data, name: String = "display profile") throws(DuoError) -> DisplayProfile {
        let file = try JSONProblem.decode(File.self, from: data) { problem in
            switch problem {
            case .missing(_, let path):
                .input(.text("%s: missing key '%s'; see Assets/displays/webcam-top-centre.json", name, path))
            case .wrongType(let path):
                .input(.text("%s: '%s' has the wrong type; see Assets/displays/webcam-top-centre.json", name, path))
            case .null(let path):
                .input(.text("%s: '%s' is null; give a number; see Assets/displays/webcam-top-centre.json", name, path))
            case .invalid(let path):
                .input(.text("%s: '%s' is invalid (kind must be camera or other; lens top, top-left, top-right, bottom or behind); see Assets/displays/webcam-top-centre.json", name, path))
            case .notJSON:
                .input(.text("%s is not valid JSON; fix it or start from Assets/displays/plain.json", name))
            }
        }
        let insets = file.insets ?? Insets()
        for (edge, value) in [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)] {
            guard value.isFinite, (0...0.45).contains(value) else {
                throw .input(.text("%s: insets.%s is %s; give a fraction of the screen from 0 to 0.45", name, edge, value))
            }
        }
        guard insets.top + insets.bottom < 0.8, insets.left + insets.right < 0.8 else {
            throw .input(.text("%s: the insets leave less than 20%% of the screen; make them smaller", name))
        }
        let occlusions = file.occlusions ?? []
        for (i, o) in occlusions.enumerated() {
            let ok = [o.x, o.y, o.width, o.height].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }
                && o.x + o.width <= 1.0001 && o.y + o.height <= 1.0001
            guard ok else {
                throw .input(.text("%s: occlusions[%s] must lie inside the screen (x, y, width, height are fractions 0…1)", name, i))
            }
        }
        if let r = file.readingLine, !(r.isFinite && (0.05...0.95).contains(r)) {
            throw .input(.text("%s: readingLine is %s; give a fraction of the height from 0.05 to 0.95, or leave it out", name, r))
        }
        return DisplayProfile(insets: insets, occlusions: occlusions, readingLine: file.readingLine, lens: file.lens)
    }

    /// The lens a camera occlusion stands for: on the top edge (a corner when in the outer thirds) or the
    /// bottom. nil without a camera occlusion.
    public var cameraOcclusionLens: LensPosition? {
        guard let camera = occlusions.first(where: { $0.kind == .camera }) else { return nil }
        let midX = camera.x + camera.width / 2, midY = camera.y + camera.height / 2
        if midY >= 0.5 { return .bottom }
        return midX < 1.0 / 3 ? .topLeft : midX > 2.0 / 3 ? .topRight : .top
    }

    /// The profile as seen in the reader's space when the picture is mirrored for beam-splitter glass:
    /// the physical occlusions and insets flip with the picture.
    public func mirrored(_ mirror: MirrorFlags) -> DisplayProfile {
        var p = self
        p.lens = lens?.mirrored(mirror)
        if mirror.horizontal {
            swap(&p.insets.left, &p.insets.right)
            p.occlusions = p.occlusions.map { var o = $0; o.x = 1 - o.x - o.width; return o }
        }
        if mirror.vertical {
            swap(&p.insets.top, &p.insets.bottom)
            p.occlusions = p.occlusions.map { var o = $0; o.y = 1 - o.y - o.height; return o }
            p.readingLine = p.readingLine.map { 1 - $0 }
        }
        return p
    }
}

/// Where the subject view's parts go on one monitor size: the text area after insets and occlusions,
/// the reading line and the prompt panel around it. Computed in the reader's space (before mirroring).
///
/// Thread: value type, Sendable.
public struct SubjectGeometry: Sendable, Hashable {
    /// The monitor minus insets (edge by edge) minus the strips cut off to clear each occlusion.
    public let content: FrameRect
    /// Occlusions in pixels, reader space.
    public let occlusions: [FrameRect]
    /// The vertical centre of the reading line's band, in pixels.
    public let readingLineY: Double
    /// The text panel: the text area's whole height (the text runs from the top inset to the bottom one,
    /// as on a prompter), at most `maximumPanelWidth` wide.
    public let panel: FrameRect
    /// The self-view (the camera picture), in the content's corner far from the lens; nil when off.
    public let selfView: FrameRect?
    /// Where the text, countdown and panel may go: the content minus the band the self-view takes on the
    /// far side (the whole content without a self-view).
    public let textArea: FrameRect
    /// The gap kept around the self-view, pixels.
    public let margin: Double

    public init(profile: DisplayProfile, width: Int, height: Int, lineHeight: Double,
                maximumPanelWidth: Double, linesAbove: Int = 2, linesBelow: Int = 4,
                selfView: (width: Int, height: Int)? = nil) {
        let w = Double(width), h = Double(height)
        var c = FrameRect(x: 0, y: 0, width: w, height: h)
            .inset(top: profile.insets.top * h, left: profile.insets.left * w,
                   bottom: profile.insets.bottom * h, right: profile.insets.right * w)
        let occ = profile.occlusions.map {
            FrameRect(x: $0.x * w, y: $0.y * h, width: $0.width * w, height: $0.height * h)
        }
        // Clear each occlusion by cutting the content from whichever edge loses the least area.
        for o in occ where o.intersects(c) {
            let candidates = [
                FrameRect(x: c.x, y: o.maxY, width: c.width, height: c.maxY - o.maxY),
                FrameRect(x: c.x, y: c.y, width: c.width, height: o.minY - c.y),
                FrameRect(x: o.maxX, y: c.y, width: c.maxX - o.maxX, height: c.height),
                FrameRect(x: c.x, y: c.y, width: o.minX - c.x, height: c.height),
            ]
            c = candidates.max { $0.area < $1.area } ?? c
        }
        content = c
        occlusions = occ
        // Even origin and size, so 4:2:0 chroma rows and columns line up.
        func even(_ v: Double) -> Double { (v / 2).rounded(.down) * 2 }

        // The self-view: in the corner of the content far from the lens, with the band it stands in
        // taken from the text's area, so the reading panel never covers it.
        let far = (profile.lens ?? .top).farSide
        let m = even(max(4, min(w, h) * 0.02))
        margin = m
        var text = c
        let sw = selfView.map { min(Double($0.width), even(c.width - 2 * m)) } ?? 0
        let sh = selfView.map { min(Double($0.height), even(c.height / 2 - 2 * m)) } ?? 0
        // A monitor too small for a picture of a few pixels shows none.
        if sw >= 8, sh >= 8 {
            let x = far.right ? c.maxX - m - sw : c.minX + m
            let y = far.bottom ? c.maxY - m - sh : c.minY + m
            self.selfView = FrameRect(x: even(x), y: even(y), width: sw, height: sh)
            let band = sh + 2 * m
            text = far.bottom ? FrameRect(x: c.x, y: c.y, width: c.width, height: c.height - band)
                : FrameRect(x: c.x, y: c.y + band, width: c.width, height: c.height - band)
        } else {
            self.selfView = nil
        }
        textArea = text

        let band = lineHeight * 1.2
        let gap = lineHeight * 0.25
        var reading: Double
        if let fraction = profile.readingLine {
            reading = fraction * h
        } else if let camera = zip(profile.occlusions, occ).first(where: { $0.0.kind == .camera })?.1 {
            // Next to the lens, on the side that faces the text.
            reading = camera.midY < h / 2 ? camera.maxY + gap + band / 2 : camera.minY - gap - band / 2
        } else {
            switch profile.lens {
            case nil: reading = text.minY + text.height * 0.3
            // As close to the lens as the lines shown around the reading line allow.
            case .top?, .topLeft?, .topRight?: reading = text.minY + Double(linesAbove) * lineHeight + band / 2
            // The same few lines between the reading line and the lens as at the top.
            case .bottom?: reading = text.maxY - Double(min(linesAbove, linesBelow)) * lineHeight - band / 2
            // Behind the glass the lens looks through the screen's centre.
            case .behind?: reading = h / 2
            }
        }
        // Two lines' room between the band and each edge of the text (as a top or bottom lens keeps): a
        // line leaving the band fades out toward the edge (the renderer's fade) instead of being cut off
        // by it while half of it is still in the undimmed band.
        reading = min(max(reading, text.minY + 2 * lineHeight + band / 2), text.maxY - 2 * lineHeight - band / 2)
        readingLineY = reading

        let panelWidth = min(text.width, maximumPanelWidth).rounded(.down)
        // The whole text area: lines fade out toward its edges (the renderer dims them) rather than stop
        // at a panel a few lines high. Even edges inside the area, so no row of text lies outside it.
        let top = (text.minY / 2).rounded(.up) * 2
        let panelHeight = even(text.maxY - top)
        // Beside a corner lens, the text starts on the lens's side.
        let x: Double
        switch profile.lens {
        case .topLeft?: x = text.minX
        case .topRight?: x = text.maxX - panelWidth
        default: x = text.midX - panelWidth / 2
        }
        panel = FrameRect(x: even(x), y: top, width: even(panelWidth), height: panelHeight)
    }
}
