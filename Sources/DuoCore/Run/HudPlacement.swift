/// Where the operator HUD's text panel goes: beside the picture when the composition (`--aspect`) or the
/// picture's letterbox leaves a wide enough bar of the window outside what is recorded (a 9:16 or 1:1
/// composition on a 16:9 monitor), over the picture's top left otherwise; always inside the operator
/// display profile's insets and below any occlusion at the top (a notch, a webcam, a bezel).
///
/// Thread: value type, Sendable; pure.
extension HudModel {
    /// The narrowest side bar the panel moves into (logical pixels): below it the lines would wrap too much.
    public static let besideMinimumWidth = 240.0
    static let margin = 8.0

    /// The window's area minus the operator display profile's insets.
    public func usableArea(width: Double, height: Double) -> FrameRect {
        let i = operatorProfile.insets
        return FrameRect(x: width * i.left, y: height * i.top,
                         width: width * (1 - i.left - i.right), height: height * (1 - i.top - i.bottom))
    }

    /// The region the panel is laid out in (its lines wrap to its width), and whether that is beside the
    /// composition rather than over it.
    public func panelRegion(width: Double, height: Double) -> (region: FrameRect, beside: Bool) {
        let usable = usableArea(width: width, height: height)
        let composition = safeFrame(width: width, height: height).composition
        let left = composition.x - usable.x - 2 * Self.margin
        let right = usable.x + usable.width - (composition.x + composition.width) - 2 * Self.margin
        var region: FrameRect
        var beside = false
        if max(left, right) >= Self.besideMinimumWidth {
            beside = true
            // The left bar when it is wide enough (where the HUD always sits), else the right one.
            region = left >= Self.besideMinimumWidth
                ? FrameRect(x: usable.x + Self.margin, y: usable.y + Self.margin, width: left, height: usable.height - 2 * Self.margin)
                : FrameRect(x: composition.x + composition.width + Self.margin, y: usable.y + Self.margin, width: right, height: usable.height - 2 * Self.margin)
        } else {
            region = FrameRect(x: usable.x + Self.margin, y: usable.y + Self.margin, width: usable.width - 2 * Self.margin,
                               height: usable.height - 2 * Self.margin)
        }
        // Below any occlusion that reaches into the region's top.
        for o in operatorProfile.occlusions {
            let r = FrameRect(x: o.x * width, y: o.y * height, width: o.width * width, height: o.height * height)
            let overlapsX = r.x < region.x + region.width && r.x + r.width > region.x
            if overlapsX, r.y <= region.y + 4 * Self.margin, r.y + r.height > region.y {
                let top = r.y + r.height + Self.margin
                region = FrameRect(x: region.x, y: top, width: region.width, height: max(0, region.height - (top - region.y)))
            }
        }
        return (region, beside)
    }

    /// How far above the window's bottom edge the control bar sits (logical pixels): clear of the
    /// profile's bottom inset and of occlusions on the bottom edge.
    public func controlsBottomMargin(width: Double, height: Double) -> Double {
        var bottom = height * operatorProfile.insets.bottom
        for o in operatorProfile.occlusions where o.y + o.height >= 0.98 {
            bottom = max(bottom, height * (1 - o.y))
        }
        return bottom + 16
    }
}
