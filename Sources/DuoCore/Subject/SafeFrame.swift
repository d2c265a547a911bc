/// A rectangle in pixels (origin top left). Geometry for the subject view and safe frames.
///
/// Thread: value type, Sendable.
public struct FrameRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = max(width, 0); self.height = max(height, 0)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var area: Double { width * height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Shrinks each edge by its own amount (insets are never assumed symmetric).
    public func inset(top: Double, left: Double, bottom: Double, right: Double) -> FrameRect {
        FrameRect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// Shrinks by a fraction of the size on each side: 0.035 keeps the central 93%.
    public func insetBy(fraction: Double) -> FrameRect {
        inset(top: height * fraction, left: width * fraction, bottom: height * fraction, right: width * fraction)
    }

    public func intersects(_ other: FrameRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    public var description: String { "\(Int(x.rounded())),\(Int(y.rounded())) \(Int(width.rounded()))x\(Int(height.rounded()))" }
}

/// The safe-frame geometry drawn on the subject view: the output composition for `--aspect` inside the
/// frame, and the EBU R 95 action-safe (93%) and graphics-safe (90%) areas of that composition.
///
/// Thread: value type, Sendable.
public struct SafeFrame: Sendable, Hashable {
    /// EBU R 95: action-safe keeps 93% of width and height (3.5% per edge), graphics-safe 90% (5% per edge).
    public static let actionSafeMargin = 0.035
    public static let graphicsSafeMargin = 0.05

    public let aspect: AspectRatio
    public let composition: FrameRect
    public let actionSafe: FrameRect
    public let graphicsSafe: FrameRect

    /// The composition the recording is cropped to, centred in a `frameWidth`×`frameHeight` frame.
    public init(aspect: AspectRatio, frameWidth: Int, frameHeight: Int) {
        self.aspect = aspect
        let crop = aspect.centredCrop(frameWidth: frameWidth, frameHeight: frameHeight)
        let c = FrameRect(x: Double(crop.left), y: Double(crop.top),
                          width: Double(frameWidth - crop.left - crop.right),
                          height: Double(frameHeight - crop.top - crop.bottom))
        composition = c
        actionSafe = c.insetBy(fraction: SafeFrame.actionSafeMargin)
        graphicsSafe = c.insetBy(fraction: SafeFrame.graphicsSafeMargin)
    }
}
