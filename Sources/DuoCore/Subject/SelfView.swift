/// Where the camera's lens sits on the subject monitor (`--lens`, or `"lens"` in a display profile): the
/// reading line goes as close to it as the layout allows, the self-view to the far side.
///
/// - `top`: a webcam on the monitor's top edge (the default);
/// - `top-left`, `top-right`: a webcam on a top corner;
/// - `bottom`: a camera below the monitor;
/// - `behind`: a beam-splitter prompter (the lens looks through the glass at the screen's centre); the
///   whole view is mirrored horizontally then, as the glass needs, unless `--mirror` says otherwise.
///
/// Thread: value type, Sendable.
public enum LensPosition: String, OptionWord, Sendable, Hashable, CaseIterable, Codable {
    case top
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottom
    case behind

    public static func unknownWord(_ text: String) -> String {
        tr("unknown lens position '%s'; use --lens top, top-left, top-right, bottom or behind", text)
    }

    /// The same lens seen in the reader's space of a picture mirrored for beam-splitter glass.
    public func mirrored(_ mirror: MirrorFlags) -> LensPosition {
        var lens = self
        if mirror.horizontal {
            lens = lens == .topLeft ? .topRight : lens == .topRight ? .topLeft : lens
        }
        if mirror.vertical {
            lens = lens == .bottom ? .top : (lens == .top || lens == .topLeft || lens == .topRight) ? .bottom : lens
        }
        return lens
    }

    /// The side of the monitor far from the lens: where the self-view goes (reader space).
    public var farSide: (bottom: Bool, right: Bool) {
        switch self {
        case .top, .behind: (true, true)
        case .topLeft: (true, true)
        case .topRight: (true, false)
        case .bottom: (false, true)
        }
    }
}

/// The self-view's size on the subject monitor (`--self-view`): `small` is a sixth of the monitor's width,
/// `large` a third; `off` shows none (and the subject branch then carries no picture).
///
/// Thread: value type, Sendable.
public enum SelfViewSize: String, OptionWord, Sendable, Hashable, CaseIterable {
    case off, small, large

    public static func unknownWord(_ text: String) -> String {
        tr("unknown self-view size '%s'; use --self-view small, large or off", text)
    }

    /// The self-view's width as a share of the monitor's width.
    public var widthFraction: Double {
        switch self {
        case .off: 0
        case .small: 1.0 / 6
        case .large: 1.0 / 3
        }
    }

    /// What the toggle (the V key, `{"cmd":"self-view"}`) turns this into: off ↔ the size last shown.
    public func toggled(shown last: SelfViewSize) -> SelfViewSize {
        self == .off ? (last == .off ? .small : last) : .off
    }
}

/// The camera picture's shape (the session's upright format), for the self-view's proportions and for a
/// safe frame when no `--aspect` crops the composition. Numbers only; nothing private.
///
/// Thread: value type, Sendable.
public struct PictureShape: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public init(width: Int, height: Int) {
        self.width = max(1, width); self.height = max(1, height)
    }

    /// The picture's own ratio, reduced (1280×720 → 16:9).
    public var aspect: AspectRatio {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = max(1, gcd(width, height))
        return AspectRatio(width / g, height / g)
    }

    /// The self-view's size for a `monitorWidth` monitor at `size`, at most `maxWidth`×`maxHeight`,
    /// even sides (4:2:0 chroma), keeping this shape. nil for `.off`. The graph scales the subject branch's
    /// picture to exactly this, once.
    public func selfViewSize(_ size: SelfViewSize, monitorWidth: Int, monitorHeight: Int) -> (width: Int, height: Int)? {
        guard size != .off else { return nil }
        var w = Double(monitorWidth) * size.widthFraction
        var h = w * Double(height) / Double(width)
        let maxHeight = Double(monitorHeight) * 0.4
        if h > maxHeight { h = maxHeight; w = h * Double(width) / Double(height) }
        let ew = max(16, Int(w) & ~1), eh = max(16, Int(h) & ~1)
        return (ew, eh)
    }
}
